// @setup embedded
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/client.ts';
import { DEMO_PASSWORD, seedDemoData, seededRandom } from '../../src/server/tools/seed.ts';
import { createMemoryPhotoStore } from '../../src/server/features/photos/photo-store.ts';
import { createPasswordHasher } from '../../src/server/features/auth/password-hasher.ts';
import { createTestDatabase } from '../helpers/test-app.ts';

const NOW = new Date('2026-03-10T09:00:00.000Z');

type SeedRow = Record<string, unknown> & {
  email: string;
  password_hash: string;
  complete_profile: boolean;
  bio: string;
  city: string;
  photos: string[];
};

async function seedOnce(count: number) {
  const scratch = await createTestDatabase();
  const database = await openDatabase({ databaseUrl: scratch.url, dataDir: '/tmp/unused' });
  const photoStore = createMemoryPhotoStore();
  try {
    await seedDemoData(database.db, { photoStore, count, rng: seededRandom(7), now: NOW });
    const result = await database.db.execute(sql`
      select u.email, u.password_hash, u.complete_profile, p.name, p.bio, p.birth_date, p.gender, p.city,
             p.latitude, p.longitude, p.training, p.photos
      from users u join profiles p on p.user_id = u.id order by u.email`);
    const rows = (result as unknown as { rows: SeedRow[] }).rows;
    const firstPhoto = await photoStore.get(rows[0]?.photos[0] ?? '');
    return { rows, firstPhoto };
  } finally {
    await database.close();
    await scratch.drop();
  }
}

// Two seeds of 40 users with generated photos: well under 30 s alone, not always on a loaded CI machine.
describe('demo data (seedDemoData)', { timeout: 120_000 }, () => {
  it('creates N complete users deterministically, with photos and the shared password', async () => {
    const first = await seedOnce(40);
    const second = await seedOnce(40);
    expect(first.rows).toHaveLength(40);
    const strip = (rows: SeedRow[]) =>
      rows.map(({ password_hash: _hash, photos, ...rest }) => ({ ...rest, photoCount: photos.length }));
    expect(strip(first.rows)).toEqual(strip(second.rows));
    const row = first.rows[0] as SeedRow;
    expect(row.email).toMatch(/@demo\.entreno\.app$/);
    expect(row.complete_profile).toBe(true);
    expect(row.bio.length).toBeGreaterThanOrEqual(10);
    expect(row.photos.length).toBeGreaterThanOrEqual(1);
    expect(first.firstPhoto?.subarray(8, 12).toString()).toBe('WEBP');
    const hasher = await createPasswordHasher();
    expect(await hasher.verify(row.password_hash, DEMO_PASSWORD)).toBe(true);
    const cities = new Set(first.rows.map((item) => item.city));
    expect(cities.has('Madrid')).toBe(true);
    expect(first.rows.filter((item) => item.city === 'Madrid').length).toBeGreaterThan(first.rows.length / 3);
  });
});
