import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { uniqueViolation } from '../../db/errors.ts';
import { isDeletedAccount, type UserRow, users } from '../../db/schema/index.ts';

export type UserRecord = UserRow;

/** Whether a user row is a deleted account's tombstone (docs/decisions/0012, 0043). */
export { isDeletedAccount };

export type NewUser = {
  email: string;
  phone: string | null;
  name: string;
  lastName: string;
  passwordHash: string | null;
  googleSub: string | null;
  createdAt: Date;
};

export type CreateUserResult =
  | { status: 'created'; user: UserRecord }
  | { status: 'duplicate'; field: 'email' | 'phone' | 'googleSub' };

const FIELD_BY_CONSTRAINT: Record<string, 'email' | 'phone' | 'googleSub'> = {
  users_email_key: 'email',
  users_phone_key: 'phone',
  users_google_sub_key: 'googleSub',
};

export type UserRepository = ReturnType<typeof createUserRepository>;

export function createUserRepository(db: Database) {
  const first = (rows: UserRecord[]) => rows[0];
  return {
    async findById(id: string): Promise<UserRecord | undefined> {
      return first(await db.select().from(users).where(eq(users.id, id)).limit(1));
    },
    /** Case-insensitive, like the unique index. */
    async findByEmail(email: string): Promise<UserRecord | undefined> {
      return first(await db.select().from(users).where(sql`lower(${users.email}) = ${email.toLowerCase()}`).limit(1));
    },
    async findByPhone(phone: string): Promise<UserRecord | undefined> {
      return first(await db.select().from(users).where(eq(users.phone, phone)).limit(1));
    },
    async findByGoogleSub(googleSub: string): Promise<UserRecord | undefined> {
      return first(await db.select().from(users).where(eq(users.googleSub, googleSub)).limit(1));
    },
    /** Inserts, or reports which unique field another account already holds (races included). */
    async create(user: NewUser): Promise<CreateUserResult> {
      try {
        const [created] = await db
          .insert(users)
          .values({ ...user, email: user.email.toLowerCase(), updatedAt: user.createdAt })
          .returning();
        if (!created) throw new Error('users insert returned no row');
        return { status: 'created', user: created };
      } catch (error) {
        const constraint = uniqueViolation(error);
        const field = constraint === undefined ? undefined : FIELD_BY_CONSTRAINT[constraint];
        if (field) return { status: 'duplicate', field };
        throw error;
      }
    },
    /**
     * Links a Google account to an account that has none, dropping its password (docs/decisions/0004):
     * 'linked', 'taken' when another account holds the subject, 'unchanged' when the account is
     * gone or was linked meanwhile.
     */
    async linkGoogleSub(
      id: string,
      googleSub: string,
      now: Date,
    ): Promise<{ status: 'linked'; user: UserRecord } | { status: 'taken' | 'unchanged' }> {
      try {
        const [linked] = await db
          .update(users)
          .set({ googleSub, passwordHash: null, updatedAt: now })
          .where(sql`${users.id} = ${id} and ${users.googleSub} is null`)
          .returning();
        return linked ? { status: 'linked', user: linked } : { status: 'unchanged' };
      } catch (error) {
        if (uniqueViolation(error) === 'users_google_sub_key') return { status: 'taken' };
        throw error;
      }
    },
    async setPasswordHash(id: string, passwordHash: string, now: Date): Promise<void> {
      await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
    },
    /** Replaces the hash only if it is still the one that was verified (a concurrent reset wins). */
    async upgradePasswordHash(id: string, previousHash: string, passwordHash: string, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, updatedAt: now })
        .where(sql`${users.id} = ${id} and ${users.passwordHash} = ${previousHash}`);
    },
    async setLastLocation(id: string, location: { latitude: number; longitude: number }, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ lastLatitude: location.latitude, lastLongitude: location.longitude, lastLocationAt: now })
        .where(eq(users.id, id));
    },
    async setStreak(id: string, streak: { streak: number; lastLoginDate: string }, now: Date): Promise<void> {
      await db
        .update(users)
        .set({ streak: streak.streak, lastLoginDate: streak.lastLoginDate, updatedAt: now })
        .where(eq(users.id, id));
    },
  };
}
