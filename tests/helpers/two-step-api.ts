import { expect } from 'vitest';
import { totpCode } from '../../src/server/features/security/one-time-codes.ts';
import type { Api } from './auth-api.ts';
import type { TestClock } from './test-clock.ts';

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
