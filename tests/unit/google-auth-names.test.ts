import { describe, expect, it } from 'vitest';
import { isGoogleAuthoritative, namesFor } from '../../src/server/features/google/google-auth-service.ts';

describe('Google registration helpers (docs/decisions/0004)', () => {
  it('treats Google as authoritative only for gmail.com / googlemail.com and Workspace (hd) accounts', () => {
    expect(isGoogleAuthoritative({ email: 'ana@gmail.com', hostedDomain: undefined })).toBe(true);
    expect(isGoogleAuthoritative({ email: 'Ana@GoogleMail.com', hostedDomain: undefined })).toBe(true);
    expect(isGoogleAuthoritative({ email: 'ana@empresa.es', hostedDomain: 'empresa.es' })).toBe(true);
    expect(isGoogleAuthoritative({ email: 'ana@empresa.es', hostedDomain: undefined })).toBe(false);
    expect(isGoogleAuthoritative({ email: 'ana@gmail.com.evil.example', hostedDomain: undefined })).toBe(false);
  });

  it("prefers the credential's names, cut to the spec's lengths without splitting a character", () => {
    const identity = { givenName: `${'😀'.repeat(19)}ab`, familyName: ` ${'x'.repeat(40)} `, name: undefined };
    expect(namesFor(identity, { firstName: 'Otra', lastName: 'Persona' })).toEqual({
      name: `${'😀'.repeat(19)}a`,
      lastName: 'x'.repeat(30),
    });
    expect(namesFor({ givenName: undefined, familyName: undefined, name: 'Ana García' }, {})).toEqual({
      name: 'Ana García',
      lastName: '',
    });
  });

  it("falls back to the client's names, checked by the spec's rules, only when the credential has none", () => {
    const none = { givenName: ' ', familyName: undefined, name: undefined };
    expect(namesFor(none, { firstName: ' Lucía ', lastName: null })).toEqual({ name: 'Lucía', lastName: '' });
    expect(() => namesFor(none, {})).toThrow('No se pudieron obtener los datos necesarios de Google');
    expect(() => namesFor(none, { firstName: 'x'.repeat(21) })).toThrow(
      'El campo Nombre no puede exceder los 20 caracteres',
    );
  });
});
