import { randomInt } from 'node:crypto';
import { type APIRequestContext, expect } from '@playwright/test';
import { isImplausiblePhone } from '../../../src/shared/auth/phone.ts';

export const DEFAULT_PASSWORD = 'Sentadillas&Cafe7';

export type Account = { email: string; phone: string; password: string; name: string; userId: string };

type OutboxEntry = { channel: 'sms' | 'email'; to: string; code: string | null; link: string | null };

/** A fresh, plausible Spanish mobile number (+34 6…): never one send-code refuses as a run or repeated digits. */
export function uniquePhone(): string {
  for (;;) {
    const phone = `+346${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
    if (!isImplausiblePhone(phone)) return phone;
  }
}

export function uniqueEmail(label = 'e2e'): string {
  return `${label}.${Date.now().toString(36)}.${randomInt(0, 1_000_000)}@example.com`;
}

/** The newest outbox entries for an address, polled briefly (delivery happens after the answer). */
export async function outboxFor(request: APIRequestContext, to: string, minCount = 1): Promise<OutboxEntry[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
    expect(response.status()).toBe(200);
    const entries = ((await response.json()) as { data: OutboxEntry[] }).data;
    if (entries.length >= minCount || Date.now() > deadline) return entries;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function post(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(`/api${path}`, { data });
  const body = await response.json().catch(() => ({}));
  expect(response.status(), `${path}: ${JSON.stringify(body)}`).toBeLessThan(300);
  return body as Record<string, unknown>;
}

/**
 * Creates an account the way the e-mail wizard does: check-email → send-code → the code from the
 * dev outbox → verify-code → register → complete-registration.
 */
export async function registerAccount(
  request: APIRequestContext,
  overrides: { email?: string; phone?: string; password?: string; name?: string } = {},
): Promise<Account> {
  const account = {
    email: overrides.email ?? uniqueEmail(),
    phone: overrides.phone ?? uniquePhone(),
    password: overrides.password ?? DEFAULT_PASSWORD,
    name: overrides.name ?? 'Lucía',
  };
  const checked = await post(request, '/auth/check-email', { email: account.email });
  expect((checked.data as { exists: boolean }).exists).toBe(false);
  await post(request, '/auth/send-code', { phone: account.phone });
  const [sms] = await outboxFor(request, account.phone);
  expect(sms?.code, `no SMS code for ${account.phone}`).toMatch(/^\d{6}$/);
  await post(request, '/auth/verify-code', { phone: account.phone, code: sms?.code });
  const registered = await post(request, '/auth/register', {
    name: account.name,
    lastName: 'García',
    email: account.email,
    phone: account.phone,
    password: account.password,
  });
  await post(request, '/auth/complete-registration', { phone: account.phone, password: account.password });
  return { ...account, userId: (registered.data as { userId: string }).userId };
}

/** Logs in through the API (no browser) and returns the token. */
export async function apiLogin(request: APIRequestContext, email: string, password: string): Promise<string> {
  const body = await post(request, '/auth/login', { email, password, rememberMe: false });
  return body.token as string;
}
