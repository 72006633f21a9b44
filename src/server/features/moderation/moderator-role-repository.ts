import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { moderatorRoles, users } from '../../db/schema/index.ts';

export type ModeratorRole = 'moderator' | 'admin';
export type ModeratorRecord = { userId: string; email: string; name: string; role: ModeratorRole; grantedAt: Date };

export type ModeratorRoleRepository = ReturnType<typeof createModeratorRoleRepository>;

const roleOf = (value: string): ModeratorRole => (value === 'admin' ? 'admin' : 'moderator');

/** The `moderator_roles` table: read by the console's guard, written only by the operator command. */
export function createModeratorRoleRepository(db: Database) {
  const withUser = () =>
    db
      .select({
        userId: moderatorRoles.userId,
        email: users.email,
        name: users.name,
        role: moderatorRoles.role,
        grantedAt: moderatorRoles.grantedAt,
      })
      .from(moderatorRoles)
      .innerJoin(users, eq(users.id, moderatorRoles.userId));
  return {
    /** The user's role, or undefined: one primary-key read per console request (no cache, so a removal is immediate). */
    async find(userId: string): Promise<ModeratorRecord | undefined> {
      const [row] = await withUser().where(eq(moderatorRoles.userId, userId)).limit(1);
      return row && { ...row, role: roleOf(row.role) };
    },
    async list(): Promise<ModeratorRecord[]> {
      const rows = await withUser().orderBy(asc(users.email));
      return rows.map((row) => ({ ...row, role: roleOf(row.role) }));
    },
    /** Grants (or changes) the role of the account with this e-mail; undefined when there is none. */
    async grant(email: string, role: ModeratorRole, now: Date): Promise<ModeratorRecord | undefined> {
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
        .limit(1);
      if (!user) return undefined;
      await db
        .insert(moderatorRoles)
        .values({ userId: user.id, role, grantedAt: now })
        .onConflictDoUpdate({ target: moderatorRoles.userId, set: { role, grantedAt: now } });
      return this.find(user.id);
    },
    /** Removes the role of the account with this e-mail; false when it had none. */
    async revoke(email: string): Promise<boolean> {
      const removed = await db
        .delete(moderatorRoles)
        .where(
          sql`${moderatorRoles.userId} in (select ${users.id} from ${users} where lower(${users.email}) = ${email.toLowerCase()})`,
        )
        .returning({ userId: moderatorRoles.userId });
      return removed.length > 0;
    },
  };
}
