// @setup scaled — photos stored in PostgreSQL (the scaled photo store); the filesystem store runs in every e2e journey
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const image = (format: 'jpeg' | 'png' | 'webp', width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .toFormat(format)
    .toBuffer();

describe('photo upload and serving (spec 001 §8, QUALITY 10)', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('accepts JPG, PNG and WEBP and stores them re-encoded as WebP, served cacheable', async () => {
    const user = await api.userWithProfile();
    const upload = await api.upload(
      user.userId,
      [
        { data: await image('jpeg', 3000, 2000), name: 'a.jpg', type: 'image/jpeg' },
        { data: await image('png'), name: 'b.png', type: 'image/png' },
        { data: await image('webp'), name: 'c.webp', type: 'image/webp' },
      ],
      user.token,
    );
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    expect(upload.body.success).toBe(true);
    const keys = upload.body.photoKeys as string[];
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(new RegExp(`^photos/${user.userId}/[A-Za-z0-9_-]{22}\\.webp$`));

    const served = await fetch(`${app.url}/${keys[0]}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = served.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    // A revalidation with the ETag gets a bodiless 304 (immutable keys: the ETag never goes stale).
    const revalidated = await fetch(`${app.url}/${keys[0]}`, { headers: { 'if-none-match': etag as string } });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe('');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(1600);
    const thumb = await fetch(`${app.url}/${keys[0]?.replace('.webp', '.thumb.webp')}`);
    expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).toBe(400);

    // The profile lists them, and the user now has a complete profile.
    const profile = await api.get(`/profiles/${user.userId}`, user.token);
    expect((profile.body.profile as { photos: string[] }).photos).toEqual(keys);
    const session = await api.get('/auth/validate-session', user.token);
    expect(JSON.stringify(session.body)).toContain('"completeProfile":true');
  });

  it('strips EXIF and GPS and applies the orientation', async () => {
    const user = await api.userWithProfile();
    const tagged = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#336699' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Espía', Model: 'Cámara' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 25/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '3/1 42/1 0/1' },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const input = await sharp(tagged).metadata();
    expect(input.exif).toBeDefined();
    expect(input.orientation).toBe(6);
    const upload = await api.upload(user.userId, [{ data: tagged }], user.token);
    expect(upload.status, JSON.stringify(upload.body)).toBe(200);
    const served = Buffer.from(
      await (await fetch(`${app.url}/${(upload.body.photoKeys as string[])[0]}`)).arrayBuffer(),
    );
    const meta = await sharp(served).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(served.includes(Buffer.from('Espía'))).toBe(false);
    // Orientation 6 (rotate 90°) applied: 80×40 becomes 40×80.
    expect([meta.width, meta.height]).toEqual([40, 80]);
  });

  it('refuses content that is not JPG, PNG or WEBP with 415, whatever the name says', async () => {
    const user = await api.userWithProfile();
    const text = await api.upload(
      user.userId,
      [{ data: Buffer.from('esto no es una imagen'), name: 'foto.jpg' }],
      user.token,
    );
    expect(text.status).toBe(415);
    expect(text.body).toMatchObject({
      success: false,
      message: 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
    });
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect((await api.upload(user.userId, [{ data: gif, name: 'x.png', type: 'image/png' }], user.token)).status).toBe(
      415,
    );
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    expect(
      (await api.upload(user.userId, [{ data: svg, name: 'x.webp', type: 'image/webp' }], user.token)).status,
    ).toBe(415);
    // A truncated JPEG: right magic bytes, broken body.
    const broken = (await image('jpeg')).subarray(0, 40);
    expect((await api.upload(user.userId, [{ data: broken }], user.token)).status).toBe(415);
  });

  it('refuses a file of 5 MB + 1 byte with 413 and the spec text', async () => {
    const user = await api.userWithProfile();
    const jpeg = await image('jpeg');
    const big = Buffer.concat([jpeg, Buffer.alloc(5 * 1024 * 1024 + 1 - jpeg.length)]);
    const response = await api.upload(user.userId, [{ data: big }], user.token);
    expect(response.status).toBe(413);
    expect(response.body.message).toBe(
      'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
    );
    expect((await api.get(`/profiles/${user.userId}`, user.token)).body.profile).toMatchObject({ photos: [] });
  });

  it('refuses a pixel bomb (a small file that decodes to more than 40 MP)', async () => {
    const user = await api.userWithProfile();
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(5 * 1024 * 1024);
    const response = await api.upload(user.userId, [{ data: bomb, type: 'image/png' }], user.token);
    // Says what is wrong: the pixels, not the 5 MB the file is well under.
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ errorType: 'IMAGE_DIMENSIONS' });
    expect(response.body.message).toMatch(/píxeles/);
    expect(response.body.message).not.toMatch(/5 ?MB/);
  });

  it('keeps at most 6 photos even with seven parallel uploads', async () => {
    const user = await api.userWithProfile();
    const data = await image('jpeg');
    const responses = await Promise.all(
      Array.from({ length: 7 }, () => api.upload(user.userId, [{ data }], user.token)),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 400]);
    const refused = responses.find((response) => response.status === 400);
    expect(refused?.body.message).toBe('Puedes subir un máximo de 6 fotos');
    const profile = await api.get(`/profiles/${user.userId}`, user.token);
    expect((profile.body.profile as { photos: string[] }).photos).toHaveLength(6);
  });

  it('answers 403 for another user’s profile and 401 without a token', async () => {
    const owner = await api.userWithProfile();
    const intruder = await api.userWithProfile();
    const data = await image('png');
    const forbidden = await api.upload(owner.userId, [{ data }], intruder.token);
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe('No tienes permiso para subir fotos a este perfil.');
    expect((await api.upload(owner.userId, [{ data }])).status).toBe(401);
  });

  it('limits uploads per user (429 with the spec text)', async () => {
    const user = await api.userWithProfile();
    const statuses: number[] = [];
    for (let index = 0; index < 21; index += 1) {
      // Empty bodies: refused after the limit is counted, without spending time on images.
      const response = await api.upload(user.userId, [], user.token);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body.message).toBe('Has alcanzado el límite de subidas. Intenta más tarde.');
        expect(response.headers.get('retry-after')).toBeTruthy();
      }
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses[20]).toBe(429);
  });

  it('deletes and reorders photos (owner only); keys cannot traverse paths', async () => {
    const user = await api.userWithProfile();
    const data = await image('png');
    const upload = await api.upload(user.userId, [{ data }, { data }, { data }], user.token);
    const [a, b, c] = upload.body.photoKeys as [string, string, string];
    const intruder = await api.userWithProfile();
    expect(
      (await api.put(`/profiles/${user.userId}/photos/order`, { photoKeys: [c, b, a] }, intruder.token)).status,
    ).toBe(403);
    const reordered = await api.put(`/profiles/${user.userId}/photos/order`, { photoKeys: [c, b, a] }, user.token);
    expect(reordered.body).toEqual({ success: true, photoKeys: [c, b, a] });
    expect((await api.put(`/profiles/${user.userId}/photos/order`, { photoKeys: [c, b] }, user.token)).status).toBe(
      400,
    );

    expect((await api.call('DELETE', `/profiles/${user.userId}/photos/${b}`, { token: intruder.token })).status).toBe(
      403,
    );
    const deleted = await api.call('DELETE', `/profiles/${user.userId}/photos/${encodeURIComponent(b)}`, {
      token: user.token,
    });
    expect(deleted.body).toEqual({ success: true, photoKeys: [c, a] });
    expect((await fetch(`${app.url}/${b}`)).status).toBe(404);
    expect((await fetch(`${app.url}/${b.replace('.webp', '.thumb.webp')}`)).status).toBe(404);
    expect((await fetch(`${app.url}/${a}`)).status).toBe(200);

    for (const path of [
      '/photos/..%2F..%2Fetc/passwd',
      `/photos/${user.userId}/..%2F..%2Fsecrets.json`,
      '/photos/x/y.webp',
    ]) {
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(404);
    }
  });

  it('a profile update keeps only keys the profile holds', async () => {
    const user = await api.userWithProfile();
    const other = await api.userWithProfile();
    const mine = (await api.upload(user.userId, [{ data: await image('png') }], user.token)).body.photoKeys as string[];
    const theirs = (await api.upload(other.userId, [{ data: await image('png') }], other.token)).body
      .photoKeys as string[];
    const stolen = await api.put(
      `/profiles/${user.userId}`,
      { userId: user.userId, photos: [...mine, ...theirs] },
      user.token,
    );
    expect(stolen.status).toBe(400);
    const same = await api.put(`/profiles/${user.userId}`, { userId: user.userId, photos: mine }, user.token);
    expect(same.status).toBe(200);
  });
});
