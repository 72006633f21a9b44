import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  CheckEmailRequestSchema,
  LoginRequestSchema,
  NewPasswordSchema,
  RegisterRequestSchema,
  ResetPasswordRequestSchema,
  SendCodeRequestSchema,
  UpdateStreakRequestSchema,
  VerifyCodeRequestSchema,
} from './auth-schemas.ts';

const firstMessage = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input, { abortEarly: true });
  return result.success ? null : result.issues[0]?.message;
};

describe('access-area request schemas', () => {
  it('normalizes a registration and defaults the surname to the empty string', () => {
    const output = v.parse(RegisterRequestSchema, {
      name: '  Lucía ',
      email: ' Lucia@Example.COM ',
      phone: '612 398 745',
      password: 'Entrena#2026',
    });
    expect(output).toEqual({
      name: 'Lucía',
      lastName: '',
      email: 'lucia@example.com',
      phone: '+34612398745',
      password: 'Entrena#2026',
    });
  });

  it('carries the spec texts for names, e-mails and phones', () => {
    const base = {
      name: 'Ana',
      lastName: '',
      email: 'ana@example.com',
      phone: '+34612398745',
      password: 'Entrena#2026',
    };
    expect(firstMessage(RegisterRequestSchema, { ...base, name: '   ' })).toBe('El campo Nombre es obligatorio');
    expect(firstMessage(RegisterRequestSchema, { ...base, name: 'x'.repeat(21) })).toBe(
      'El campo Nombre no puede exceder los 20 caracteres',
    );
    expect(firstMessage(RegisterRequestSchema, { ...base, lastName: 'x'.repeat(31) })).toBe(
      'El campo Apellidos no puede exceder los 30 caracteres',
    );
    expect(firstMessage(RegisterRequestSchema, { ...base, email: '' })).toBe('El campo Email es obligatorio');
    expect(firstMessage(RegisterRequestSchema, { ...base, email: 'ana @example.com' })).toBe(
      'Por favor ingresa un Email válido',
    );
    expect(firstMessage(CheckEmailRequestSchema, { email: 'nope' })).toBe('Por favor ingresa un Email válido');
    expect(firstMessage(SendCodeRequestSchema, { phone: '+33612398745' })).toBe(
      'El número de teléfono no es válido o no está en el formato correcto.',
    );
    expect(firstMessage(VerifyCodeRequestSchema, { phone: '+34612398745', code: '12345' })).toBe(
      'El código debe tener 6 dígitos',
    );
  });

  it('checks every password rule with its text', () => {
    expect(firstMessage(NewPasswordSchema, 'Ab1!')).toBe('La contraseña debe tener al menos 8 caracteres');
    expect(firstMessage(NewPasswordSchema, 'abcdefg1!')).toBe('La contraseña debe contener mayúsculas y minúsculas');
    expect(firstMessage(NewPasswordSchema, 'Abcdefgh!')).toBe('La contraseña debe contener al menos un número');
    expect(firstMessage(NewPasswordSchema, 'Abcdefgh1')).toBe(
      'La contraseña debe contener al menos un carácter especial',
    );
    expect(firstMessage(NewPasswordSchema, `Aa1!${'x'.repeat(300)}`)).toBe(
      'La contraseña no puede tener más de 256 caracteres',
    );
    expect(firstMessage(NewPasswordSchema, `Aa1!${'x'.repeat(60)}`)).toBeNull();
    expect(firstMessage(ResetPasswordRequestSchema, { token: '', email: 'a@b.es', newPassword: 'Entrena#2026' })).toBe(
      'Link de recuperación inválido',
    );
  });

  it('validates the login body, location included', () => {
    expect(v.parse(LoginRequestSchema, { email: 'A@B.es', password: '12345678' })).toEqual({
      email: 'a@b.es',
      password: '12345678',
      rememberMe: false,
    });
    expect(firstMessage(LoginRequestSchema, { email: 'a@b', password: '12345678' })).toBe(
      'El email introducido no tiene la estructura correcta',
    );
    expect(firstMessage(LoginRequestSchema, { email: 'a@b.es', password: '1234567' })).toBe(
      'La contraseña debe tener al menos 8 caracteres',
    );
    const located = { email: 'a@b.es', password: '12345678', rememberMe: true, latitude: 40.4168, longitude: -3.7038 };
    expect(v.safeParse(LoginRequestSchema, located).success).toBe(true);
    expect(v.safeParse(LoginRequestSchema, { ...located, latitude: null, longitude: null }).success).toBe(true);
    expect(firstMessage(LoginRequestSchema, { ...located, latitude: 91 })).toBe('La ubicación enviada no es válida');
    expect(firstMessage(LoginRequestSchema, { ...located, longitude: '3' })).toBe('La ubicación enviada no es válida');
  });

  it('refuses unknown fields', () => {
    expect(v.safeParse(LoginRequestSchema, { email: 'a@b.es', password: '12345678', isAdmin: true }).success).toBe(
      false,
    );
    expect(v.safeParse(UpdateStreakRequestSchema, { userId: 'not-a-uuid' }).success).toBe(false);
  });
});
