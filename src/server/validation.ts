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
  const errorType = options.errorType ?? 'VALIDATION';
  if (isArrayForObject(schema, input)) throw new AppError(400, typeMessage(schema), errorType);
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const message = issue && isSpanishMessage(issue.message) ? issue.message : SERVER_MESSAGES.invalidBody;
  throw new AppError(400, message, errorType);
}

const OBJECT_SCHEMA_TYPES = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);

/**
 * valibot's object schemas take an array as an object (its missing keys are simply absent), so
 * `[]` would pass for a body whose fields are all optional: an array where an object is expected
 * is refused before parsing.
 */
export function isArrayForObject(schema: v.GenericSchema, input: unknown): boolean {
  return Array.isArray(input) && OBJECT_SCHEMA_TYPES.has(schema.type);
}

/** The schema's own message for a value of the wrong type, when it gives a Spanish one. */
function typeMessage(schema: v.GenericSchema): string {
  const message = (schema as { message?: unknown }).message;
  return typeof message === 'string' && isSpanishMessage(message) ? message : SERVER_MESSAGES.invalidBody;
}

/** valibot's own default messages are English ("Invalid type: ..."); ours never start that way. */
function isSpanishMessage(message: string): boolean {
  return !/^Invalid /.test(message);
}
