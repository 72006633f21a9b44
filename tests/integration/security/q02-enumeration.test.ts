// @setup embedded
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Api,
  type ApiResponse,
  createApi,
  GOOD_PASSWORD,
  uniqueEmail,
  uniquePhone,
} from '../../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';
import { PASSWORD_HASH_POLICY } from '../../../src/server/features/auth/password-hasher.ts';
import { createTestClock, HOUR } from '../../helpers/test-clock.ts';

// Twenty interleaved rounds a side: a median a load spike on a shared CI machine cannot move alone.
const TRIES = 20;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

const run = promisify(execFile);

/**
 * One POST from another process (curl), timed by curl itself: what a remote attacker measures.
 * The server shares this test's event loop, so an in-process client would also be charged for
 * work the server does after answering; curl only sees the answer.
 */
async function timedPost(app: TestApp, path: string, body: unknown): Promise<{ answer: ApiResponse; ms: number }> {
  const { stdout } = await run('curl', [
    '-s',
    '-X',
    'POST',
    '-H',
    'content-type: application/json',
    '--data-binary',
    JSON.stringify(body),
    '-w',
    '\n%{http_code} %{time_total}',
    `${app.url}/api${path}`,
  ]);
  const cut = stdout.lastIndexOf('\n');
  const [status, seconds] = stdout.slice(cut + 1).split(' ');
  const text = stdout.slice(0, cut);
  return {
    answer: { status: Number(status), headers: new Headers(), body: text ? JSON.parse(text) : {} },
    ms: Number(seconds) * 1000,
  };
}

/** What an attacker compares: the status and the whole body (headers that vary per request aside). */
const visible = (response: ApiResponse) => ({ status: response.status, body: response.body });

/**
 * QUALITY 2: an attacker probing which e-mails and phones have accounts learns nothing from the
 * answer or its timing on login, forgot-password and send-code. (auth-login / auth-password-reset /
 * auth-sms-codes test each route's own texts; this file only compares the two sides.)
 */
describe('Q02 account enumeration', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: Api;
  let known: { email: string; phone: string };

  beforeAll(async () => {
    // The real hash policy (test apps default to a light one): the timing of a real argon2id
    // verification against a dummy one.
    app = await startTestApp({}, { dependencies: { hashPolicy: PASSWORD_HASH_POLICY, clock } });
    api = createApi(app);
    known = await api.registerUser();
  });
  afterAll(async () => {
    await app?.close();
  });

  /**
   * Runs the known-side and unknown-side probes interleaved, each in fresh rate-limit windows (the
   * clock moves two hours between rounds), and returns every answer and the median times.
   */
  const probe = async (path: string, knownBody: () => unknown, unknownBody: () => unknown) => {
    const times = { known: [] as number[], unknown: [] as number[] };
    const answers = { known: [] as ApiResponse[], unknown: [] as ApiResponse[] };
    // One untimed round first: JIT and connection warm-up must not land on one side.
    await timedPost(app, path, knownBody());
    await timedPost(app, path, unknownBody());
    for (let round = 0; round < TRIES; round += 1) {
      const order = round % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const side of order) {
        clock.advance(2 * HOUR);
        // Work a previous answer left running (the reset mail) must not land on the next probe.
        await app.auth.passwordReset.whenIdle();
        const { answer, ms } = await timedPost(app, path, side === 'known' ? knownBody() : unknownBody());
        answers[side].push(answer);
        times[side].push(ms);
      }
    }
    return { answers, medians: { known: median(times.known), unknown: median(times.unknown) } };
  };

  const expectSameEverywhere = (answers: { known: ApiResponse[]; unknown: ApiResponse[] }) => {
    const reference = visible(answers.known[0] as ApiResponse);
    for (const answer of [...answers.known, ...answers.unknown]) expect(visible(answer)).toEqual(reference);
    return reference;
  };

  const expectSimilarTime = (medians: { known: number; unknown: number }) => {
    const ratio = Math.max(medians.known, medians.unknown) / Math.max(0.1, Math.min(medians.known, medians.unknown));
    expect(ratio, JSON.stringify(medians)).toBeLessThan(3);
  };

  it('login: an existing e-mail with a wrong password and an unknown e-mail answer alike, in similar time', async () => {
    const { answers, medians } = await probe(
      '/auth/login',
      () => ({ email: known.email, password: 'NoEsMiClave#2026' }),
      () => ({ email: uniqueEmail('nadie'), password: 'NoEsMiClave#2026' }),
    );
    expect(expectSameEverywhere(answers)).toEqual({
      status: 401,
      body: { success: false, message: 'Email o contraseña incorrectos', errorType: 'INVALID_CREDENTIALS' },
    });
    expectSimilarTime(medians);
    // Once the account is locked, it is locked for unknown e-mails too: the 429 tells nothing either.
    const lockedKnown: ApiResponse[] = [];
    const lockedUnknown: ApiResponse[] = [];
    const ghost = uniqueEmail('nadie');
    clock.advance(2 * HOUR);
    for (let attempt = 0; attempt < 6; attempt += 1) {
      lockedKnown.push(await api.post('/auth/login', { email: known.email, password: 'NoEsMiClave#2026' }));
      lockedUnknown.push(await api.post('/auth/login', { email: ghost, password: 'NoEsMiClave#2026' }));
    }
    expect(visible(lockedKnown[5] as ApiResponse)).toEqual(visible(lockedUnknown[5] as ApiResponse));
    expect(lockedKnown[5]?.status).toBe(429);
    expect(lockedKnown[5]?.headers.get('retry-after')).toBe(lockedUnknown[5]?.headers.get('retry-after'));
    // The owner is unaffected after the window (the lockout itself is Q03's subject).
    clock.advance(2 * HOUR);
    await api.login(known.email, GOOD_PASSWORD);
  });

  it('forgot-password: an existing and an unknown e-mail answer alike, in similar time', async () => {
    const { answers, medians } = await probe(
      '/auth/forgot-password',
      () => ({ email: known.email }),
      () => ({ email: uniqueEmail('nadie') }),
    );
    const reference = expectSameEverywhere(answers);
    expect(reference.status).toBe(200);
    expect(reference.body).toMatchObject({ success: true });
    expectSimilarTime(medians);
    // And the mail really went to the existing account only: the two sides did differ inside.
    await app.auth.passwordReset.whenIdle();
    expect((await api.outbox(known.email)).length).toBeGreaterThan(0);
  });

  it('send-code: a registered and an unregistered phone answer alike, in similar time', async () => {
    const { answers, medians } = await probe(
      '/auth/send-code',
      () => ({ phone: known.phone }),
      () => ({ phone: uniquePhone() }),
    );
    const reference = expectSameEverywhere(answers);
    expect(reference).toEqual({ status: 200, body: { success: true, message: 'Código enviado correctamente' } });
    expectSimilarTime(medians);
  });
});
