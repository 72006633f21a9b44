// @setup embedded
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Api, createApi, GOOD_PASSWORD, uniqueEmail } from '../helpers/auth-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';

const ACCEPTED = {
  success: true,
  message:
    'Si existe una cuenta asociada a este email, recibirás un correo con las instrucciones para restablecer tu contraseña.',
};
const NEW_PASSWORD = 'Press&Banca2027';
const PUBLIC_ORIGIN = 'https://entreno.example';

describe('password recovery (QUALITY 5, spec 000 §7-§8)', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ publicOrigin: PUBLIC_ORIGIN }, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  /** Requests a link and returns its token, read from the e-mail in the outbox. */
  const requestLink = async (email: string, previous = 0) => {
    const response = await api.post('/auth/forgot-password', { email });
    expect(response.status).toBe(200);
    const entries = await api.waitForOutbox(email, previous + 1);
    expect(entries.length).toBe(previous + 1);
    const link = new URL(entries[0]?.link as string);
    return { token: link.searchParams.get('token') as string, link, entry: entries[0] };
  };

  it('answers the same whether or not the account exists, and mails only a real one', async () => {
    const { email } = await api.registerUser();
    const ghost = uniqueEmail('ghost');
    const known = await api.post('/auth/forgot-password', { email });
    const unknown = await api.post('/auth/forgot-password', { email: ghost });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(ACCEPTED);
    expect(unknown.body).toEqual(ACCEPTED);
    await app.auth.passwordReset.whenIdle();
    expect(await api.outbox(email)).toHaveLength(1);
    expect(await api.outbox(ghost)).toHaveLength(0);
  });

  it('mails a Spanish link built from PUBLIC_ORIGIN, never from the Host header', async () => {
    const { email, name } = await api.registerUser({ name: 'Irene' });
    const response = await api.call('POST', '/auth/forgot-password', {
      body: { email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(response.status).toBe(200);
    const [entry] = await api.waitForOutbox(email);
    const link = new URL(entry?.link as string);
    expect(link.origin).toBe(PUBLIC_ORIGIN);
    expect(link.pathname).toBe('/reset-password');
    expect(link.searchParams.get('email')).toBe(email);
    const token = link.searchParams.get('token') as string;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(entry?.subject).toBe('Restablece tu contraseña de Entreno');
    expect(entry?.text).toContain(`Hola, ${name}:`);
    expect(entry?.text).toContain(entry?.link as string);
    expect(entry?.text).toContain('caduca en 1 hora');
    expect(entry?.text).toContain('Si no has solicitado este cambio');
    expect(entry?.html).toContain('<html lang="es">');
    expect(entry?.html).toContain('Restablecer contraseña');
    expect(entry?.html).toContain(link.toString().replaceAll('&', '&amp;'));
    expect(`${entry?.text}${entry?.html}`).not.toContain('evil.example');
  });

  it('validates a link: valid for its e-mail, invalid for another e-mail or a made-up token', async () => {
    const { email } = await api.registerUser();
    const { token } = await requestLink(email);
    expect((await api.post('/auth/validate-reset-token', { token, email: email.toUpperCase() })).body).toEqual({
      success: true,
      valid: true,
    });
    expect((await api.post('/auth/validate-reset-token', { token, email: uniqueEmail() })).body.valid).toBe(false);
    expect((await api.post('/auth/validate-reset-token', { token: `${token}x`, email })).body.valid).toBe(false);
    const missing = await api.post('/auth/validate-reset-token', { token: '', email });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Link de recuperación inválido');
  });

  it('resets the password once: the link is single use and the new password logs in', async () => {
    const { email } = await api.registerUser();
    const { token } = await requestLink(email);
    const reset = await api.post('/auth/reset-password', { token, email, newPassword: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ success: true, message: 'Contraseña actualizada correctamente' });
    expect((await api.post('/auth/login', { email, password: GOOD_PASSWORD })).status).toBe(401);
    await api.login(email, NEW_PASSWORD);

    const again = await api.post('/auth/reset-password', { token, email, newPassword: 'Otra&Clave2028' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      success: false,
      message: 'Link de recuperación inválido',
      errorType: 'RESET_LINK_INVALID',
    });
    expect((await api.post('/auth/validate-reset-token', { token, email })).body.valid).toBe(false);
  });

  it('expires a link after 1 hour with a message containing "expirado"', async () => {
    const { email } = await api.registerUser();
    const { token } = await requestLink(email);
    clock.advance(HOUR - MINUTE);
    expect((await api.post('/auth/validate-reset-token', { token, email })).body.valid).toBe(true);
    clock.advance(MINUTE);
    expect((await api.post('/auth/validate-reset-token', { token, email })).body.valid).toBe(false);
    const expired = await api.post('/auth/reset-password', { token, email, newPassword: NEW_PASSWORD });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({
      success: false,
      message: 'El enlace de restablecimiento de contraseña ha expirado. Por favor, solicita uno nuevo.',
      errorType: 'RESET_LINK_EXPIRED',
    });
    expect(expired.body.message).toContain('expirado');
  });

  it('a later request (anyone can make one) does not cancel a link; using one ends the others', async () => {
    const { email } = await api.registerUser();
    const first = await requestLink(email);
    const second = await requestLink(email, 1);
    expect((await api.post('/auth/validate-reset-token', { token: first.token, email })).body.valid).toBe(true);
    expect(
      (await api.post('/auth/reset-password', { token: first.token, email, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
    expect((await api.post('/auth/validate-reset-token', { token: second.token, email })).body.valid).toBe(false);
  });

  it('refuses the current password, weak ones and common ones with their texts, without using the link up', async () => {
    const { email } = await api.registerUser();
    const { token } = await requestLink(email);
    const cases: [string, string][] = [
      [GOOD_PASSWORD, 'La nueva contraseña debe ser diferente a la actual'],
      ['corta1!', 'La contraseña debe tener al menos 8 caracteres'],
      ['sinmayusculas1!', 'La contraseña debe contener mayúsculas y minúsculas'],
      ['SinNumeros!!', 'La contraseña debe contener al menos un número'],
      ['SinEspeciales12', 'La contraseña debe contener al menos un carácter especial'],
      ['Qwerty123!', 'Esta contraseña es demasiado común y fácil de adivinar. Por favor, elige otra diferente.'],
    ];
    for (const [newPassword, message] of cases) {
      const refused = await api.post('/auth/reset-password', { token, email, newPassword });
      expect(refused.status, newPassword).toBe(400);
      expect(refused.body.message).toBe(message);
    }
    expect((await api.post('/auth/reset-password', { token, email, newPassword: NEW_PASSWORD })).status).toBe(200);
  });

  it('ends every session of the user, on HTTP and on sockets', async () => {
    const { email } = await api.registerUser();
    const phone = await api.login(email, GOOD_PASSWORD, { rememberMe: true });
    const laptop = await api.login(email);
    const socket = await connectSocket(app, { token: phone.token });
    try {
      const invalidated = nextEvent<{ reason: string }>(socket, 'token_invalidated');
      const disconnected = nextEvent(socket, 'disconnect');
      const { token } = await requestLink(email);
      expect((await api.post('/auth/reset-password', { token, email, newPassword: NEW_PASSWORD })).status).toBe(200);
      expect(await invalidated).toMatchObject({ reason: 'password_reset' });
      await disconnected;
      expect((await api.get('/auth/validate-session', phone.token)).status).toBe(401);
      expect((await api.get('/auth/validate-session', laptop.token)).status).toBe(401);
    } finally {
      socket.close();
    }
  });

  it('validates the forgot-password body with the spec text', async () => {
    const refused = await api.post('/auth/forgot-password', { email: 'no-es-un-email' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('El email introducido no tiene la estructura correcta');
  });

  it('mails at most 3 links per e-mail and hour, answering alike; a stranger cannot lock the owner out', async () => {
    const { email } = await api.registerUser();
    const ghost = uniqueEmail('ghost');
    // A stranger asks three times: the owner receives three working links.
    const stranger = await requestLink(email);
    await requestLink(email, 1);
    await requestLink(email, 2);
    for (const address of [email, ghost, email]) {
      const again = await api.post('/auth/forgot-password', { email: address });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(ACCEPTED);
    }
    await app.auth.passwordReset.whenIdle();
    expect(await api.outbox(email)).toHaveLength(3);
    // The owner's own request was answered like any other, and every link mailed still works.
    expect((await api.post('/auth/validate-reset-token', { token: stranger.token, email })).body.valid).toBe(true);
    expect(
      (await api.post('/auth/reset-password', { token: stranger.token, email, newPassword: NEW_PASSWORD })).status,
    ).toBe(200);
    // The next hour mails again.
    clock.advance(HOUR);
    await requestLink(email, 3);
  });
});
