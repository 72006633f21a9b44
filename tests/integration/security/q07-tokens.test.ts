// @setup embedded
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveServerKeys } from '../../../src/server/secrets.ts';
import { createApi, decodeToken } from '../../helpers/auth-api.ts';
import { createSignedInUser } from '../../helpers/discovery-api.ts';
import { connectSocket, nextEvent } from '../../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock } from '../../helpers/test-clock.ts';

/** QUALITY 7: signed, algorithm pinned, exp checked, tied to a revocable session row — HTTP and sockets. */
describe('Q07 tokens', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const refusedEverywhere = async (token: string) => {
    const api = createApi(app);
    const http = await api.get('/auth/validate-session', token);
    expect(http.status, token).toBe(401);
    expect(http.body).toMatchObject({ success: false });
    await expect(connectSocket(app, { token })).rejects.toBeTruthy();
  };

  it('forged tokens: alg none, HS512 with the real key, RS256 header, tampered payload, foreign key', async () => {
    const user = await createSignedInUser(app);
    const claims = decodeToken(user.token);
    const [header, , signature] = user.token.split('.');
    const key = deriveServerKeys(app.config.tokenSecret as string).token;
    const forged = [
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key),
      `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}.${signature}`,
      `${header}.${b64({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })}.${signature}`,
      `${header}.${b64({ ...claims, exp: Number(claims.exp) + 10_000_000 })}.${signature}`,
      await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('x'.repeat(48))),
    ];
    for (const token of forged) await refusedEverywhere(token);
    // The genuine token still works, so the refusals above are the checks, not a broken setup.
    expect((await createApi(app).get('/auth/validate-session', user.token)).status).toBe(200);
  });

  it('an expired token is refused (moved clock), on HTTP and at socket connect', async () => {
    const user = await createSignedInUser(app);
    const { token } = await app.auth.sessions.issueSession(user.userId, { rememberMe: false });
    clock.advance(25 * 3_600_000);
    await refusedEverywhere(token);
  });

  it('logout revokes at once: HTTP refuses, the open socket hears token_invalidated and is cut', async () => {
    const user = await createSignedInUser(app);
    const socket = await connectSocket(app, { token: user.token });
    const invalidated = nextEvent<{ reason: string }>(socket, 'token_invalidated');
    const disconnected = nextEvent(socket, 'disconnect');
    expect((await createApi(app).post('/auth/logout', {}, user.token)).status).toBe(200);
    expect(await invalidated).toMatchObject({ reason: 'logout' });
    await disconnected;
    await refusedEverywhere(user.token);
  });

  it('revoking every session (reset, deletion) kills all of the user tokens', async () => {
    const user = await createSignedInUser(app);
    const second = await app.auth.sessions.issueSession(user.userId, { rememberMe: true });
    await app.auth.sessions.revokeAllSessions(user.userId, 'password_reset');
    await refusedEverywhere(user.token);
    await refusedEverywhere(second.token);
  });
});
