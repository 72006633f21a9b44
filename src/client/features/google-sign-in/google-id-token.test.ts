import { expect, it } from 'vitest';
import { readGoogleAccount } from './google-id-token.ts';

const base64url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const token = (payload: object) => ['eyJhbGciOiJSUzI1NiJ9', base64url(JSON.stringify(payload)), 'c2ln'].join('.');

it('reads the identity, accents included', () => {
  expect(
    readGoogleAccount(
      token({
        sub: '1087',
        email: 'lucia@example.com',
        given_name: 'Lucía',
        family_name: 'Martín García',
        picture: 'https://example.com/a.png',
        name: 'Lucía Martín García',
      }),
    ),
  ).toEqual({
    sub: '1087',
    email: 'lucia@example.com',
    givenName: 'Lucía',
    familyName: 'Martín García',
    picture: 'https://example.com/a.png',
    name: 'Lucía Martín García',
  });
});

it('needs an e-mail and a first name', () => {
  expect(readGoogleAccount(token({ sub: '1', given_name: 'Ana' }))).toBeNull();
  expect(readGoogleAccount(token({ sub: '1', email: 'a@example.com' }))).toBeNull();
  expect(readGoogleAccount(token({ sub: '1', email: 'a@example.com', name: 'Ana Ruiz' }))).toMatchObject({
    givenName: 'Ana',
    familyName: '',
  });
});

it('refuses what is not a token', () => {
  expect(readGoogleAccount('')).toBeNull();
  expect(readGoogleAccount('a.%%%.c')).toBeNull();
  expect(readGoogleAccount(`a.${base64url('[1,2]')}.c`)).toBeNull();
});
