import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_REQUIRED_EVENT, api, isTokenFailureMessage, setLogoutHandler } from './http.ts';

const ORIGIN = 'http://entreno.test';

/** One call through the app's client to `path` (under /api), answered with `status` and `body`. */
async function call(path: string, status: number, body: unknown = {}) {
  const answer = () =>
    Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  return api(path, {
    prefixUrl: `${ORIGIN}/api`,
    headers: { authorization: 'Bearer a.b.c' },
    fetch: answer,
    throwHttpErrors: false,
  });
}

describe('authentication failures (spec 000 §4)', () => {
  let events: string[];
  let loggedOut: number;
  beforeEach(() => {
    events = [];
    loggedOut = 0;
    const target = new EventTarget();
    target.addEventListener(AUTH_REQUIRED_EVENT, (event) => events.push(event.type));
    vi.stubGlobal('window', target);
    setLogoutHandler(() => {
      loggedOut += 1;
    });
  });
  afterEach(() => {
    setLogoutHandler(undefined);
    vi.unstubAllGlobals();
  });

  it('a 401 broadcasts auth_required and runs the registered logout handler', async () => {
    await call('messages/conversations', 401, { message: 'No autorizado' });
    expect(events).toEqual([AUTH_REQUIRED_EVENT]);
    expect(loggedOut).toBe(1);
  });

  it('a 403 counts only when its message speaks of an expired, invalid, malformed or missing token', async () => {
    await call('notifications', 403, { message: 'No tienes permiso para esta acción' });
    expect(loggedOut).toBe(0);
    await call('notifications', 403, { message: 'Token expirado' });
    expect(events).toEqual([AUTH_REQUIRED_EVENT]);
    expect(loggedOut).toBe(1);
  });

  it('passes the 401 and 403 of profile and Google sign-in requests on to the caller', async () => {
    for (const path of ['profiles/u1', 'profiles/u1/photos', 'auth/google', 'auth/google/verify-code']) {
      const response = await call(path, 401, { message: 'No autorizado' });
      expect(response.status, path).toBe(401);
      await call(path, 403, { message: 'Token inválido' });
    }
    expect(events).toEqual([]);
    expect(loggedOut).toBe(0);
  });

  it('recognises the token failure messages', () => {
    for (const message of ['Token expirado', 'Token inválido', 'Invalid token', 'token malformed', 'Token missing']) {
      expect(isTokenFailureMessage(message), message).toBe(true);
    }
    for (const message of [undefined, '', 'No tienes permiso', 'Perfil no encontrado']) {
      expect(isTokenFailureMessage(message), String(message)).toBe(false);
    }
  });
});
