import type { FastifyServerOptions } from 'fastify';

/** The slice of pino that services use, so they log without depending on Fastify. */
export type Logger = {
  info(details: object, message?: string): void;
  warn(details: object, message?: string): void;
  error(details: object, message?: string): void;
};

/**
 * Query parameters whose values are secrets or personal data, on any route: reset-link tokens and
 * addresses, codes, the dev outbox's `to`, Google's credentials and nonces.
 */
const SECRET_QUERY_PARAMETERS = new Set([
  'token',
  'email',
  'code',
  'phone',
  'to',
  'password',
  'credential',
  'id_token',
  'access_token',
  'nonce',
  'state',
]);

/** Routes whose whole query string is a secret (the reset link the e-mail carries). */
const SECRET_QUERY_ROUTES = ['/reset-password'];

/** `ana.garcia@example.com` → `a***@example.com`: enough to tell accounts apart in an incident. */
export function maskEmail(value: string): string {
  // Also `%40`: an address inside a URL path or query arrives percent-encoded.
  return value.replace(
    /([^\s@"'<>,;:/?&=%]+)(@|%40)([^\s@"'<>,;:/?&=%]+\.[^\s@"'<>,;:/?&=%]+)/gi,
    (_match, local: string, at: string, domain: string) => `${local.slice(0, 1)}***${at}${domain}`,
  );
}

/** A request URL fit for a log line: secret query values replaced, e-mail addresses masked. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return maskEmail(url);
  const path = url.slice(0, queryAt);
  if (SECRET_QUERY_ROUTES.some((route) => path === route || path.startsWith(`${route}/`))) {
    return `${maskEmail(path)}?[redacted]`;
  }
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals)).toLowerCase();
      return SECRET_QUERY_PARAMETERS.has(name) && equals >= 0 ? `${pair.slice(0, equals)}=[redacted]` : pair;
    })
    .join('&');
  return maskEmail(`${path}?${query}`);
}

/** Field names whose values never reach a log line, wherever they sit in a logged object. */
const SECRET_FIELDS = ['password', 'newPassword', 'token', 'code', 'credential', 'link', 'authorization', 'cookie'];

type LoggedRequest = {
  method: string;
  url: string;
  ip?: string;
  hostname?: string;
  socket?: { remotePort?: number };
};

/**
 * pino's settings for the app (QUALITY 33, issue #24 item 3): requests are logged by method,
 * redacted URL and address only (never headers or bodies); secret fields are censored wherever
 * they appear (two levels deep) and e-mail addresses masked.
 */
export function loggerOptions(level: string): NonNullable<Exclude<FastifyServerOptions['logger'], boolean>> {
  const paths = [
    ...SECRET_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
    'email',
    '*.email',
    '*.*.email',
    'to',
    '*.to',
    '*.*.to',
    'phone',
    '*.phone',
    '*.*.phone',
    // PostgreSQL's error details quote the row ("Key (email)=(…) already exists").
    'err.detail',
    '*.err.detail',
  ];
  return {
    level,
    redact: {
      paths,
      censor: (value: unknown, path: string[]) => {
        const field = path[path.length - 1];
        if (typeof value === 'string' && (field === 'email' || field === 'to')) {
          return value.includes('@') ? maskEmail(value) : '[redacted]';
        }
        return '[redacted]';
      },
    },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
