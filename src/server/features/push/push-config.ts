import * as v from 'valibot';

/**
 * The push services a subscription may point at (QUALITY 12): the server calls these addresses,
 * so they are limited to the browsers' real push services. PUSH_ENDPOINT_ALLOWLIST adds origins
 * (tests and local runs add their stand-in); a `*.` host matches any subdomain.
 */
export const DEFAULT_PUSH_ENDPOINT_ALLOWLIST = [
  'https://fcm.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.notify.windows.com',
] as const;

export type VapidKeys = { publicKey: string; privateKey: string };

export type PushConfig = {
  /** From VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY; absent: generated once into the shared database or DATA_DIR/vapid.json. */
  vapidKeys: VapidKeys | undefined;
  /** The `sub` of the VAPID token: a mailto: or https: address push services can reach us at. */
  vapidSubject: string;
  endpointAllowlist: string[];
  /** A push service that has not answered after this long is abandoned (QUALITY 17). */
  sendTimeoutMs: number;
};

export const PUSH_SEND_TIMEOUT_MS = 5000;

const base64url = (bytes: number, name: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^[A-Za-z0-9_-]+$/, `${name}: must be URL-safe base64 without padding`),
    v.check((value) => Buffer.from(value, 'base64url').length === bytes, `${name}: must decode to ${bytes} bytes`),
  );

/** The PUSH_* and VAPID_* variables. */
export const PushEnvSchema = v.object({
  VAPID_PUBLIC_KEY: v.optional(base64url(65, 'VAPID_PUBLIC_KEY')),
  VAPID_PRIVATE_KEY: v.optional(base64url(32, 'VAPID_PRIVATE_KEY')),
  VAPID_SUBJECT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'VAPID_SUBJECT: must be a mailto: or https: address'),
    ),
  ),
  PUSH_ENDPOINT_ALLOWLIST: v.optional(v.string(), ''),
});

/** Reads the push settings; `problems` lists every bad or missing one (production needs them all). */
export function resolvePushConfig(
  env: NodeJS.ProcessEnv,
  context: { isProduction: boolean; publicOrigin: string },
): { config: PushConfig; problems: string[] } {
  const problems: string[] = [];
  const result = v.safeParse(PushEnvSchema, env);
  const parsed = result.success ? result.output : undefined;
  if (!result.success) problems.push(...result.issues.map((issue) => issue.message));
  const publicKey = parsed?.VAPID_PUBLIC_KEY;
  const privateKey = parsed?.VAPID_PRIVATE_KEY;
  if (!!publicKey !== !!privateKey) problems.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both or neither');
  if (context.isProduction && !parsed?.VAPID_SUBJECT) {
    problems.push('VAPID_SUBJECT: required when NODE_ENV=production (mailto: or https: contact)');
  }
  const endpointAllowlist: string[] = [...DEFAULT_PUSH_ENDPOINT_ALLOWLIST];
  for (const entry of (parsed?.PUSH_ENDPOINT_ALLOWLIST ?? '').split(/[\s,]+/).filter(Boolean)) {
    const origin = parseAllowlistEntry(entry);
    if (!origin) problems.push(`PUSH_ENDPOINT_ALLOWLIST: "${entry}" is not an origin such as https://push.example.com`);
    else if (context.isProduction && origin.protocol !== 'https:') {
      problems.push(`PUSH_ENDPOINT_ALLOWLIST: "${entry}" must use https: in production`);
    } else endpointAllowlist.push(entry.replace(/\/+$/, ''));
  }
  const fallbackSubject = context.publicOrigin.startsWith('https://')
    ? context.publicOrigin
    : 'mailto:no-reply@entreno.invalid';
  return {
    config: {
      vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
      vapidSubject: parsed?.VAPID_SUBJECT ?? fallbackSubject,
      endpointAllowlist: [...new Set(endpointAllowlist)],
      sendTimeoutMs: PUSH_SEND_TIMEOUT_MS,
    },
    problems,
  };
}

type AllowedOrigin = { protocol: string; host: string; port: string; isWildcard: boolean };

function parseAllowlistEntry(entry: string): AllowedOrigin | undefined {
  const match = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?\/?$/i.exec(entry.trim());
  if (!match) return undefined;
  const [, scheme, wildcard, host, port] = match;
  const protocol = `${scheme?.toLowerCase()}:`;
  const defaultPort = protocol === 'https:' ? '443' : '80';
  return {
    protocol,
    host: (host ?? '').toLowerCase(),
    port: port && port !== defaultPort ? port : '',
    isWildcard: !!wildcard,
  };
}

/**
 * Whether the server may call this push endpoint: its origin is on the allowlist (scheme, host
 * and port alike; `*.` matches subdomains), and it carries no credentials.
 */
export function isAllowedPushEndpoint(endpoint: string, allowlist: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  const hostname = url.hostname.toLowerCase();
  return allowlist.some((entry) => {
    const allowed = parseAllowlistEntry(entry);
    if (!allowed || allowed.protocol !== url.protocol || allowed.port !== url.port) return false;
    return allowed.isWildcard ? hostname.endsWith(`.${allowed.host}`) : hostname === allowed.host;
  });
}
