/**
 * The one HTTP client (ky) of the app, under /api: bearer token, token renewal from the
 * `X-New-Token` header into the same storage (spec 000 §4), and the authentication-failure rule:
 * a 401 or 403 on a request that carried a token clears both storages, broadcasts
 * `auth_required` and runs the registered logout handler (or goes to /login) — except for profile
 * and Google sign-in requests, whose 401 and 403 go back to the caller.
 */
import ky, { HTTPError, type KyInstance, type Options, TimeoutError } from 'ky';
import { tokenStorage } from './token-storage.ts';

export const AUTH_REQUIRED_EVENT = 'auth_required';
const NEW_TOKEN_HEADER = 'x-new-token';

/** Why a call failed: an HTTP answer (with the server's Spanish message), no answer, or a time-out. */
export class ApiRequestError extends Error {
  override name = 'ApiRequestError';
  constructor(
    readonly kind: 'http' | 'network' | 'timeout',
    message: string,
    readonly status?: number,
    readonly errorType?: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

type LogoutHandler = () => void;
let logoutHandler: LogoutHandler | undefined;

/** The session layer registers how to sign out; without one, an auth failure goes to /login. */
export function setLogoutHandler(handler: LogoutHandler | undefined): void {
  logoutHandler = handler;
}

/** Paths whose 401/403 are the caller's to handle (spec 000 §4). */
function isPassThroughPath(pathname: string): boolean {
  return pathname.startsWith('/api/profiles') || pathname.startsWith('/api/auth/google');
}

/** True when a server message speaks of an expired, invalid, malformed or missing token. */
export function isTokenFailureMessage(message: string | undefined): boolean {
  if (!message) return false;
  return /token|sesi[oó]n/i.test(message) && /(expir|inv[aá]lid|malform|missing|no proporcionado|falta)/i.test(message);
}

function handleAuthFailure(): void {
  tokenStorage.clear();
  window.dispatchEvent(new Event(AUTH_REQUIRED_EVENT));
  if (logoutHandler) logoutHandler();
  else if (!window.location.pathname.startsWith('/login')) window.location.assign('/login');
}

export const api: KyInstance = ky.create({
  prefixUrl: '/api',
  timeout: 15_000,
  retry: 0,
  hooks: {
    beforeRequest: [
      (request) => {
        const stored = tokenStorage.readToken();
        if (stored && !request.headers.has('authorization')) {
          request.headers.set('authorization', `Bearer ${stored.token}`);
        }
      },
    ],
    afterResponse: [
      async (request, _options, response) => {
        const renewed = response.headers.get(NEW_TOKEN_HEADER);
        if (renewed && tokenStorage.readToken()) tokenStorage.replaceToken(renewed);
        if ((response.status === 401 || response.status === 403) && request.headers.has('authorization')) {
          const pathname = new URL(request.url).pathname;
          if (isPassThroughPath(pathname)) return;
          if (response.status === 401) {
            handleAuthFailure();
            return;
          }
          // A 403 is an auth failure only when it speaks of the token; otherwise it is a refusal.
          const body = (await response
            .clone()
            .json()
            .catch(() => null)) as { message?: string } | null;
          if (isTokenFailureMessage(body?.message)) handleAuthFailure();
        }
      },
    ],
  },
});

/** Turns ky's errors into ApiRequestError with the server's Spanish message when it sent one. */
export async function toApiError(error: unknown): Promise<ApiRequestError> {
  if (error instanceof ApiRequestError) return error;
  if (error instanceof HTTPError) {
    const body = (await error.response
      .clone()
      .json()
      .catch(() => null)) as { message?: unknown; errorType?: unknown } | null;
    const message = typeof body?.message === 'string' ? body.message : '';
    const errorType = typeof body?.errorType === 'string' ? body.errorType : undefined;
    return new ApiRequestError('http', message, error.response.status, errorType, body);
  }
  if (error instanceof TimeoutError) return new ApiRequestError('timeout', '');
  return new ApiRequestError('network', '');
}

/** A JSON call that throws ApiRequestError on any failure. */
export async function requestJson<T>(path: string, options: Options = {}): Promise<T> {
  try {
    return await api(path, options).json<T>();
  } catch (error) {
    throw await toApiError(error);
  }
}

/** A binary answer that needs the token (an <img> cannot send it): a selfie for moderators. */
export async function requestBlob(path: string, options: Options = {}): Promise<Blob> {
  try {
    return await api(path, options).blob();
  } catch (error) {
    throw await toApiError(error);
  }
}
