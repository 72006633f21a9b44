import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { OutboxEntry } from '#shared/dev-outbox';
import { isImplausiblePhone } from '#shared/auth/phone';
import { startTestApp, type TestApp } from './test-app.ts';

export type ApiResponse = { status: number; headers: Headers; body: Record<string, unknown> & { message?: string } };

export const GOOD_PASSWORD = 'Sentadillas&Cafe7';

let sequence = 0;

/** A fresh, plausible Spanish mobile number (never blocked as a run or repeated digits). */
export function uniquePhone(): string {
  for (;;) {
    const phone = `+346${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    if (!isImplausiblePhone(phone)) return phone;
  }
}

export function uniqueEmail(label = 'user'): string {
  sequence += 1;
  return `${label}.${sequence}.${randomInt(0, 1_000_000)}@example.com`;
}

/** Real HTTP against a started test app. */
export function createApi(app: TestApp) {
  const call = async (
    method: string,
    path: string,
    options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
  ): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${app.url}/api${path}`, {
      method,
      headers,
      body:
        options.body === undefined
          ? undefined
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };

  const api = {
    call,
    post: (path: string, body: unknown, token?: string) => call('POST', path, { body, token }),
    get: (path: string, token?: string) => call('GET', path, { token }),

    async outbox(to?: string): Promise<OutboxEntry[]> {
      const response = await call('GET', `/dev/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`);
      expect(response.status).toBe(200);
      return response.body.data as OutboxEntry[];
    },

    /** The newest message to an address, waiting (briefly, by polling) for work done after a response. */
    async waitForOutbox(to: string, count = 1): Promise<OutboxEntry[]> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const entries = await api.outbox(to);
        if (entries.length >= count || Date.now() > deadline) return entries;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },

    async latestCode(phone: string): Promise<string> {
      const [entry] = await api.outbox(phone);
      expect(entry?.code, `no SMS code in the outbox for ${phone}`).toMatch(/^\d{6}$/);
      return entry?.code as string;
    },

    /** send-code → the code from the outbox → verify-code. */
    async verifyPhone(phone: string): Promise<void> {
      const sent = await api.post('/auth/send-code', { phone });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      const verified = await api.post('/auth/verify-code', { phone, code: await api.latestCode(phone) });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    },

    /** The whole e-mail wizard: returns what register answered. */
    async registerUser(
      overrides: { email?: string; phone?: string; password?: string; name?: string; lastName?: string } = {},
    ) {
      const account = {
        name: overrides.name ?? 'Lucía',
        lastName: overrides.lastName ?? 'García',
        email: overrides.email ?? uniqueEmail(),
        phone: overrides.phone ?? uniquePhone(),
        password: overrides.password ?? GOOD_PASSWORD,
      };
      await api.verifyPhone(account.phone);
      const registered = await api.post('/auth/register', account);
      expect(registered.status, JSON.stringify(registered.body)).toBe(201);
      const user = registered.body.data as { userId: string; email: string; phone: string };
      return { ...account, userId: user.userId, email: user.email };
    },

    async login(email: string, password = GOOD_PASSWORD, extra: Record<string, unknown> = {}) {
      const response = await api.post('/auth/login', { email, password, ...extra });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body as { token: string; user: { userId: string }; message: string };
    },
  };
  return api;
}

export type Api = ReturnType<typeof createApi>;

/** The payload of a token, decoded without checking it (tests only). */
export function decodeToken(token: string): Record<string, unknown> {
  const [, payload] = token.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
}

/**
 * A describe block's app on a fresh database and the API over it: started before all, closed
 * after all. Read the fields inside tests and hooks (they are set before all).
 */
export function useTestApp(): { app: TestApp; api: Api } {
  const started = {} as { app: TestApp; api: Api };
  beforeAll(async () => {
    started.app = await startTestApp();
    started.api = createApi(started.app);
  });
  afterAll(async () => {
    await started.app?.close();
  });
  return started;
}
