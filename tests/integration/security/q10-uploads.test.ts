// @setup embedded
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscoveryApi, type DiscoveryApi } from '../../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const SCRIPT = '<script>alert(1)</script>';

const jpeg = (width = 64, height = 48) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

/**
 * A real, tiny PNG whose IHDR is patched to claim width × height (CRC fixed, so decoders believe
 * it): a few hundred bytes that would decode into gigabytes.
 */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 16, height: 16, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  // Signature (8) · length (4) · "IHDR" (4) · width (4) · height (4) · … (5) · CRC over type + data.
  expect(png.toString('latin1', 12, 16)).toBe('IHDR');
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/**
 * QUALITY 10, as an attacker uploading to their own profile: content-type lies, a JPEG/HTML
 * polyglot, a pixel bomb, an oversize body, a race past the 6-photo cap and GPS-tagged photos.
 * (photos.test.ts covers the spec's flow and texts.)
 */
describe('Q10 uploads', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const served = async (key: string) => {
    const response = await fetch(`${app.url}/${key}`);
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };
  const photosOf = async (user: { userId: string; token: string }) =>
    ((await api.get(`/profiles/${user.userId}`, user.token)).body.profile as { photos: string[] }).photos;

  it('a text file named .jpg and sent as image/jpeg is refused with 415', async () => {
    const user = await api.userWithProfile();
    for (const data of [Buffer.from(`${SCRIPT} esto no es una foto`), Buffer.from(`<html>${SCRIPT}</html>`)]) {
      const answer = await api.upload(user.userId, [{ data, name: 'foto.jpg', type: 'image/jpeg' }], user.token);
      expect(answer.status).toBe(415);
      expect(answer.body).toMatchObject({ success: false, errorType: 'FILE_FORMAT' });
    }
    // JPEG magic bytes followed by HTML: the decoder, not only the first bytes, must accept it.
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from(`<html>${SCRIPT}</html>`)]);
    expect((await api.upload(user.userId, [{ data: fakeJpeg }], user.token)).status).toBe(415);
    expect(await photosOf(user)).toEqual([]);
  });

  it('a JPEG/HTML polyglot is re-encoded: served as image/webp with nosniff, without the script bytes', async () => {
    const user = await api.userWithProfile();
    const polyglot = Buffer.concat([await jpeg(), Buffer.from(SCRIPT)]);
    expect(polyglot.includes(Buffer.from(SCRIPT))).toBe(true);
    const answer = await api.upload(user.userId, [{ data: polyglot, name: 'x.html', type: 'text/html' }], user.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const [key] = answer.body.uploadedKeys as string[];
    expect(key).toMatch(/^photos\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{22}\.webp$/);
    const { response, bytes } = await served(key as string);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
    expect(bytes.toString('latin1', 8, 12)).toBe('WEBP');
    expect(bytes.includes(Buffer.from(SCRIPT))).toBe(false);
    expect(bytes.includes(Buffer.from('<script'))).toBe(false);
    expect((await sharp(bytes).metadata()).format).toBe('webp');
  });

  it('a pixel bomb (a tiny PNG declaring 30000×30000) gets a 4xx, never a 5xx, and the server lives on', async () => {
    const user = await api.userWithProfile();
    const bomb = await pngClaiming(30_000, 30_000);
    expect(bomb.length).toBeLessThan(2_000);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ width: 30_000, height: 30_000 });
    const answer = await api.upload(user.userId, [{ data: bomb, name: 'bomba.png', type: 'image/png' }], user.token);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).toMatchObject({ success: false });
    // A long thin one too (under the pixel cap per side, over it in area).
    const thin = await pngClaiming(1_000_000, 100);
    const thinAnswer = await api.upload(user.userId, [{ data: thin, type: 'image/png' }], user.token);
    expect(thinAnswer.status).toBeGreaterThanOrEqual(400);
    expect(thinAnswer.status).toBeLessThan(500);
    // Still serving, and still accepting honest photos.
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect((await api.upload(user.userId, [{ data: await jpeg() }], user.token)).status).toBe(200);
  });

  it('5 MB + 1 byte is refused with 413 and nothing is stored', async () => {
    const user = await api.userWithProfile();
    const head = await jpeg();
    const big = Buffer.concat([head, Buffer.alloc(5 * 1024 * 1024 + 1 - head.length)]);
    expect(big.length).toBe(5 * 1024 * 1024 + 1);
    const answer = await api.upload(user.userId, [{ data: big }], user.token);
    expect(answer.status).toBe(413);
    expect(await photosOf(user)).toEqual([]);
    // Exactly 5 MB is not refused for its size (the limit is the spec's, not lower).
    const exact = Buffer.concat([head, Buffer.alloc(5 * 1024 * 1024 - head.length)]);
    expect((await api.upload(user.userId, [{ data: exact }], user.token)).status).not.toBe(413);
  });

  it('seven parallel uploads of one photo each: exactly 6 stored, the seventh refused', async () => {
    const user = await api.userWithProfile();
    const data = await jpeg();
    const answers = await Promise.all(Array.from({ length: 7 }, () => api.upload(user.userId, [{ data }], user.token)));
    const accepted = answers.filter((answer) => answer.status === 200);
    expect(accepted).toHaveLength(6);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(1);
    const photos = await photosOf(user);
    expect(photos).toHaveLength(6);
    const uploaded = accepted.flatMap((answer) => answer.body.uploadedKeys as string[]);
    expect(new Set(uploaded)).toEqual(new Set(photos));
    for (const key of photos) expect((await served(key)).response.status).toBe(200);
    // And no eighth by a later request either.
    expect((await api.upload(user.userId, [{ data }], user.token)).status).toBe(400);
  });

  it('a GPS-tagged JPEG comes back with no EXIF at all', async () => {
    const user = await api.userWithProfile();
    const tagged = await sharp({ create: { width: 120, height: 90, channels: 3, background: '#446688' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'TelefonoEspia', Model: 'ModeloX' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '40/1 25/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '3/1 42/1 0/1',
        },
      })
      .toBuffer();
    const before = await sharp(tagged).metadata();
    expect(before.exif).toBeDefined();
    expect(tagged.includes(Buffer.from('TelefonoEspia'))).toBe(true);

    const answer = await api.upload(user.userId, [{ data: tagged }], user.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    for (const key of answer.body.uploadedKeys as string[]) {
      for (const file of [key, key.replace(/\.webp$/, '.thumb.webp')]) {
        const { response, bytes } = await served(file);
        expect(response.status).toBe(200);
        const after = await sharp(bytes).metadata();
        expect(after.exif).toBeUndefined();
        expect(after.xmp).toBeUndefined();
        expect(bytes.includes(Buffer.from('EXIF'))).toBe(false);
        expect(bytes.includes(Buffer.from('Exif'))).toBe(false);
        expect(bytes.includes(Buffer.from('TelefonoEspia'))).toBe(false);
      }
    }
  });
});
