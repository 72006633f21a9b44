import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '#shared/messages';
import { AppError } from './errors.ts';
import { checkInput, parseInput } from './validation.ts';

const Optional = v.object({ note: v.optional(v.string()) });

function refusal(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('parsed without a refusal');
}

describe('parseInput', () => {
  it('refuses an array where an object of optional fields is expected (valibot alone takes it as {})', () => {
    expect(v.safeParse(Optional, []).success).toBe(true);
    for (const schema of [Optional, v.strictObject({ note: v.optional(v.string()) }), v.looseObject({})]) {
      const error = refusal(() => parseInput(schema, [{ note: 'x' }]));
      expect(error.statusCode).toBe(400);
      expect(error.message).toBe(SERVER_MESSAGES.invalidBody);
    }
  });

  it("refuses it with the schema's own Spanish message for a wrong type, when it has one", () => {
    const Settings = v.pipe(v.strictObject({ theme: v.optional(v.string()) }, 'La configuración no es válida'));
    expect(refusal(() => parseInput(Settings, [])).message).toBe('La configuración no es válida');
    expect(refusal(() => parseInput(v.object({}, 'Invalid type'), [])).message).toBe(SERVER_MESSAGES.invalidBody);
  });

  it('still parses an object, and an array where the schema is an array', () => {
    expect(parseInput(Optional, { note: 'hola' })).toEqual({ note: 'hola' });
    expect(parseInput(v.array(v.string()), ['a'])).toEqual(['a']);
    expect(checkInput(v.array(v.string()), [])).toEqual({ success: true, output: [] });
    expect(checkInput(v.pipe(Optional, v.readonly()), [])).toEqual({ success: false, message: undefined });
  });

  it("answers the schema's Spanish message, and a generic one for valibot's English defaults", () => {
    const Named = v.object({ name: v.pipe(v.string('El nombre es obligatorio'), v.minLength(2, 'Muy corto')) });
    expect(refusal(() => parseInput(Named, { name: 'a' })).message).toBe('Muy corto');
    expect(refusal(() => parseInput(v.object({ n: v.number() }), { n: 'x' })).message).toBe(
      SERVER_MESSAGES.invalidBody,
    );
  });
});
