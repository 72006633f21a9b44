import { describe, expect, it } from 'vitest';
import { meetsPasswordRules } from '#shared/auth/password';
import { isCommonPassword } from './common-passwords.ts';

describe('common password blocklist', () => {
  it.each([
    'Password1!',
    'P@ssw0rd2024',
    'Qwerty123!',
    'Barcelona10#',
    'RealMadrid2024!',
    'Contraseña1!',
    'Aa123456!',
    'Abc12345!',
    '!!Iloveyou99',
    'Entreno2026!',
    'Gimnasio#1',
    'Pa$$word99',
    'Correct-Horse-Battery-Staple-1',
  ])('refuses %s although it meets the composition rules', (password) => {
    expect(meetsPasswordRules(password)).toBe(true);
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['Entrena#2026xQ', 'Mi-Perro-Toby-2024!', 'Abc!x9Lm#2qP', 'Sentadillas&Cafe7', 'Zq8#pLr2vT'])(
    'accepts %s',
    (password) => {
      expect(isCommonPassword(password)).toBe(false);
    },
  );
});
