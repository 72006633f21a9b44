import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { totpCode } from '../../src/server/features/security/one-time-codes.ts';
import { type Api, createApi } from './auth-api.ts';
import { type GoogleStandInServer, googleConfigFor, startGoogleStandIn } from './google-stand-in.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import { createTestClock, HOUR, type TestClock } from './test-clock.ts';

/** Two-step calls for integration tests: turn it on (computing codes from the secret as an app would). */
export function createTwoStepApi(api: Api, clock: TestClock) {
  return {
    /** setup → the first code → the recovery codes; returns the secret and the codes. */
    async enable(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
      const setup = await api.post('/security/two-factor/setup', {}, token);
      expect(setup.status, JSON.stringify(setup.body)).toBe(200);
      const secret = setup.body.secret as string;
      const enabled = await api.post('/security/two-factor/enable', { code: totpCode(secret, clock.now()) }, token);
      expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
      return { secret, recoveryCodes: enabled.body.recoveryCodes as string[] };
    },
    /** The code an authenticator app shows now. */
    code: (secret: string) => totpCode(secret, clock.now()),
    /** Password login that must stop at the second step: its pending token. */
    async pendingLogin(email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
      const response = await api.call('POST', '/auth/login', { body: { email, password, rememberMe: false }, headers });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.secondStepRequired).toBe(true);
      expect(response.body.token).toBeUndefined();
      return response.body.pendingToken as string;
    },
  };
}

export type TwoStepApi = ReturnType<typeof createTwoStepApi>;

/** What `useTwoStepApp` starts; read the fields inside tests and hooks (they are set before all). */
export type TwoStepApp = {
  clock: TestClock;
  app: TestApp;
  api: Api;
  twoStep: TwoStepApi;
  /** Only with `{ google: true }`: the stand-in issuer the app trusts. */
  google: GoogleStandInServer;
};

/**
 * A describe block's app for sign-in tests: before all, an app on a test clock (trusting a Google
 * stand-in when asked) with the API and the two-step calls over it; before each test, two hours
 * on (fresh rate-limit windows and SMS cooldowns); after all, everything closed.
 */
export function useTwoStepApp(options: { google?: boolean } = {}): TwoStepApp {
  const started = { clock: createTestClock() } as TwoStepApp;
  beforeAll(async () => {
    if (options.google) started.google = await startGoogleStandIn();
    const config = options.google ? { google: googleConfigFor(started.google) } : {};
    started.app = await startTestApp(config, { dependencies: { clock: started.clock } });
    started.api = createApi(started.app);
    started.twoStep = createTwoStepApi(started.api, started.clock);
  });
  afterAll(async () => {
    await started.app?.close();
    await started.google?.close();
  });
  beforeEach(() => started.clock.advance(2 * HOUR));
  return started;
}
