// @setup scaled — secrets shared through the PostgreSQL database
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveVapidKeys } from '../../src/server/features/push/vapid-keys.ts';
import { resolveTokenSecret } from '../../src/server/secrets.ts';
import { createDatabaseSecretStore } from '../../src/server/secrets-repository.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('secrets shared through the database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('generates a secret once even when many callers race for it, and every caller reads the winner', async () => {
    const stores = Array.from({ length: 8 }, () => createDatabaseSecretStore(app.database.db));
    let generated = 0;
    const values = await Promise.all(
      stores.map((store, index) =>
        store.getOrCreate('race-test', () => {
          generated += 1;
          return `candidate-${index}`;
        }),
      ),
    );
    expect(new Set(values).size).toBe(1);
    expect(generated).toBeGreaterThanOrEqual(1);
    expect(await stores[0]?.getOrCreate('race-test', () => 'late')).toBe(values[0]);
  });

  it('the operator value wins over the shared one; the shared one over a throwaway', async () => {
    const shared = createDatabaseSecretStore(app.database.db);
    const options = { shared, dataDir: '/nonexistent', inMemory: true };
    const stored = await resolveTokenSecret({ ...options, configured: undefined });
    expect(stored).toHaveLength(64);
    expect(await resolveTokenSecret({ ...options, configured: undefined })).toBe(stored);
    expect(await resolveTokenSecret({ ...options, configured: 'o'.repeat(40) })).toBe('o'.repeat(40));

    const push = { ...app.config.push, vapidKeys: undefined };
    const keys = await resolveVapidKeys(push, options);
    expect(await resolveVapidKeys(push, options)).toEqual(keys);
    const configured = { publicKey: 'configured-public', privateKey: 'configured-private' };
    expect(await resolveVapidKeys({ ...push, vapidKeys: configured }, options)).toBe(configured);
  });
});
