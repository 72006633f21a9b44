// @setup embedded
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { maskEmail, redactUrl } from '../../src/server/logger.ts';
import { type Api, createApi, GOOD_PASSWORD, uniquePhone } from '../helpers/auth-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue #24 item 3, QUALITY 33: no log line holds a secret (token, code, reset link, password)
 * nor an e-mail address in clear. The app logs at `info` into a captured stream while a person
 * registers, asks for a reset link, opens it, resets, and signs in; then the log is searched.
 */
describe('log redaction', () => {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  let app: TestApp;
  let api: Api;
  beforeAll(async () => {
    app = await startTestApp({ logLevel: 'info' }, { dependencies: { logStream: capture } });
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('opening a reset link, resetting and signing in leave no secret and no clear address in the log', async () => {
    const phone = uniquePhone();
    const account = await api.registerUser({ phone });
    const [sms] = await api.outbox(phone);
    const code = sms?.code as string;
    expect((await api.post('/auth/forgot-password', { email: account.email })).status).toBe(200);
    const [mail] = await api.waitForOutbox(account.email);
    const link = new URL(mail?.link as string);
    const resetToken = link.searchParams.get('token') as string;
    // The browser opens the link on this server (the path and query the e-mail carries).
    await fetch(`${app.url}${link.pathname}${link.search}`);
    const newPassword = 'Sentadillas&Zancadas31';
    expect((await api.post('/auth/validate-reset-token', { token: resetToken, email: account.email })).body.valid).toBe(
      true,
    );
    expect(
      (await api.post('/auth/reset-password', { token: resetToken, email: account.email, newPassword })).status,
    ).toBe(200);
    const { token: sessionToken } = await api.login(account.email, newPassword);
    expect((await api.post('/auth/login', { email: account.email, password: GOOD_PASSWORD })).status).toBe(401);
    // A socket handshake and a request that carries the token where it should not (the query).
    (await connectSocket(app, { token: sessionToken })).close();
    await fetch(`${app.url}/api/auth/validate-session?token=${sessionToken}&email=${account.email}`);
    await app.auth.passwordReset.whenIdle();

    const log = lines.join('');
    expect(log).toContain('/reset-password?[redacted]');
    expect(log).toContain('validate-session?token=[redacted]');
    for (const secret of [resetToken, encodeURIComponent(resetToken), sessionToken, code, newPassword, GOOD_PASSWORD]) {
      expect(log.includes(secret), `the log holds ${secret.slice(0, 12)}…`).toBe(false);
    }
    for (const address of [account.email, encodeURIComponent(account.email)]) {
      expect(log.toLowerCase().includes(address.toLowerCase()), 'the log holds the e-mail address').toBe(false);
    }
    expect(log).not.toContain(phone);
  });

  it('writes one access-log line per request, with its id, redacted URL, address, status and time', async () => {
    const probe = 'probe=access-log';
    await fetch(`${app.url}/api/health?${probe}&token=secreto-de-prueba`);
    await fetch(`${app.url}/api/no-existe?${probe}`);
    // The metrics scrape logs at warn only: no access line.
    await fetch(`${app.url}/metrics?${probe}`);
    const probed = () =>
      lines
        .filter((line) => line.includes(probe))
        .map((line) => JSON.parse(line) as Record<string, unknown> & { req?: { url?: string } });
    // The line is written once the answer has gone out, which may be after the client has it.
    await vi.waitFor(() => expect(probed().filter((line) => line.msg === 'request completed')).toHaveLength(2));
    const completed = probed().filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => [line.req?.url, (line.res as { statusCode: number }).statusCode])).toEqual([
      [`/api/health?${probe}&token=[redacted]`, 200],
      [`/api/no-existe?${probe}`, 404],
    ]);
    for (const line of completed) {
      expect(line).toMatchObject({ level: 30, reqId: expect.any(String), req: { method: 'GET' } });
      expect(line.req).toHaveProperty('remoteAddress');
      expect(typeof line.responseTime).toBe('number');
    }
    // Fastify's own 'incoming request' line is not written: one line per request, not two.
    expect(probed().some((line) => line.msg === 'incoming request')).toBe(false);
    expect(lines.join('')).not.toContain('secreto-de-prueba');
  });

  it('masks addresses and secret query values in any URL', () => {
    expect(maskEmail('de ana.garcia@example.com a luis@example.org')).toBe('de a***@example.com a l***@example.org');
    expect(redactUrl('/api/dev/outbox?to=%2B34611223344&x=1')).toBe('/api/dev/outbox?to=[redacted]&x=1');
    expect(redactUrl('/reset-password?token=abc&email=a%40b.es')).toBe('/reset-password?[redacted]');
    expect(redactUrl('/api/profiles/ana@example.com')).toBe('/api/profiles/a***@example.com');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
