import { describe, expect, it } from 'vitest';
import { ConfigError, configWarnings, loadConfig } from './config.ts';

const production = {
  NODE_ENV: 'production',
  PUBLIC_ORIGIN: 'https://entreno.example',
  SMTP_URL: 'smtps://user:secret@mail.example:465',
  SMS_PROVIDER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC123',
  TWILIO_AUTH_TOKEN: 'token',
  TWILIO_FROM: '+34600111222',
  GOOGLE_CLIENT_ID: '123-abc.apps.googleusercontent.com',
  // Web push: production needs shared VAPID keys and a contact (docs/decisions/0007).
  VAPID_PUBLIC_KEY: 'BAEszSPGT727MYm949M-snNxxXTGuzxEYeYXGrzCW0T-AWdyRH-1Kgt_vQsuXxFsrijMwOuxySBd3zKVG1ttuM4',
  VAPID_PRIVATE_KEY: 'JzePh8EX9zlYCCfqAtAc28Ge7HjZ3nxYsgL2moeGpGs',
  VAPID_SUBJECT: 'mailto:push@entreno.example',
};

describe('access-area configuration', () => {
  it('has working defaults for trying the app', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      tokenSecret: undefined,
      smtpUrl: undefined,
      smtpFrom: 'Entreno <no-reply@localhost>',
      sms: { kind: 'outbox' },
      smsBlockedNumbers: [],
      smsDailyBudget: 1000,
      redisKeyPrefix: 'entreno:',
      isOutboxEnabled: true,
    });
  });

  it('parses blocked numbers in any spelling and the other settings', () => {
    const config = loadConfig({
      SMS_BLOCKED_NUMBERS: '+34 611 223 344, 622334455;0034633445566',
      SMS_DAILY_BUDGET: '50',
      TOKEN_SECRET: 'x'.repeat(32),
      SMTP_FROM: 'Entreno <hola@entreno.example>',
    });
    expect(config.smsBlockedNumbers).toEqual(['+34611223344', '+34622334455', '+34633445566']);
    expect(config.smsDailyBudget).toBe(50);
    expect(config.tokenSecret).toBe('x'.repeat(32));
    expect(config.smtpFrom).toBe('Entreno <hola@entreno.example>');
  });

  it('refuses bad values, naming them without echoing secrets', () => {
    expect(() => loadConfig({ SMS_BLOCKED_NUMBERS: '+4412345' })).toThrow(/SMS_BLOCKED_NUMBERS/);
    expect(() => loadConfig({ TOKEN_SECRET: 'short' })).toThrow(/TOKEN_SECRET: must be at least 32/);
    expect(() => loadConfig({ SMS_DAILY_BUDGET: '-1' })).toThrow(/SMS_DAILY_BUDGET/);
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/TWILIO_ACCOUNT_SID/);
    try {
      loadConfig({ SMTP_URL: 'ftp://user:hunter2@mail.example' });
      expect.unreachable();
    } catch (error) {
      expect(String(error)).toContain('SMTP_URL');
      expect(String(error)).not.toContain('hunter2');
    }
  });

  it('starts in production only with real delivery, and turns the outbox off', () => {
    const config = loadConfig(production);
    expect(config.isOutboxEnabled).toBe(false);
    expect(config.sms).toEqual({
      kind: 'twilio',
      accountSid: 'AC123',
      authToken: 'token',
      from: '+34600111222',
      apiUrl: 'https://api.twilio.com',
    });
    const { SMTP_URL: _smtp, SMS_PROVIDER: _sms, ...bare } = production;
    let message = '';
    try {
      loadConfig(bare);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('SMTP_URL: required when NODE_ENV=production');
    expect(message).toContain('SMS_PROVIDER: set a real provider');
    // With DATABASE_URL the token secret and VAPID keys may come from the shared database (0024).
    const { VAPID_PUBLIC_KEY: _public, VAPID_PRIVATE_KEY: _private, ...generated } = production;
    expect(loadConfig({ ...generated, DATABASE_URL: 'postgres://db/entreno' })).toMatchObject({
      tokenSecret: undefined,
      photoStore: 'database',
      push: { vapidKeys: undefined },
    });
  });

  it('treats an empty variable as unset (compose passes ${NAME:-} as "")', () => {
    expect(
      loadConfig({ TOKEN_SECRET: '', METRICS_TOKEN: '', VAPID_PUBLIC_KEY: '', VAPID_PRIVATE_KEY: '' }),
    ).toMatchObject({
      tokenSecret: undefined,
      metricsToken: undefined,
      push: { vapidKeys: undefined },
    });
  });

  it('stops a node whose scaled settings cannot work, naming the variable', () => {
    expect(() => loadConfig({ REDIS_URL: 'redis://cache:6379' })).toThrow(/DATABASE_URL: required with REDIS_URL/);
    expect(() => loadConfig({ PHOTO_STORE: 'database' })).toThrow(/PHOTO_STORE=database: requires DATABASE_URL/);
    expect(() => loadConfig({ PHOTO_STORE: 's3' })).toThrow(/PHOTO_STORE: must be 'database' or 'filesystem'/);
    expect(loadConfig({}).photoStore).toBe('filesystem');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/entreno', PHOTO_STORE: 'filesystem' }).photoStore).toBe(
      'filesystem',
    );
  });

  it('reads the Google settings: the stand-in by default, Google itself with a client id', () => {
    expect(loadConfig({ PUBLIC_ORIGIN: 'http://localhost:4000' }).google).toEqual({
      clientId: 'entreno-local.apps.googleusercontent.com',
      issuers: ['http://localhost:4000/api/dev/google'],
      jwksUrl: 'http://localhost:4000/api/dev/google/certs',
      scriptUrl: '/api/dev/google/gsi/client',
      standIn: true,
    });
    expect(loadConfig(production).google).toEqual({
      clientId: '123-abc.apps.googleusercontent.com',
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      scriptUrl: 'https://accounts.google.com/gsi/client',
      standIn: false,
    });
  });

  it('reports bad Google settings as a ConfigError, with the other problems', () => {
    const { GOOGLE_CLIENT_ID: _google, SMTP_URL: _smtp, ...bare } = production;
    let error: unknown;
    try {
      loadConfig({ ...bare, GOOGLE_JWKS_URL: 'http://keys.example/certs' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String(error)).toContain('SMTP_URL: required when NODE_ENV=production');
    expect(String(error)).toContain('GOOGLE_CLIENT_ID: required when NODE_ENV=production');
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'has spaces' })).toThrow(
      /GOOGLE_CLIENT_ID: must be an OAuth client id/,
    );
    expect(() => loadConfig({ ...production, GOOGLE_JWKS_URL: 'http://keys.example/certs' })).toThrow(
      /GOOGLE_JWKS_URL: must use https:/,
    );
  });
});

describe('listening address and development surfaces (issue #24 item 4)', () => {
  it('listens on loopback in development and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('localhost');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('localhost');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(configWarnings(loadConfig({}))).toEqual([]);
    expect(configWarnings(loadConfig({ HOST: '0.0.0.0' }))).toEqual([
      'HOST=0.0.0.0: the development server is reachable from the network (its /api/dev/* routes still answer this machine only)',
    ]);
    expect(configWarnings(loadConfig({ DEV_ROUTES_FROM_NETWORK: '1' }))[0]).toMatch(/DEV_ROUTES_FROM_NETWORK=1/);
    expect(loadConfig({}).areDevRoutesOpenToNetwork).toBe(false);
  });
});
