import * as v from 'valibot';
import { SERVER_MESSAGES } from '#shared/messages';
import { AppError } from './errors.ts';

/**
 * Parses untrusted input with a shared schema. The first issue's message becomes the 400 answer,
 * so schemas carry the spec's Spanish texts; structural issues fall back to a generic one.
 */
export function parseInput<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
  options: { errorType?: string } = {},
): v.InferOutput<TSchema> {
  const result = checkInput(schema, input);
  if (result.success) return result.output;
  throw new AppError(400, result.message ?? SERVER_MESSAGES.invalidBody, options.errorType ?? 'VALIDATION');
}

/**
 * The same check for callers that answer in their own shape (socket events): the output, or the
 * first issue's Spanish message (undefined when only valibot's English default is there).
 */
export function checkInput<const TSchema extends v.GenericSchema>(
  schema: TSchema,
  input: unknown,
): { success: true; output: v.InferOutput<TSchema> } | { success: false; message: string | undefined } {
  // valibot's object schemas take an array as an object (its missing keys simply absent), so `[]`
  // would pass for a body whose fields are all optional: refused with the schema's type message.
  if (Array.isArray(input) && OBJECT_SCHEMA_TYPES.has(schema.type)) {
    return { success: false, message: spanishOrUndefined((schema as { message?: unknown }).message) };
  }
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return { success: true, output: result.output };
  return { success: false, message: spanishOrUndefined(result.issues[0]?.message) };
}

const OBJECT_SCHEMA_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/** valibot's own default messages are English ("Invalid type: ..."); ours never start that way. */
function spanishOrUndefined(message: unknown): string | undefined {
  return typeof message === 'string' && !/^Invalid /.test(message) ? message : undefined;
}
