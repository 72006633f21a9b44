import { describe, expect, it } from 'vitest';
import {
  GoogleConfigError,
  resolveGoogleConfig,
  STAND_IN_CLIENT_ID,
} from '../../src/server/features/google/google-config.ts';

const ORIGIN = 'http://localhost:3000';

describe('resolveGoogleConfig', () => {
  it('uses the local stand-in outside production when no client id is configured', () => {
    for (const NODE_ENV of ['development', 'test', undefined]) {
      expect(resolveGoogleConfig({ NODE_ENV, GOOGLE_CLIENT_ID: '  ' }, `${ORIGIN}/`)).toEqual({
        clientId: STAND_IN_CLIENT_ID,
        issuers: [`${ORIGIN}/api/dev/google`],
        jwksUrl: `${ORIGIN}/api/dev/google/certs`,
        scriptUrl: '/api/dev/google/gsi/client',
        standIn: true,
      });
    }
    expect(STAND_IN_CLIENT_ID).toBe('entreno-local.apps.googleusercontent.com');
  });

  it("uses Google's addresses and both issuer spellings when a client id is configured", () => {
    const config = resolveGoogleConfig(
      { NODE_ENV: 'production', GOOGLE_CLIENT_ID: '123-abc.apps.googleusercontent.com', PATH: '/usr/bin' },
      'https://entreno.example',
    );
    expect(config).toEqual({
      clientId: '123-abc.apps.googleusercontent.com',
      issuers: ['https://accounts.google.com', 'accounts.google.com'],
      jwksUrl: 'https://www.googleapis.com/oauth2/v3/certs',
      scriptUrl: 'https://accounts.google.com/gsi/client',
      standIn: false,
    });
  });

  it('takes issuer lists, key and script addresses from the environment', () => {
    const config = resolveGoogleConfig(
      {
        NODE_ENV: 'development',
        GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com',
        GOOGLE_ISSUER: 'http://127.0.0.1:9999, other-issuer',
        GOOGLE_JWKS_URL: 'http://127.0.0.1:9999/certs',
        GOOGLE_SCRIPT_URL: 'http://127.0.0.1:9999/gsi/client',
      },
      ORIGIN,
    );
    expect(config.issuers).toEqual(['http://127.0.0.1:9999', 'other-issuer']);
    expect(config.jwksUrl).toBe('http://127.0.0.1:9999/certs');
    expect(config.scriptUrl).toBe('http://127.0.0.1:9999/gsi/client');
    expect(config.standIn).toBe(false);
  });

  it('refuses to start production with the stand-in, or with plain-HTTP Google addresses', () => {
    expect(() => resolveGoogleConfig({ NODE_ENV: 'production' }, 'https://entreno.example')).toThrow(GoogleConfigError);
    expect(() => resolveGoogleConfig({ NODE_ENV: 'production' }, 'https://entreno.example')).toThrow(
      /GOOGLE_CLIENT_ID/,
    );
    expect(() =>
      resolveGoogleConfig(
        {
          NODE_ENV: 'production',
          GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com',
          GOOGLE_JWKS_URL: 'http://keys.example/certs',
        },
        'https://entreno.example',
      ),
    ).toThrow(/GOOGLE_JWKS_URL: must use https:/);
  });

  it('names every bad variable', () => {
    expect(() =>
      resolveGoogleConfig(
        { GOOGLE_CLIENT_ID: 'has spaces inside', GOOGLE_JWKS_URL: 'not a url', GOOGLE_ISSUER: 'a,,b' },
        ORIGIN,
      ),
    ).toThrow(/GOOGLE_CLIENT_ID[\s\S]*GOOGLE_ISSUER[\s\S]*GOOGLE_JWKS_URL/);
  });
});
