import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  LoginSearchSchema,
  parsePlainSearch,
  ResetPasswordSearchSchema,
  stringifyPlainSearch,
} from './search-params.ts';

describe('plain search params', () => {
  it('keeps every value a string, as sent', () => {
    expect(parsePlainSearch('?token=123e4&email=ana%2Bgym%40example.com')).toEqual({
      token: '123e4',
      email: 'ana+gym@example.com',
    });
    expect(parsePlainSearch('')).toEqual({});
  });

  it('round-trips through stringify', () => {
    const search = { token: 'a-b_c', email: 'ana+gym@example.com' };
    expect(parsePlainSearch(stringifyPlainSearch(search))).toEqual(search);
    expect(stringifyPlainSearch({ empty: undefined })).toBe('');
  });
});

describe('route search schemas', () => {
  it('accepts the reset link and tolerates missing parts', () => {
    expect(v.parse(ResetPasswordSearchSchema, { token: 'abc', email: 'ana@example.com', extra: 'x' })).toEqual({
      token: 'abc',
      email: 'ana@example.com',
    });
    expect(v.parse(ResetPasswordSearchSchema, { token: '  ' })).toEqual({ token: undefined, email: undefined });
  });

  it('keeps only the known login error', () => {
    expect(v.parse(LoginSearchSchema, { error: 'token_missing' })).toEqual({ error: 'token_missing' });
    expect(v.parse(LoginSearchSchema, { error: '<script>' })).toEqual({ error: undefined });
  });
});
