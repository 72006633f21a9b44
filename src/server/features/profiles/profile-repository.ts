import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { blocks, matches, profiles, users } from '../../db/schema/index.ts';
import {
  contentOf,
  deckColumns,
  type ProfileContent,
  type ProfileStats,
  type StoredProfile,
  toStoredProfile,
} from './profile-model.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text can be compared with a uuid column (anything else matches nothing). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

// Kept here too: the deck repository maps its rows with it.
export { toStoredProfile };

export type CreateProfileResult = { status: 'created'; profile: StoredProfile } | { status: 'exists' | 'no-user' };

/** Thrown by a `modify` mutation to leave the row as it was; its error reaches the caller. */
export type ProfileMutation<T> = (current: StoredProfile) => { content: ProfileContent; result: T };

export type ProfileRepository = ReturnType<typeof createProfileRepository>;

export function createProfileRepository(db: Database) {
  /** users.complete_profile: a profile with at least one photo (spec 000 §3). */
  const markComplete = (executor: Pick<Database, 'update'>, userId: string, photos: readonly string[], now: Date) =>
    executor
      .update(users)
      .set({ completeProfile: photos.length > 0, updatedAt: now })
      .where(eq(users.id, userId));

  return {
    /** Hidden profiles stay the owner's but leave every deck (the location index covers visible ones only). */
    async setVisible(userId: string, isVisible: boolean, now: Date): Promise<void> {
      if (!isUuid(userId)) return;
      await db.update(profiles).set({ visible: isVisible, updatedAt: now }).where(eq(profiles.userId, userId));
    },

    async findByUserId(userId: string): Promise<StoredProfile | undefined> {
      if (!isUuid(userId)) return undefined;
      const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
      return row && toStoredProfile(row);
    },

    /** The profile of a user, looked up by the user's id or by the profile's own id. */
    async findByIdOrUserId(id: string): Promise<StoredProfile | undefined> {
      if (!isUuid(id)) return undefined;
      const [row] = await db
        .select()
        .from(profiles)
        .where(or(eq(profiles.userId, id), eq(profiles.id, id)))
        .limit(1);
      return row && toStoredProfile(row);
    },

    async findManyByUserIds(userIds: readonly string[]): Promise<StoredProfile[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .select()
        .from(profiles)
        .where(inArray(profiles.userId, [...userIds]));
      return rows.map(toStoredProfile);
    },

    async stats(userId: string): Promise<ProfileStats> {
      const [row] = await db
        .select({
          streak: users.streak,
          matchesCount: sql<number>`(select count(*)::int from ${matches} where ${matches.userLow} = ${userId} or ${matches.userHigh} = ${userId})`,
        })
        .from(users)
        .where(eq(users.id, userId));
      return { streak: row?.streak ?? 0, matchesCount: Number(row?.matchesCount ?? 0) };
    },

    async userExists(userId: string): Promise<boolean> {
      if (!isUuid(userId)) return false;
      const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
      return Boolean(row);
    },

    async isBlockedEitherWay(a: string, b: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql`1` })
        .from(blocks)
        .where(
          or(
            and(eq(blocks.blockerId, a), eq(blocks.blockedId, b)),
            and(eq(blocks.blockerId, b), eq(blocks.blockedId, a)),
          ),
        )
        .limit(1);
      return Boolean(row);
    },

    async haveMatch(a: string, b: string): Promise<boolean> {
      const [low, high] = a < b ? [a, b] : [b, a];
      const [row] = await db
        .select({ id: matches.id })
        .from(matches)
        .where(and(eq(matches.userLow, low), eq(matches.userHigh, high)))
        .limit(1);
      return Boolean(row);
    },

    async create(userId: string, content: ProfileContent, now: Date): Promise<CreateProfileResult> {
      try {
        return await db.transaction(async (tx) => {
          const [created] = await tx
            .insert(profiles)
            .values({
              userId,
              ...contentOf(content),
              ...deckColumns(content),
              lastActiveAt: now,
              createdAt: now,
              updatedAt: now,
            })
            .onConflictDoNothing({ target: profiles.userId })
            .returning();
          if (!created) return { status: 'exists' as const };
          await markComplete(tx, userId, created.photos, now);
          return { status: 'created' as const, profile: toStoredProfile(created) };
        });
      } catch (error) {
        // 23503: the user was deleted meanwhile.
        if ((error as { cause?: { code?: string } }).cause?.code === '23503') return { status: 'no-user' };
        if (uniqueViolation(error)) return { status: 'exists' };
        throw error;
      }
    },

    /**
     * Reads the profile under a row lock, lets `mutate` compute its new content, and writes it
     * with its deck columns, all in one transaction: concurrent edits and uploads queue up
     * instead of overwriting each other (the 6-photo cap depends on it). Undefined when there is
     * no profile; an error thrown by `mutate` rolls everything back.
     */
    async modify<T>(
      userId: string,
      mutate: ProfileMutation<T>,
      now: Date,
    ): Promise<{ profile: StoredProfile; result: T } | undefined> {
      if (!isUuid(userId)) return undefined;
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(profiles).where(eq(profiles.userId, userId)).for('update');
        if (!row) return undefined;
        const { content, result } = mutate(toStoredProfile(row));
        const [updated] = await tx
          .update(profiles)
          .set({
            ...contentOf(content),
            ...deckColumns(content),
            ...(content.latitude !== row.latitude || content.longitude !== row.longitude
              ? { locationChangedAt: now }
              : {}),
            lastActiveAt: now,
            updatedAt: now,
          })
          .where(eq(profiles.id, row.id))
          .returning();
        if (!updated) throw new Error('profile update returned no row');
        if (updated.photos.length > 0 !== row.photos.length > 0) {
          await markComplete(tx, userId, updated.photos, now);
        }
        return { profile: toStoredProfile(updated), result };
      });
    },
  };
}
