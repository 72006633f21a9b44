import path from 'node:path';
import * as v from 'valibot';
import { normalizeSpanishPhone } from '#shared/auth/phone';
import {
  type GoogleConfig,
  GoogleConfigError,
  GoogleEnvSchema,
  resolveGoogleConfig,
} from './features/google/google-config.ts';
import { type PushConfig, resolvePushConfig } from './features/push/push-config.ts';

const optionalUrl = (protocols: string[]) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      // Explicit messages: valibot's defaults quote the value, and URLs may carry passwords.
      v.url('must be a URL'),
      v.check(
        (value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)),
        `must start with ${protocols.map((protocol) => `${protocol}:`).join(' or ')}`,
      ),
    ),
  );

const EnvSchema = v.object({
  /** GOOGLE_CLIENT_ID, GOOGLE_ISSUER, GOOGLE_JWKS_URL, GOOGLE_SCRIPT_URL (docs/decisions/0004). */
  ...GoogleEnvSchema.entries,
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  /** Default: every interface in production, the machine itself (loopback) otherwise. */
  HOST: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** '1' lets other machines reach /api/dev/* (codes and reset links!) in development. */
  DEV_ROUTES_FROM_NETWORK: v.optional(v.picklist(['0', '1'], "must be '0' or '1'"), '0'),
  PORT: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(65535)), '3000'),
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  DATABASE_URL: optionalUrl(['postgres', 'postgresql']),
  REDIS_URL: optionalUrl(['redis', 'rediss']),
  PUBLIC_ORIGIN: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
  CLIENT_DIR: v.optional(v.string(), './dist/client'),
  /** Signs session tokens and keys the stored code and reset-link hashes; generated when absent. */
  TOKEN_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  SMTP_URL: optionalUrl(['smtp', 'smtps']),
  SMTP_FROM: v.optional(v.pipe(v.string(), v.trim(), v.minLength(3))),
  SMS_PROVIDER: v.optional(v.picklist(['outbox', 'twilio']), 'outbox'),
  TWILIO_ACCOUNT_SID: v.optional(v.pipe(v.string(), v.minLength(1))),
  TWILIO_AUTH_TOKEN: v.optional(v.pipe(v.string(), v.minLength(1))),
  TWILIO_FROM: v.optional(v.pipe(v.string(), v.minLength(1))),
  TWILIO_API_URL: v.optional(v.pipe(v.string(), v.url('must be a URL')), 'https://api.twilio.com'),
  /** Numbers refused as PHONE_BLOCKED, separated by commas (spaces inside a number and +34 optional). */
  SMS_BLOCKED_NUMBERS: v.optional(v.string(), ''),
  /** Texts all nodes together may send per day (UTC) before send-code answers 503. */
  SMS_DAILY_BUDGET: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0)), '1000'),
  /** Texts one number may receive per day (UTC), whoever asks: SMS pumping to one number. */
  SMS_DAILY_BUDGET_PER_NUMBER: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  /** Texts one client address (IPv6: its /64) may have sent per day; scaled by RATE_LIMIT_IP_FACTOR. */
  SMS_DAILY_BUDGET_PER_ADDRESS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '100'),
  /** Prefix of every key this app writes to Redis (rate limits), so deployments can share one. */
  REDIS_KEY_PREFIX: v.optional(v.pipe(v.string(), v.maxLength(100)), 'entreno:'),
  TRUST_PROXY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(
        /^(\d{1,2}|[0-9a-fA-F:./]+(\s*,\s*[0-9a-fA-F:./]+)*)?$/,
        'a hop count or a comma-separated list of proxy addresses',
      ),
    ),
  ),
  /** Authenticated sockets one user may hold on one node. */
  SOCKETS_PER_USER: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '10'),
  /** Open connections one client address (IPv6: its /64) may hold on one node; scaled by RATE_LIMIT_IP_FACTOR. */
  SOCKETS_PER_ADDRESS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1)), '100'),
  RATE_LIMIT_IP_FACTOR: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(1), v.maxValue(1000)), '1'),
  /** Bearer token that may read /metrics from anywhere; unset: direct loopback connections only. */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  /** After SIGTERM: how long readiness fails before the node stops accepting (balancers notice). */
  SHUTDOWN_DELAY_MS: v.optional(v.pipe(v.string(), v.toNumber(), v.integer(), v.minValue(0), v.maxValue(60_000)), '0'),
  /** Where photo files live: the shared database (default with DATABASE_URL) or DATA_DIR/photos. */
  PHOTO_STORE: v.optional(v.picklist(['database', 'filesystem'], "must be 'database' or 'filesystem'")),
  /** '0' turns off, '1' forces, the demo profiles seeded on an empty database (never in production). */
  DEMO_DATA: v.optional(v.picklist(['0', '1'], "must be '0' or '1'")),
  /** '0' ranks every deck with the SQL query instead of the per-node candidate index (docs/decisions/0022). */
  DECK_INDEX: v.optional(v.picklist(['0', '1'], "must be '0' or '1'"), '1'),
});

export type SmsProviderConfig =
  | { kind: 'outbox' }
  | { kind: 'twilio'; accountSid: string; authToken: string; from: string; apiUrl: string };

export type Config = {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  publicOrigin: string;
  logLevel: string;
  clientDir: string;
  /**
   * Throwaway state (tests, benches): generated secrets and VAPID keys kept in memory; without
   * DATABASE_URL also photos in memory and an embedded PostgreSQL in a temporary directory deleted
   * on close.
   */
  isEphemeral: boolean;
  /**
   * Absent: generated once into the shared database (DATABASE_URL) or DATA_DIR/secrets.json
   * (embedded); docs/decisions/0024.
   */
  tokenSecret: string | undefined;
  /** Who may read /metrics besides direct loopback connections (docs/deploy.md, "Metrics"). */
  metricsToken: string | undefined;
  /** After SIGTERM, readiness fails this long before the node stops accepting connections. */
  shutdownDelayMs: number;
  /** Photo files: in PostgreSQL (`photo_blobs`, every node reads them) or under DATA_DIR/photos. */
  photoStore: 'database' | 'filesystem';
  /** Absent: e-mails go to the outbox (never in production). */
  smtpUrl: string | undefined;
  smtpFrom: string;
  sms: SmsProviderConfig;
  /** E.164 numbers refused as PHONE_BLOCKED. */
  smsBlockedNumbers: string[];
  smsDailyBudget: number;
  /** Per number and per client address (their own shares of the day, so one client cannot spend it all). */
  smsDailyBudgetPerNumber: number;
  smsDailyBudgetPerAddress: number;
  redisKeyPrefix: string;
  /**
   * Which proxies may set X-Forwarded-For: none (false), the last N hops, or these addresses.
   * Never "any": a client could then claim any address and escape every per-IP limit.
   */
  trustProxy: false | number | string[];
  /** Multiplies the per-IP rate limits (many people behind one address, or an e2e run). */
  rateLimitIpFactor: number;
  /** Socket caps per node: per user, and per client address (already multiplied by rateLimitIpFactor). */
  socketsPerUser: number;
  socketsPerAddress: number;
  /** The dev outbox (`GET /api/dev/outbox`): everywhere but production. */
  isOutboxEnabled: boolean;
  /** `/api/dev/*` answers other machines too (DEV_ROUTES_FROM_NETWORK=1); otherwise loopback only. */
  areDevRoutesOpenToNetwork: boolean;
  /** Seed demo profiles when the database has no users: embedded development by default, never production. */
  demoData: boolean;
  /** The per-node candidate index ranks the deck (docs/decisions/0022); off: the SQL query does. */
  isDeckIndexEnabled: boolean;
  /** Google sign-in: real Google, or the local stand-in issuer outside production (0004). */
  google: GoogleConfig;
  /** Web push: VAPID keys and subject, and the push services subscriptions may use (0007). */
  push: PushConfig;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Warnings about a configuration that works but exposes something; logged at start. */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  if (config.env === 'production') return warnings;
  if (!['localhost', '127.0.0.1', '::1'].includes(config.host)) {
    warnings.push(
      `HOST=${config.host}: the development server is reachable from the network` +
        (config.areDevRoutesOpenToNetwork ? '' : ' (its /api/dev/* routes still answer this machine only)'),
    );
  }
  if (config.areDevRoutesOpenToNetwork) {
    warnings.push('DEV_ROUTES_FROM_NETWORK=1: /api/dev/* (every SMS code and reset link) answers any client');
  }
  return warnings;
}

/**
 * Parses the environment; throws a ConfigError naming every bad variable. An empty variable counts
 * as unset (compose files pass `${NAME:-}` through as "").
 */
export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): Config {
  const env = Object.fromEntries(Object.entries(rawEnv).filter(([, value]) => value !== ''));
  const result = v.safeParse(EnvSchema, env);
  if (!result.success) {
    const lines = result.issues.map((issue) => {
      const key = issue.path?.map((item) => String(item.key)).join('.') ?? '(env)';
      return `  ${key}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const parsed = result.output;
  const port = parsed.PORT;
  const problems: string[] = [];
  const publicOrigin = (parsed.PUBLIC_ORIGIN ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const smsBlockedNumbers = parseBlockedNumbers(parsed.SMS_BLOCKED_NUMBERS, problems);
  const sms = parseSmsProvider(parsed, problems);
  const google = parseGoogle(env, publicOrigin, problems);
  const push = resolvePushConfig(env, { isProduction: parsed.NODE_ENV === 'production', publicOrigin });
  problems.push(...push.problems);
  const config: Config = {
    env: parsed.NODE_ENV,
    host: parsed.HOST ?? (parsed.NODE_ENV === 'production' ? '0.0.0.0' : 'localhost'),
    port,
    dataDir: path.resolve(parsed.DATA_DIR),
    databaseUrl: parsed.DATABASE_URL,
    redisUrl: parsed.REDIS_URL,
    publicOrigin,
    logLevel: parsed.LOG_LEVEL,
    clientDir: path.resolve(parsed.CLIENT_DIR),
    isEphemeral: false,
    tokenSecret: parsed.TOKEN_SECRET,
    shutdownDelayMs: parsed.SHUTDOWN_DELAY_MS,
    metricsToken: parsed.METRICS_TOKEN,
    photoStore: parsed.PHOTO_STORE ?? (parsed.DATABASE_URL ? 'database' : 'filesystem'),
    smtpUrl: parsed.SMTP_URL,
    smtpFrom: parsed.SMTP_FROM ?? `Entreno <no-reply@${new URL(publicOrigin).hostname}>`,
    sms,
    smsBlockedNumbers,
    smsDailyBudget: parsed.SMS_DAILY_BUDGET,
    smsDailyBudgetPerNumber: parsed.SMS_DAILY_BUDGET_PER_NUMBER,
    smsDailyBudgetPerAddress: parsed.SMS_DAILY_BUDGET_PER_ADDRESS,
    redisKeyPrefix: parsed.REDIS_KEY_PREFIX,
    rateLimitIpFactor: parsed.RATE_LIMIT_IP_FACTOR,
    socketsPerUser: parsed.SOCKETS_PER_USER,
    socketsPerAddress: parsed.SOCKETS_PER_ADDRESS * parsed.RATE_LIMIT_IP_FACTOR,
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    isOutboxEnabled: parsed.NODE_ENV !== 'production',
    areDevRoutesOpenToNetwork: parsed.DEV_ROUTES_FROM_NETWORK === '1',
    demoData:
      parsed.NODE_ENV !== 'production' &&
      (parsed.DEMO_DATA === '1' ||
        (parsed.DEMO_DATA === undefined && parsed.NODE_ENV === 'development' && !parsed.DATABASE_URL)),
    isDeckIndexEnabled: parsed.DECK_INDEX === '1',
    google,
    push: push.config,
  };
  if (config.env === 'production') {
    // The outbox and generated secrets are for trying the app; production needs the real things.
    if (!parsed.PUBLIC_ORIGIN) problems.push('PUBLIC_ORIGIN: required when NODE_ENV=production');
    if (!parsed.SMTP_URL) {
      problems.push('SMTP_URL: required when NODE_ENV=production (e-mails cannot go to the dev outbox)');
    }
    if (sms.kind === 'outbox') {
      problems.push('SMS_PROVIDER: set a real provider (twilio) when NODE_ENV=production (no dev outbox)');
    }
  }
  // Several nodes (REDIS_URL) must share one database: data, photos and generated secrets live there.
  if (parsed.REDIS_URL && !parsed.DATABASE_URL) {
    problems.push('DATABASE_URL: required with REDIS_URL (the nodes must share one database for data and secrets)');
  }
  if (parsed.PHOTO_STORE === 'database' && !parsed.DATABASE_URL) {
    problems.push('PHOTO_STORE=database: requires DATABASE_URL (embedded installs keep photos in DATA_DIR/photos)');
  }
  if (problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  return config;
}

function parseBlockedNumbers(value: string, problems: string[]): string[] {
  const numbers: string[] = [];
  for (const entry of value
    .split(/[,;\n]+/)
    .map((item) => item.trim())
    .filter(Boolean)) {
    const phone = normalizeSpanishPhone(entry);
    if (phone) numbers.push(phone);
    else problems.push(`SMS_BLOCKED_NUMBERS: "${entry}" is not a Spanish number (+34 and 9 digits)`);
  }
  return [...new Set(numbers)];
}

/** The GOOGLE_* variables (already shape-checked by EnvSchema); production's own rules add problems. */
function parseGoogle(env: NodeJS.ProcessEnv, publicOrigin: string, problems: string[]): GoogleConfig {
  try {
    return resolveGoogleConfig(env, publicOrigin);
  } catch (error) {
    if (!(error instanceof GoogleConfigError)) throw error;
    problems.push(...error.problems);
    // Never used: the problems above make loadConfig throw.
    return { clientId: '', issuers: [], jwksUrl: '', scriptUrl: '', standIn: false };
  }
}

function parseSmsProvider(parsed: v.InferOutput<typeof EnvSchema>, problems: string[]): SmsProviderConfig {
  if (parsed.SMS_PROVIDER === 'outbox') return { kind: 'outbox' };
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = parsed;
  if (!accountSid || !authToken || !from) {
    problems.push('SMS_PROVIDER=twilio: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM are required');
    return { kind: 'outbox' };
  }
  return { kind: 'twilio', accountSid, authToken, from, apiUrl: parsed.TWILIO_API_URL.replace(/\/+$/, '') };
}

function parseTrustProxy(value: string | undefined): false | number | string[] {
  if (!value) return false;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  return value.split(',').map((address) => address.trim());
}
