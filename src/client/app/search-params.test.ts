import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  isSafeReturnPath,
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
    expect(v.parse(LoginSearchSchema, { error: 'token_missing' })).toMatchObject({ error: 'token_missing' });
    expect(v.parse(LoginSearchSchema, { error: '<script>' })).toMatchObject({ error: undefined });
  });

  it('keeps a return page only inside the signed-in area of this app (decision 0044)', () => {
    for (const page of ['/messages/c-1', '/matches', '/home?x=1', '/notifications#top', '/config']) {
      expect(isSafeReturnPath(page), page).toBe(true);
      expect(v.parse(LoginSearchSchema, { redirect: page }).redirect).toBe(page);
    }
    for (const page of [
      'https://evil.example/home',
      '//evil.example/home',
      '/\\evil.example/home',
      '/\t/evil.example/home',
      '/home/../login',
      'home',
      '/login',
      '/register/email',
      '/unauthorized',
      '/no-existe',
      'javascript:alert(1)',
    ]) {
      expect(isSafeReturnPath(page), page).toBe(false);
      expect(v.parse(LoginSearchSchema, { redirect: page }).redirect).toBeUndefined();
    }
  });
});
