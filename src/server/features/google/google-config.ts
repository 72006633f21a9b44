import * as v from 'valibot';

/** Google's own addresses: what a real deployment uses unless the environment says otherwise. */
export const GOOGLE_DEFAULTS = {
  /** Google signs ID tokens with either spelling of its issuer, so both are accepted by default. */
  issuers: ['https://accounts.google.com', 'accounts.google.com'],
  jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
  scriptUrl: 'https://accounts.google.com/gsi/client',
} as const;

/** Client id of the local stand-in issuer; any value works as long as the token's `aud` matches it. */
export const STAND_IN_CLIENT_ID = 'entreno-local.apps.googleusercontent.com';

/** Where the stand-in's routes live, below the app's origin (`/api` prefix + the plugin's prefix). */
export const STAND_IN_PATH = '/api/dev/google';

export type GoogleConfig = {
  /** The OAuth client id: the `aud` every accepted ID token must carry. */
  clientId: string;
  /** Accepted `iss` values. */
  issuers: string[];
  /** Where Google's public signing keys (a JWKS) are fetched from. */
  jwksUrl: string;
  /** The Identity Services script the client loads (absolute, or a path on our own origin). */
  scriptUrl: string;
  /** True when the local stand-in issuer replaces Google (never in production). */
  standIn: boolean;
};

/** A bad Google setting; `problems` holds one `VARIABLE: why` line each, for merging into a longer report. */
export class GoogleConfigError extends Error {
  override name = 'GoogleConfigError';
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
    this.problems = problems;
  }
}

/** An unset or blank variable counts as absent, so `GOOGLE_CLIENT_ID=` in a .env file means "none". */
const optionalSetting = <TSchema extends v.GenericSchema<string, string>>(schema: TSchema) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => (value === '' ? undefined : value)),
      v.union([v.undefined(), schema]),
    ),
  );

const httpUrl = v.pipe(
  v.string(),
  v.url('must be a URL'),
  v.check((value) => /^https?:\/\//.test(value), 'must start with http: or https:'),
);

/**
 * The environment variables of Google sign-in. Unknown variables are ignored (it parses the whole
 * environment), so this schema can be merged into the app's own environment schema.
 */
export const GoogleEnvSchema = v.object({
  NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
  GOOGLE_CLIENT_ID: optionalSetting(
    v.pipe(v.string(), v.maxLength(256), v.regex(/^[\w.-]+$/, 'must be an OAuth client id (letters, digits, . - _)')),
  ),
  /** One issuer or a comma-separated list. */
  GOOGLE_ISSUER: optionalSetting(
    v.pipe(
      v.string(),
      v.check(
        (value) =>
          value
            .split(',')
            .map((item) => item.trim())
            .every((item) => item.length > 0),
        'must be an issuer or a comma-separated list of issuers',
      ),
    ),
  ),
  GOOGLE_JWKS_URL: optionalSetting(httpUrl),
  GOOGLE_SCRIPT_URL: optionalSetting(httpUrl),
});
export type GoogleEnv = v.InferInput<typeof GoogleEnvSchema>;

/**
 * Google sign-in settings from the environment. With no GOOGLE_CLIENT_ID outside production, the
 * local stand-in issuer served by this app (`/api/dev/google`) takes Google's place; production
 * refuses to run without a real client id and HTTPS key and script addresses.
 * Throws a GoogleConfigError naming every bad variable.
 */
export function resolveGoogleConfig(env: Record<string, string | undefined>, publicOrigin: string): GoogleConfig {
  const result = v.safeParse(GoogleEnvSchema, env);
  if (!result.success) {
    throw new GoogleConfigError(
      result.issues.map((issue) => {
        const key = issue.path?.map((item) => String(item.key)).join('.') ?? '(env)';
        return `${key}: ${issue.message}`;
      }),
    );
  }
  const parsed = result.output;
  const isProduction = parsed.NODE_ENV === 'production';
  const origin = publicOrigin.replace(/\/+$/, '');

  if (!parsed.GOOGLE_CLIENT_ID) {
    if (isProduction) {
      throw new GoogleConfigError([
        'GOOGLE_CLIENT_ID: required when NODE_ENV=production (the local Google stand-in is for development and tests only)',
      ]);
    }
    return {
      clientId: STAND_IN_CLIENT_ID,
      issuers: [`${origin}${STAND_IN_PATH}`],
      jwksUrl: `${origin}${STAND_IN_PATH}/certs`,
      scriptUrl: `${STAND_IN_PATH}/gsi/client`,
      standIn: true,
    };
  }

  const config: GoogleConfig = {
    clientId: parsed.GOOGLE_CLIENT_ID,
    issuers: parsed.GOOGLE_ISSUER
      ? parsed.GOOGLE_ISSUER.split(',').map((issuer) => issuer.trim())
      : [...GOOGLE_DEFAULTS.issuers],
    jwksUrl: parsed.GOOGLE_JWKS_URL ?? GOOGLE_DEFAULTS.jwksUrl,
    scriptUrl: parsed.GOOGLE_SCRIPT_URL ?? GOOGLE_DEFAULTS.scriptUrl,
    standIn: false,
  };
  if (isProduction) {
    const insecure = (['jwksUrl', 'scriptUrl'] as const).filter((key) => !config[key].startsWith('https://'));
    if (insecure.length > 0) {
      const names = { jwksUrl: 'GOOGLE_JWKS_URL', scriptUrl: 'GOOGLE_SCRIPT_URL' } as const;
      throw new GoogleConfigError(insecure.map((key) => `${names[key]}: must use https: when NODE_ENV=production`));
    }
  }
  return config;
}
