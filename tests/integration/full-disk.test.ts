import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryPhotoStore } from '../../src/server/features/photos/photo-store.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Issue #24 item 7: a full disk answers 507 with Retry-After and a Spanish text, never 500. The
 * photo store's writes fail as the filesystem's do when the disk is full (an injected ENOSPC),
 * then succeed again once there is room: no restart needed.
 */
describe('a full disk under a photo upload', () => {
  const store = createMemoryPhotoStore();
  let isFull = true;
  let app: TestApp;
  let api: DiscoveryApi;
  beforeAll(async () => {
    const put = store.put.bind(store);
    const fullDisk = {
      ...store,
      kind: store.kind,
      get: store.get.bind(store),
      delete: store.delete.bind(store),
      async put(key: string, data: Buffer) {
        if (isFull) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        await put(key, data);
      },
    };
    app = await startTestApp({}, { dependencies: { photoStore: fullDisk } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers 507 while the disk is full, and stores the photo once there is room', async () => {
    const user = await api.userWithProfile();
    const jpeg = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a33' } })
      .jpeg()
      .toBuffer();
    const refused = await api.upload(user.userId, [{ data: jpeg }], user.token);
    expect(refused.status).toBe(507);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body).toEqual({
      success: false,
      message: 'No queda espacio para guardar los datos en el servidor. Inténtalo más tarde.',
      errorType: 'STORAGE_FULL',
    });
    isFull = false;
    const stored = await api.upload(user.userId, [{ data: jpeg }], user.token);
    expect(stored.status, JSON.stringify(stored.body)).toBeLessThan(300);
  });
});
