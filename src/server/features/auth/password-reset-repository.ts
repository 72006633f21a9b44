import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type PasswordResetTokenRow, passwordResetTokens } from '../../db/schema/index.ts';

export type PasswordResetRecord = PasswordResetTokenRow;

export type PasswordResetRepository = ReturnType<typeof createPasswordResetRepository>;

export function createPasswordResetRepository(db: Database) {
  return {
    /**
     * Stores a new link beside the user's earlier ones: a request anyone can make must not cancel
     * the owner's link. Using any link ends the others (`deleteUnusedForUser`).
     */
    async add(link: { userId: string; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
      await db.insert(passwordResetTokens).values(link);
    },
    async findByHash(tokenHash: string): Promise<PasswordResetRecord | undefined> {
      const [row] = await db
        .select()
        .from(passwordResetTokens)
        .where(eq(passwordResetTokens.tokenHash, tokenHash))
        .limit(1);
      return row;
    },
    /** Uses the link up; false when another request already did (single use). */
    async markUsed(id: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.id, id), isNull(passwordResetTokens.usedAt)))
        .returning({ id: passwordResetTokens.id });
      return rows.length > 0;
    },
    async deleteUnusedForUser(userId: string): Promise<void> {
      await db
        .delete(passwordResetTokens)
        .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
    },
  };
}
