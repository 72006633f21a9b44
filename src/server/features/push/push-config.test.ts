import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_ENDPOINT_ALLOWLIST, isAllowedPushEndpoint, resolvePushConfig } from './push-config.ts';

const KEYS = {
  VAPID_PUBLIC_KEY: 'BAEszSPGT727MYm949M-snNxxXTGuzxEYeYXGrzCW0T-AWdyRH-1Kgt_vQsuXxFsrijMwOuxySBd3zKVG1ttuM4',
  VAPID_PRIVATE_KEY: 'JzePh8EX9zlYCCfqAtAc28Ge7HjZ3nxYsgL2moeGpGs',
};
const development = { isProduction: false, publicOrigin: 'http://localhost:3000' };
const production = { isProduction: true, publicOrigin: 'https://entreno.example' };

describe('push configuration', () => {
  it('needs nothing to try the app: keys come from DATA_DIR, the known services are allowed', () => {
    const { config, problems } = resolvePushConfig({}, development);
    expect(problems).toEqual([]);
    expect(config.vapidKeys).toBeUndefined();
    expect(config.vapidSubject).toMatch(/^mailto:/);
    expect(config.endpointAllowlist).toEqual([...DEFAULT_PUSH_ENDPOINT_ALLOWLIST]);
    expect(config.sendTimeoutMs).toBe(5000);
  });

  it('requires a subject in production (keys are generated and shared when not configured)', () => {
    const { problems } = resolvePushConfig({}, production);
    expect(problems).toEqual(['VAPID_SUBJECT: required when NODE_ENV=production (mailto: or https: contact)']);
    const ready = resolvePushConfig({ ...KEYS, VAPID_SUBJECT: 'mailto:push@entreno.example' }, production);
    expect(ready.problems).toEqual([]);
    expect(ready.config.vapidKeys).toEqual({ publicKey: KEYS.VAPID_PUBLIC_KEY, privateKey: KEYS.VAPID_PRIVATE_KEY });
  });

  it('refuses malformed keys, half a pair, bad subjects and allowlist entries', () => {
    const problems = (env: Record<string, string>, context = development) =>
      resolvePushConfig(env, context).problems.join('\n');
    expect(problems({ VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: KEYS.VAPID_PRIVATE_KEY })).toMatch(/65 bytes/);
    expect(problems({ VAPID_PUBLIC_KEY: KEYS.VAPID_PUBLIC_KEY })).toMatch(/set both or neither/);
    expect(problems({ VAPID_SUBJECT: 'http://entreno.example' })).toMatch(/VAPID_SUBJECT/);
    expect(problems({ PUSH_ENDPOINT_ALLOWLIST: 'not a url' })).toMatch(/PUSH_ENDPOINT_ALLOWLIST/);
    expect(problems({ PUSH_ENDPOINT_ALLOWLIST: 'https://push.example/path' })).toMatch(/PUSH_ENDPOINT_ALLOWLIST/);
    expect(
      problems(
        { ...KEYS, VAPID_SUBJECT: 'mailto:a@b.c', PUSH_ENDPOINT_ALLOWLIST: 'http://127.0.0.1:9000' },
        production,
      ),
    ).toMatch(/must use https: in production/);
  });

  it('adds PUSH_ENDPOINT_ALLOWLIST origins to the known services', () => {
    const { config } = resolvePushConfig(
      { PUSH_ENDPOINT_ALLOWLIST: 'http://127.0.0.1:9000, https://push.example/' },
      development,
    );
    expect(config.endpointAllowlist).toEqual([
      ...DEFAULT_PUSH_ENDPOINT_ALLOWLIST,
      'http://127.0.0.1:9000',
      'https://push.example',
    ]);
  });
});

describe('isAllowedPushEndpoint', () => {
  const allowlist = [...DEFAULT_PUSH_ENDPOINT_ALLOWLIST, 'http://127.0.0.1:9000'];

  it.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://FCM.googleapis.com/wp/abc',
    'https://fcm.googleapis.com:443/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/x',
    'https://web.push.apple.com/QGx',
    'https://wns2-par02p.notify.windows.com/w/?token=x',
    'https://a.b.notify.windows.com/w/',
    'http://127.0.0.1:9000/push/1',
  ])('allows %s', (endpoint) => expect(isAllowedPushEndpoint(endpoint, allowlist)).toBe(true));

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://fcm.googleapis.com/fcm/send/abc',
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://fcm.googleapis.com.evil.example/fcm/send/abc',
    'https://evilfcm.googleapis.com/x',
    'https://user:pass@fcm.googleapis.com/fcm/send/abc',
    'https://notify.windows.com/w/',
    'https://evil.example/notify.windows.com',
    'http://127.0.0.1:9001/push/1',
    'http://localhost:9000/push/1',
    'ftp://fcm.googleapis.com/x',
    'not a url',
  ])('refuses %s', (endpoint) => expect(isAllowedPushEndpoint(endpoint, allowlist)).toBe(false));
});
