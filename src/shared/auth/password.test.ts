import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  meetsPasswordRules,
  PASSWORD_SPECIAL_CHARACTERS,
  passwordProblems,
  passwordStrength,
  passwordStrengthLabel,
} from './password.ts';

describe('password rules (spec 000 §5)', () => {
  it('reports each broken rule with the spec text, in order', () => {
    expect(passwordProblems('abc').map((p) => p.message)).toEqual([
      'La contraseña debe tener al menos 8 caracteres',
      'La contraseña debe contener mayúsculas y minúsculas',
      'La contraseña debe contener al menos un número',
      'La contraseña debe contener al menos un carácter especial',
    ]);
    expect(passwordProblems('abcdefgh1!').map((p) => p.rule)).toEqual(['mixedCase']);
    expect(passwordProblems('Abcdefgh!').map((p) => p.rule)).toEqual(['digit']);
    expect(passwordProblems('Abcdefgh1').map((p) => p.rule)).toEqual(['special']);
    expect(passwordProblems('Ab1!')).toHaveLength(1);
  });

  it('accepts every special character the spec lists, and only those', () => {
    for (const special of PASSWORD_SPECIAL_CHARACTERS) {
      expect(meetsPasswordRules(`Abcdefg1${special}`), special).toBe(true);
    }
    for (const other of ['~', '`', '€', '¿', ' ']) {
      expect(meetsPasswordRules(`Abcdefg1${other}`), other).toBe(false);
    }
  });

  it('counts Spanish letters as upper and lower case', () => {
    expect(meetsPasswordRules('ÑANDÚñandú1!')).toBe(true);
  });

  it('accepts long passphrases and refuses absurd lengths', () => {
    expect(meetsPasswordRules(`Aa1!${'x'.repeat(60)}`)).toBe(true);
    expect(meetsPasswordRules(`Aa1!${'x'.repeat(252)}`)).toBe(true);
    expect(passwordProblems(`Aa1!${'x'.repeat(253)}`).map((p) => p.rule)).toEqual(['maxLength']);
  });
});

describe('password strength', () => {
  it('scores 0 to 5 with the spec labels', () => {
    expect(passwordStrength('')).toBe(0);
    expect(passwordStrengthLabel(passwordStrength(''))).toBe('Muy débil');
    expect(passwordStrength('abcdefgh')).toBe(1);
    expect(passwordStrengthLabel(1)).toBe('Débil');
    expect(passwordStrength('Abcdefgh')).toBe(2);
    expect(passwordStrengthLabel(2)).toBe('Media');
    expect(passwordStrength('Abcdefg1')).toBe(3);
    expect(passwordStrengthLabel(3)).toBe('Media');
    expect(passwordStrength('Abcdef1!')).toBe(4);
    expect(passwordStrengthLabel(4)).toBe('Fuerte');
    expect(passwordStrength('Abcdefghi1!x')).toBe(5);
    expect(passwordStrengthLabel(5)).toBe('Muy fuerte');
  });

  it('always lies between 0 and 5, and a valid password is at least Fuerte', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (password) => {
        const score = passwordStrength(password);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(5);
        if (meetsPasswordRules(password)) expect(score).toBeGreaterThanOrEqual(4);
      }),
    );
  });
});
