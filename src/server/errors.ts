import { SERVER_MESSAGES } from '#shared/messages';

/**
 * A failure the client may see: an HTTP status, a Spanish message and, where the spec names one,
 * an errorType. Services throw it; the error plugin turns it into `{ success: false, ... }`.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errorType?: string,
    readonly headers: Record<string, string> = {},
    /** More fields of the answer's body, beside `success`, `message` and `errorType`. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string = SERVER_MESSAGES.invalidBody, errorType?: string) =>
  new AppError(400, message, errorType);
export const unauthorized = (message: string = SERVER_MESSAGES.invalidToken) => new AppError(401, message);
export const forbidden = (message: string = SERVER_MESSAGES.forbidden) => new AppError(403, message);
export const notFound = (message: string = SERVER_MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string, errorType?: string) => new AppError(409, message, errorType);
export const tooManyRequests = (message: string, retryAfterSeconds: number, errorType?: string) =>
  new AppError(429, message, errorType, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** Seconds a client should wait before retrying a write refused by an outage (Retry-After). */
export const OUTAGE_RETRY_AFTER_S = 5;

export const dependencyUnavailable = () =>
  new AppError(503, SERVER_MESSAGES.dependencyUnavailable, 'SERVICE_UNAVAILABLE', {
    'retry-after': String(OUTAGE_RETRY_AFTER_S),
  });
export const storageFull = () =>
  new AppError(507, SERVER_MESSAGES.storageFull, 'STORAGE_FULL', { 'retry-after': String(OUTAGE_RETRY_AFTER_S * 12) });

// Node's network errors: the database or Redis is unreachable.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
// PostgreSQL: class 08 (connection exception), shutting down / starting (57P01-57P03), too many connections.
const POSTGRES_UNAVAILABLE = /^(08...|57P0[123]|53300)$/;
// The drivers' own words when their connection is gone (pg, the pool, ioredis).
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|enableOfflineQueue|Command timed out|Reached the max retries per request|Stream isn't writeable|Client was closed/i;

/**
 * What a failure says about a dependency (issue #24 items 6-7): 'unavailable' when the database or
 * Redis cannot be reached (503, retry soon), 'storage-full' for a full disk (507: the write was not
 * stored), undefined otherwise. Walks `cause` (drizzle wraps the driver's error).
 */
export function dependencyFailureOf(error: unknown): 'unavailable' | 'storage-full' | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errno?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    const message = typeof candidate.message === 'string' ? candidate.message : '';
    if (code === 'ENOSPC' || code === '53100' || /No space left on device/i.test(message)) return 'storage-full';
    if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code) || UNAVAILABLE_MESSAGES.test(message)) {
      return 'unavailable';
    }
    current = candidate.cause;
  }
  return undefined;
}

/** The AppError a dependency failure becomes (503 or 507), or undefined for any other error. */
export function asDependencyError(error: unknown): AppError | undefined {
  const failure = dependencyFailureOf(error);
  if (failure === 'unavailable') return dependencyUnavailable();
  if (failure === 'storage-full') return storageFull();
  return undefined;
}
