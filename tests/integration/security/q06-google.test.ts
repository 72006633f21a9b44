// @setup embedded
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GoogleConfig } from '../../../src/server/features/google/google-config.ts';
import { type Api, createApi, uniqueEmail, uniquePhone } from '../../helpers/auth-api.ts';
import {
  type GoogleStandInServer,
  startGoogleStandIn,
  type TestTokenOverrides,
} from '../../helpers/google-stand-in.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { createTestClock, HOUR } from '../../helpers/test-clock.ts';

const BAD_CREDENTIAL = {
  success: false,
  message: 'Credencial de Google no válida',
  errorType: 'INVALID_GOOGLE_CREDENTIAL',
};

/**
 * QUALITY 6: the server checks the Google credential itself (signature against the JWKS, aud, iss,
 * exp, email_verified) and never trusts a googleId or e-mail the client sends. The issuer is a local
 * stand-in on real HTTP. Every forgery targets an existing Google account, so a mistake would sign
 * the attacker into it; and a forgery on registration, even with a proven phone, creates nothing.
 * (auth-google.test.ts runs the same forgeries across all three routes with the spec's flow.)
 */
describe('Q06 Google credential forgeries', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let google: GoogleStandInServer;
  let app: TestApp;
  let api: Api;
  let victim: { email: string; givenName: string; familyName: string; sub: string; userId: string };

  const countUsers = async () => {
    const result = (await app.database.db.execute(sql`select count(*)::int as n from users`)) as unknown as {
      rows: { n: number }[];
    };
    return Number(result.rows[0]?.n);
  };

  beforeAll(async () => {
    google = await startGoogleStandIn();
    const config: GoogleConfig = {
      clientId: google.clientId,
      issuers: [google.issuer],
      jwksUrl: google.jwksUrl,
      scriptUrl: `${google.issuer}/gsi/client`,
      standIn: false,
    };
    app = await startTestApp({ google: config }, { dependencies: { clock } });
    api = createApi(app);
    // The victim: an existing Google account, stored with its verified subject.
    const account = { email: uniqueEmail('victima'), givenName: 'Ana', familyName: 'García' };
    const sub = google.standIn.claimsFor(account).sub;
    const user = await app.auth.users.createUser({
      name: 'Ana',
      lastName: 'García',
      email: account.email,
      phone: uniquePhone(),
      password: null,
      googleSub: sub,
    });
    victim = { ...account, sub, userId: user.id };
  });
  afterAll(async () => {
    await app?.close();
    await google?.close();
  });
  beforeEach(() => clock.advance(2 * HOUR));

  const forVictim = (overrides: TestTokenOverrides = {}) =>
    google.signIdToken({ ...overrides, account: { ...victim, ...overrides.account } });
  const loginBody = (credential: string | undefined) => ({
    googleId: victim.sub,
    email: victim.email,
    name: victim.givenName,
    lastName: victim.familyName,
    picture: 'https://lh3.googleusercontent.com/a/photo',
    ...(credential === undefined ? {} : { credential }),
  });

  it('control: a genuine credential for the victim signs in (so every refusal below is the check)', async () => {
    const genuine = await api.post('/auth/google', loginBody(await forVictim()));
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect(genuine.body.user).toMatchObject({ userId: victim.userId });
  });

  const forgeries: [string, () => Promise<string | undefined>][] = [
    ['a wrong audience', () => forVictim({ claims: { aud: 'attacker-app.apps.googleusercontent.com' } })],
    [
      'an audience list without ours',
      () => forVictim({ claims: { aud: ['attacker-app.apps.googleusercontent.com', 'x'] } }),
    ],
    ['a wrong issuer', () => forVictim({ claims: { iss: 'https://accounts.evil.example' } })],
    ['an expired token', () => forVictim({ now: new Date(Date.now() - 3 * HOUR) })],
    ['unsigned (alg none)', () => forVictim({ signing: 'none' })],
    ['a key Google never published', () => forVictim({ signing: 'unknown-key' })],
    ['a foreign key under the published kid', () => forVictim({ signing: 'foreign-key-same-kid' })],
    ['HS256 keyed with the public key', () => forVictim({ signing: 'hs256-public-key' })],
    ['email_verified false', () => forVictim({ claims: { email_verified: false } })],
    [
      'a tampered payload (sub swapped, signature kept)',
      async () => {
        const other = await google.signIdToken({ account: { email: uniqueEmail('otro') } });
        const [header, payload, signature] = other.split('.');
        const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8'));
        const swapped = Buffer.from(JSON.stringify({ ...claims, sub: victim.sub, email: victim.email })).toString(
          'base64url',
        );
        return `${header}.${swapped}.${signature}`;
      },
    ],
    ['no credential at all, only the googleId and e-mail', async () => undefined],
  ];

  it.each(forgeries)('POST /api/auth/google refuses %s with 401, and no account is reached', async (_label, forge) => {
    const usersBefore = await countUsers();
    const answer = await api.post('/auth/google', loginBody(await forge()));
    expect(answer.status, JSON.stringify(answer.body)).toBe(401);
    expect(answer.body).toEqual(BAD_CREDENTIAL);
    expect(answer.body).not.toHaveProperty('token');
    expect(answer.headers.get('x-new-token')).toBeNull();
    expect(await countUsers()).toBe(usersBefore);
  });

  it.each(forgeries)(
    'registration refuses %s with 401 even with a phone already proven by SMS, and creates nothing',
    async (_label, forge) => {
      const usersBefore = await countUsers();
      const email = uniqueEmail('intruso');
      const phone = uniquePhone();
      // The attacker somehow holds a live google-register code for their own phone.
      await app.auth.smsCodes.sendCode({ phone, purpose: 'google-register', ip: '127.0.0.1' });
      const code = await api.latestCode(phone);
      const credential = await forge();
      const answer = await api.post('/auth/google/verify-code', {
        phone,
        code,
        googleId: victim.sub,
        email,
        firstName: 'Eva',
        lastName: 'Intrusa',
        ...(credential === undefined ? {} : { credential }),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(401);
      expect(answer.body).toEqual(BAD_CREDENTIAL);
      expect(await countUsers()).toBe(usersBefore);
      expect(await app.auth.users.findByEmail(email)).toBeUndefined();
      expect((await app.auth.users.findByGoogleSub(victim.sub))?.id).toBe(victim.userId);
    },
  );
});
