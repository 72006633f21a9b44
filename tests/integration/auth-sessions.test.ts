// @setup embedded
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deriveServerKeys } from '../../src/server/secrets.ts';
import { type Api, createApi, decodeToken, GOOD_PASSWORD } from '../helpers/auth-api.ts';
import { connectSocket, nextEvent } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, DAY, HOUR, MINUTE } from '../helpers/test-clock.ts';

const INVALID = { success: false, message: 'Token inválido o expirado' };

describe('tokens and sessions (QUALITY 7, spec 000 §4)', () => {
  const clock = createTestClock();
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  const signIn = async (rememberMe = false) => {
    const account = await api.registerUser();
    const { token, user } = await api.login(account.email, GOOD_PASSWORD, { rememberMe });
    return { ...account, token, userId: user.userId };
  };

  it('validates a good token and answers the user', async () => {
    const { token, email, userId } = await signIn();
    const response = await api.get('/auth/validate-session', token);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, user: { userId, email } });
    expect(response.headers.get('x-new-token')).toBeNull();
  });

  it('refuses a missing, malformed or foreign Authorization header', async () => {
    expect((await api.get('/auth/validate-session')).body).toEqual({
      success: false,
      message: 'Token no proporcionado',
    });
    for (const authorization of ['Bearer', 'Bearer abc', 'Basic dXNlcjpwYXNz', `Bearer ${'a'.repeat(5000)}.b.c`]) {
      const response = await api.call('GET', '/auth/validate-session', { headers: { authorization } });
      expect(response.status, authorization.slice(0, 20)).toBe(401);
      expect(response.body.success).toBe(false);
    }
  });

  it('gives 30 days with "Recuérdame" and 12 hours without', async () => {
    const remembered = decodeToken((await signIn(true)).token);
    expect((remembered.exp as number) - (remembered.iat as number)).toBe(30 * 24 * 3600);
    const short = decodeToken((await signIn(false)).token);
    expect((short.exp as number) - (short.iat as number)).toBe(12 * 3600);
    expect(short.iat).toBe(Math.floor(clock.now().getTime() / 1000));
  });

  it('refuses an expired token', async () => {
    const { token } = await signIn(false);
    clock.advance(12 * HOUR - MINUTE);
    expect((await api.get('/auth/validate-session', token)).status).toBe(200);
    clock.advance(MINUTE);
    const expired = await api.get('/auth/validate-session', token);
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(INVALID);
  });

  it('refuses a tampered token, an unsigned one (alg none) and one signed another way', async () => {
    const { token } = await signIn();
    const other = await signIn();
    const [header, , signature] = token.split('.');
    const otherPayload = other.token.split('.')[1];
    const keys = deriveServerKeys(app.config.tokenSecret as string);
    const claims = decodeToken(token);
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

    const forged = [
      // Someone else's claims under this token's signature.
      `${header}.${otherPayload}.${signature}`,
      // The same claims, no signature.
      `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`,
      // Right key, algorithm not the pinned one.
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(keys.token),
      // Pinned algorithm, wrong key.
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new Uint8Array(32).fill(7)),
      // Right key and algorithm, but no session behind it.
      await new SignJWT({ ...claims, sid: '00000000-0000-4000-8000-000000000000' })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(keys.token),
      // Right key and algorithm, a real session, another user.
      await new SignJWT({ ...claims, sub: other.userId }).setProtectedHeader({ alg: 'HS256' }).sign(keys.token),
    ];
    for (const candidate of forged) {
      const response = await api.get('/auth/validate-session', candidate);
      expect(response.status, candidate).toBe(401);
      expect(response.body).toEqual(INVALID);
    }
    // The genuine token still works: the forgeries failed on their own.
    expect((await api.get('/auth/validate-session', token)).status).toBe(200);
  });

  it('hands a fresh token in X-New-Token past half its life, and keeps the old one valid until its exp', async () => {
    const { token } = await signIn(false);
    clock.advance(6 * HOUR - MINUTE);
    expect((await api.get('/auth/validate-session', token)).headers.get('x-new-token')).toBeNull();
    clock.advance(MINUTE);
    const renewed = await api.get('/auth/validate-session', token);
    expect(renewed.status).toBe(200);
    const fresh = renewed.headers.get('x-new-token');
    expect(fresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(renewed.headers.get('access-control-expose-headers')).toContain('X-New-Token');
    const claims = decodeToken(fresh as string);
    expect(claims.iat).toBe(Math.floor(clock.now().getTime() / 1000));
    expect((claims.exp as number) - (claims.iat as number)).toBe(12 * 3600);
    expect(claims.sid).toBe(decodeToken(token).sid);
    expect((await api.get('/auth/validate-session', fresh as string)).status).toBe(200);
    expect((await api.get('/auth/validate-session', token)).status).toBe(200);
  });

  it('never extends a session past its end (24 h without "Recuérdame")', async () => {
    const start = clock.now().getTime();
    let { token } = await signIn(false);
    for (const at of [11 * HOUR, 22 * HOUR]) {
      clock.set(new Date(start + at));
      const response = await api.get('/auth/validate-session', token);
      token = response.headers.get('x-new-token') ?? token;
    }
    expect(decodeToken(token).exp).toBe(Math.floor((start + DAY) / 1000));
    clock.set(new Date(start + 23.5 * HOUR));
    const nearEnd = await api.get('/auth/validate-session', token);
    expect(nearEnd.status).toBe(200);
    expect(nearEnd.headers.get('x-new-token')).toBeNull();
    clock.set(new Date(start + DAY));
    expect((await api.get('/auth/validate-session', token)).status).toBe(401);
  });

  it('slides a remembered session for as long as it is used, up to 90 days', async () => {
    const start = clock.now().getTime();
    let { token } = await signIn(true);
    for (let day = 20; day <= 100; day += 20) {
      clock.set(new Date(start + day * DAY));
      const response = await api.get('/auth/validate-session', token);
      if (day <= 80) expect(response.status, `day ${day}`).toBe(200);
      else expect(response.status, `day ${day}`).toBe(401);
      token = response.headers.get('x-new-token') ?? token;
      if (day <= 80)
        expect(decodeToken(token).exp as number).toBeLessThanOrEqual(Math.floor((start + 90 * DAY) / 1000));
    }
  });

  it('logs out: the token stops working, other sessions go on', async () => {
    const { token, email } = await signIn();
    const { token: otherDevice } = await api.login(email);
    const response = await api.post('/auth/logout', {}, token);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: 'Sesión cerrada correctamente' });
    expect((await api.get('/auth/validate-session', token)).body).toEqual(INVALID);
    expect((await api.post('/auth/logout', {}, token)).status).toBe(401);
    expect((await api.get('/auth/validate-session', otherDevice)).status).toBe(200);
  });

  it('disconnects the session’s sockets on logout with token_invalidated, and only those', async () => {
    const { token, email } = await signIn();
    const { token: otherDevice } = await api.login(email);
    const socket = await connectSocket(app, { token });
    const otherSocket = await connectSocket(app, { authorization: `Bearer ${otherDevice}` });
    try {
      const invalidated = nextEvent<{ reason: string; message: string }>(socket, 'token_invalidated');
      const disconnected = nextEvent<string>(socket, 'disconnect');
      expect((await api.post('/auth/logout', {}, token)).status).toBe(200);
      expect(await invalidated).toEqual({
        reason: 'logout',
        message: 'Tu sesión ha finalizado. Por favor, inicia sesión de nuevo.',
      });
      expect(await disconnected).toBe('io server disconnect');
      expect(otherSocket.connected).toBe(true);
      await expect(connectSocket(app, { token })).rejects.toThrow('Token inválido o expirado');
    } finally {
      socket.close();
      otherSocket.close();
    }
  });

  it('refuses sockets without a valid token', async () => {
    await expect(connectSocket(app, {})).rejects.toThrow('Token no proporcionado');
    await expect(connectSocket(app, { token: 'not.a.token' })).rejects.toThrow('Token inválido o expirado');
    const { token } = await signIn(false);
    clock.advance(13 * HOUR);
    await expect(connectSocket(app, { token })).rejects.toThrow('Token inválido o expirado');
  });
});

describe('update-streak (spec 000 §4)', () => {
  // 09:00 in Madrid (UTC+1 in March).
  const clock = createTestClock('2026-03-10T08:00:00.000Z');
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('computes the streak itself from its last day and today in Madrid', async () => {
    clock.set('2026-03-10T08:00:00.000Z');
    const account = await api.registerUser();
    const { token, user } = await api.login(account.email, GOOD_PASSWORD, { rememberMe: true });
    const post = (body: Record<string, unknown>) =>
      api.post('/auth/update-streak', { userId: user.userId, ...body }, token);

    // First day: 1, whatever the client claims.
    expect((await post({ streak: 57, lastLoginDate: '2026-03-09' })).body).toEqual({
      success: true,
      message: 'Racha actualizada',
      streak: 1,
      lastLoginDate: '2026-03-10',
    });
    // Same day: unchanged.
    clock.set('2026-03-10T20:00:00.000Z');
    expect((await post({ streak: 2, lastLoginDate: '2026-03-10' })).body).toMatchObject({ streak: 1 });
    // 23:30 UTC is already the 11th in Madrid: the next day, +1.
    clock.set('2026-03-10T23:30:00.000Z');
    expect((await post({ streak: 1, lastLoginDate: '2026-03-10' })).body).toMatchObject({
      streak: 2,
      lastLoginDate: '2026-03-11',
    });
    clock.set('2026-03-12T10:00:00.000Z');
    expect((await post({})).body).toMatchObject({ streak: 3, lastLoginDate: '2026-03-12' });
    // A missed day starts again at 1.
    clock.set('2026-03-14T10:00:00.000Z');
    expect((await post({ streak: 4 })).body).toMatchObject({ streak: 1, lastLoginDate: '2026-03-14' });

    const session = await api.get('/auth/validate-session', token);
    expect(session.body).toMatchObject({ user: { streak: 1, lastLoginDate: '2026-03-14' } });
    const login = await api.login(account.email);
    expect(login.user).toMatchObject({ streak: 1, lastLoginDate: '2026-03-14' });
  });

  it('refuses to update someone else’s streak (403), a malformed body (400) and no token (401)', async () => {
    const me = await api.registerUser();
    const other = await api.registerUser();
    const { token } = await api.login(me.email);
    const forbidden = await api.post('/auth/update-streak', { userId: other.userId, streak: 99 }, token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ success: false, message: 'No tienes permiso para realizar esta acción' });
    expect((await api.post('/auth/update-streak', { userId: 'yo' }, token)).status).toBe(400);
    expect((await api.post('/auth/update-streak', { userId: me.userId, streak: 'mucho' }, token)).status).toBe(400);
    expect((await api.post('/auth/update-streak', { userId: me.userId })).status).toBe(401);
    const otherLogin = await api.login(other.email);
    expect(otherLogin.user).toMatchObject({ streak: 0, lastLoginDate: null });
  });
});
