import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { VerificationQueueItem, VerificationState } from '../../src/shared/verification/verification-schemas.ts';
import type { DiscoveryApi, TestUser } from './discovery-api.ts';
import type { TestApp } from './test-app.ts';

/** A JPEG "selfie" carrying EXIF (camera, GPS) and an orientation, as a phone would send it. */
export function taggedSelfie(colour = '#8a5a44'): Promise<Buffer> {
  return sharp({ create: { width: 90, height: 60, channels: 3, background: colour } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'CámaraEspía', Model: 'Modelo-X' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 25/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '3/1 42/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A small photo for a profile. */
export function profilePhoto(colour = '#336699'): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
}

export function createVerificationApi(app: TestApp, api: DiscoveryApi) {
  const submit = async (token: string, file: { data: Buffer; type?: string; field?: string } | null) => {
    const form = new FormData();
    if (file) {
      form.append(
        file.field ?? 'selfie',
        new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/jpeg' }),
        'selfie.jpg',
      );
    }
    const response = await fetch(`${app.url}/api/verification/requests`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };

  return {
    submit,

    /** A user with a profile and one photo (a verification needs a face to compare). */
    async userWithPhoto(name = 'Lucía'): Promise<TestUser & { photoKeys: string[] }> {
      const user = await api.userWithProfile({}, name);
      const upload = await api.upload(user.userId, [{ data: await profilePhoto() }], user.token);
      expect(upload.status, JSON.stringify(upload.body)).toBe(200);
      return { ...user, photoKeys: upload.body.photoKeys as string[] };
    },

    async state(token: string): Promise<VerificationState> {
      const answer = await api.get('/verification', token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body as VerificationState;
    },

    /** The pose, then the selfie: a request waiting in the queue. */
    async request(user: TestUser, selfie?: Buffer): Promise<VerificationState> {
      const challenge = await api.post('/verification/challenge', {}, user.token);
      expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
      const sent = await submit(user.token, { data: selfie ?? (await taggedSelfie()) });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      return sent.body.verification as VerificationState;
    },

    async queue(token: string): Promise<VerificationQueueItem[]> {
      const answer = await api.get('/moderation/verifications', token);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.requests as VerificationQueueItem[];
    },

    /** The pending request of `userId` in the queue. */
    async pendingOf(token: string, userId: string): Promise<VerificationQueueItem> {
      const item = (await this.queue(token)).find((entry) => entry.userId === userId);
      expect(item, `no pending request for ${userId}`).toBeDefined();
      return item as VerificationQueueItem;
    },

    /** Rows of a table for a user, straight from the database (what the API never shows). */
    async countRows(table: 'verification_requests' | 'profile_verifications', userId: string): Promise<number> {
      const result = await app.database.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where user_id = ${userId}::uuid`,
      );
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n);
    },

    async selfiesOf(userId: string): Promise<Buffer[]> {
      const result = await app.database.db.execute(
        sql`select s.data from verification_selfies s join verification_requests r on r.id = s.request_id
            where r.user_id = ${userId}::uuid`,
      );
      return (result as unknown as { rows: { data: Buffer }[] }).rows.map((row) => Buffer.from(row.data));
    },
  };
}

export type VerificationApi = ReturnType<typeof createVerificationApi>;
