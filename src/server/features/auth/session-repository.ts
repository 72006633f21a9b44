import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type SessionRow, sessions } from '../../db/schema/index.ts';

export type SessionRecord = SessionRow;

export type SessionRepository = ReturnType<typeof createSessionRepository>;

export function createSessionRepository(db: Database) {
  return {
    async create(session: {
      userId: string;
      rememberMe: boolean;
      createdAt: Date;
      expiresAt: Date;
      maxExpiresAt: Date;
    }): Promise<SessionRecord> {
      const [created] = await db.insert(sessions).values(session).returning();
      if (!created) throw new Error('sessions insert returned no row');
      return created;
    },
    async findById(id: string): Promise<SessionRecord | undefined> {
      const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
      return row;
    },
    /** Those of these sessions that are live at `now` (one statement). */
    async findLive(ids: readonly string[], now: Date) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: sessions.id,
          userId: sessions.userId,
          rememberMe: sessions.rememberMe,
          expiresAt: sessions.expiresAt,
          maxExpiresAt: sessions.maxExpiresAt,
        })
        .from(sessions)
        .where(and(inArray(sessions.id, [...ids]), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
    },
    /** Moves the end forward (never back, never past the cap) while the session is live. */
    async extend(id: string, expiresAt: Date, now: Date): Promise<SessionRecord | undefined> {
      const [row] = await db
        .update(sessions)
        .set({
          expiresAt: sql`least(${sessions.maxExpiresAt}, greatest(${sessions.expiresAt}, ${expiresAt.toISOString()}::timestamptz))`,
        })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .returning();
      return row;
    },
    /** Revokes one session; true when it was live. */
    async revoke(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.length > 0;
    },
    /** Revokes every live session of a user; returns their ids. */
    async revokeAllForUser(userId: string, now: Date): Promise<string[]> {
      const rows = await db
        .update(sessions)
        .set({ revokedAt: now })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return rows.map((row) => row.id);
    },
  };
}
