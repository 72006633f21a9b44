// @setup embedded
import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { passwordResetTokens } from '../../../src/server/db/schema/index.ts';
import { type Api, createApi, GOOD_PASSWORD } from '../../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE, SECOND } from '../../helpers/test-clock.ts';

const PUBLIC_ORIGIN = 'https://entreno.example';
const NEW_PASSWORD = 'Remo&Dominadas42';

/** A raw HTTP POST, so the Host header itself can be forged (fetch does not let it be set). */
function rawPost(app: TestApp, path: string, body: unknown, headers: Record<string, string>): Promise<number> {
  const url = new URL(`${app.url}/api${path}`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

/**
 * QUALITY 5: reset links carry ≥ 128 random bits, are stored hashed, work once, for one hour, are
 * built from PUBLIC_ORIGIN whatever Host the request claims, and a reset ends every session.
 * (auth-password-reset.test.ts covers the spec's flow and texts.) The app runs in production mode,
 * where it trusts its proxy's forwarded headers — the mode in which a forged X-Forwarded-Host matters.
 */
describe('Q05 password reset links', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ env: 'production', publicOrigin: PUBLIC_ORIGIN }, { dependencies: { clock } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  /** Asks for a link (with whatever headers) and reads it from the mail, as the victim's inbox would show it. */
  const requestLink = async (email: string, headers: Record<string, string> = {}) => {
    const before = (await api.outbox(email)).length;
    expect(await rawPost(app, '/auth/forgot-password', { email }, headers)).toBe(200);
    await app.auth.passwordReset.whenIdle();
    const entries = await api.waitForOutbox(email, before + 1);
    const entry = entries[0];
    expect(entry?.link, 'no reset link mailed').toBeTruthy();
    const link = new URL(entry?.link as string);
    return { link, token: link.searchParams.get('token') as string, entry };
  };

  const reset = (email: string, token: string, newPassword = NEW_PASSWORD) =>
    api.post('/auth/reset-password', { email, token, newPassword });

  it('a link carries at least 128 random bits, different every time', async () => {
    const { email } = await api.registerUser();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      clock.advance(2 * HOUR);
      tokens.push((await requestLink(email)).token);
    }
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
      const bytes = Buffer.from(token, 'base64url');
      expect(bytes.length * 8).toBeGreaterThanOrEqual(128);
      // Not a counter, a timestamp or a low-entropy string: many distinct byte values.
      expect(new Set(bytes).size).toBeGreaterThan(bytes.length / 2);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('is built from PUBLIC_ORIGIN even when the request forges Host and X-Forwarded-Host', async () => {
    const { email } = await api.registerUser();
    const { link, entry } = await requestLink(email, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'http',
      forwarded: 'host=evil.example;proto=http',
    });
    expect(link.origin).toBe(PUBLIC_ORIGIN);
    expect(link.pathname).toBe('/reset-password');
    expect(`${entry?.text}\n${entry?.html}`).not.toContain('evil.example');
  });

  it('the token is stored hashed: the database has no plaintext token', async () => {
    const { email, userId } = await api.registerUser();
    const { token } = await requestLink(email);
    const rows = await app.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toBe(token);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(Buffer.from(token, 'base64url').toString('hex'));
  });

  it('works once, and the reset ends every session of the user (old tokens get 401)', async () => {
    const { email } = await api.registerUser();
    const phoneSession = (await api.login(email, GOOD_PASSWORD, { rememberMe: true })).token;
    const laptopSession = (await api.login(email)).token;
    for (const token of [phoneSession, laptopSession]) {
      expect((await api.get('/auth/validate-session', token)).status).toBe(200);
    }
    const { token } = await requestLink(email);
    const done = await reset(email, token);
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    for (const old of [phoneSession, laptopSession]) {
      const refused = await api.get('/auth/validate-session', old);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ success: false });
    }
    // Single use: the same link cannot set another password (the attacker replaying a leaked link).
    const replay = await reset(email, token, 'Otra&Clave2026x');
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ success: false, errorType: 'RESET_LINK_INVALID' });
    expect((await api.post('/auth/login', { email, password: 'Otra&Clave2026x' })).status).toBe(401);
    await api.login(email, NEW_PASSWORD);
  });

  it('expires after one hour (server clock)', async () => {
    const { email } = await api.registerUser();
    const { token: fresh } = await requestLink(email);
    clock.advance(59 * MINUTE);
    expect((await api.post('/auth/validate-reset-token', { email, token: fresh })).body).toMatchObject({ valid: true });
    clock.advance(MINUTE + SECOND);
    expect((await api.post('/auth/validate-reset-token', { email, token: fresh })).body).toMatchObject({
      valid: false,
    });
    const late = await reset(email, fresh);
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ success: false, errorType: 'RESET_LINK_EXPIRED' });
    await api.login(email, GOOD_PASSWORD);
  });

  it("a token is bound to its account: it does not reset someone else's password", async () => {
    const attacker = await api.registerUser();
    const victim = await api.registerUser();
    const { token } = await requestLink(attacker.email);
    const stolen = await reset(victim.email, token);
    expect(stolen.status).toBe(400);
    expect(stolen.body).toMatchObject({ errorType: 'RESET_LINK_INVALID' });
    await api.login(victim.email, GOOD_PASSWORD);
  });
});
