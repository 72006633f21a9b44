import { and, asc, count, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  type PasskeyRow,
  passkeys,
  recoveryCodes,
  spentSecondStepTokens,
  type TwoFactorRow,
  trustedDevices,
  twoFactor,
  webauthnChallenges,
} from '../../db/schema/index.ts';

export type { PasskeyRow, TwoFactorRow };
export type SecurityRepository = ReturnType<typeof createSecurityRepository>;
export type ChallengePurpose = 'register' | 'authenticate';

/** Two-step state, recovery codes, remembered devices, passkeys and WebAuthn challenges. */
export function createSecurityRepository(db: Database) {
  return {
    async findTwoFactor(userId: string): Promise<TwoFactorRow | undefined> {
      const [row] = await db.select().from(twoFactor).where(eq(twoFactor.userId, userId)).limit(1);
      return row;
    },
    /** Keeps the secret being set up (replacing an earlier unfinished one); an enabled one stays. */
    async savePendingSecret(userId: string, sealed: string, now: Date): Promise<void> {
      await db
        .insert(twoFactor)
        .values({ userId, pendingSecret: sealed, pendingCreatedAt: now, updatedAt: now })
        .onConflictDoUpdate({
          target: twoFactor.userId,
          set: { pendingSecret: sealed, pendingCreatedAt: now, updatedAt: now },
        });
    },
    /**
     * Turns two-step on with the pending secret and replaces the recovery codes, in one
     * transaction; false when it was enabled meanwhile or the pending secret changed.
     */
    async enable(
      userId: string,
      input: { pendingSecret: string; step: number; codeHashes: string[]; now: Date },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(twoFactor)
          .set({
            totpSecret: input.pendingSecret,
            pendingSecret: null,
            pendingCreatedAt: null,
            enabledAt: input.now,
            lastUsedStep: input.step,
            updatedAt: input.now,
          })
          .where(
            and(
              eq(twoFactor.userId, userId),
              isNull(twoFactor.enabledAt),
              eq(twoFactor.pendingSecret, input.pendingSecret),
            ),
          )
          .returning({ userId: twoFactor.userId });
        if (rows.length === 0) return false;
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx
          .insert(recoveryCodes)
          .values(input.codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: input.now })));
        return true;
      });
    },
    /** Turns two-step off: the secret, the recovery codes and every remembered device go. */
    async disable(userId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.delete(trustedDevices).where(eq(trustedDevices.userId, userId));
      });
    },
    /** Records the step of a code just accepted; false when that step (or a later one) was used already. */
    async claimTotpStep(userId: string, step: number, now: Date): Promise<boolean> {
      const rows = await db
        .update(twoFactor)
        .set({ lastUsedStep: step, updatedAt: now })
        .where(and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastUsedStep), lt(twoFactor.lastUsedStep, step))))
        .returning({ userId: twoFactor.userId });
      return rows.length > 0;
    },

    async replaceRecoveryCodes(userId: string, codeHashes: string[], now: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
      });
    },
    /** Uses a recovery code up; false when it is unknown or was used before. */
    async spendRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, codeHash), isNull(recoveryCodes.usedAt)),
        )
        .returning({ id: recoveryCodes.id });
      return rows.length > 0;
    },
    async countUnusedRecoveryCodes(userId: string): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return row?.total ?? 0;
    },

    async addTrustedDevice(input: { userId: string; tokenHash: string; now: Date; expiresAt: Date }): Promise<void> {
      await db
        .insert(trustedDevices)
        .values({ userId: input.userId, tokenHash: input.tokenHash, createdAt: input.now, expiresAt: input.expiresAt });
    },
    /** True when the token hash is a live remembered device of the user; records its use. */
    async matchTrustedDevice(userId: string, tokenHash: string, now: Date): Promise<boolean> {
      const rows = await db
        .update(trustedDevices)
        .set({ lastUsedAt: now })
        .where(
          and(
            eq(trustedDevices.userId, userId),
            eq(trustedDevices.tokenHash, tokenHash),
            gt(trustedDevices.expiresAt, now),
          ),
        )
        .returning({ id: trustedDevices.id });
      return rows.length > 0;
    },
    /**
     * Records that a pending second-step token opened its session; false when it already had
     * (docs/decisions/0043). Expired records are swept on the way.
     */
    async spendPendingToken(jti: string, expiresAt: Date, now: Date): Promise<boolean> {
      await db.delete(spentSecondStepTokens).where(lt(spentSecondStepTokens.expiresAt, now));
      const rows = await db
        .insert(spentSecondStepTokens)
        .values({ jti, expiresAt })
        .onConflictDoNothing()
        .returning({ jti: spentSecondStepTokens.jti });
      return rows.length > 0;
    },

    /** Forgets every remembered device of the user (password reset, two-step turned off). */
    async forgetTrustedDevices(userId: string): Promise<void> {
      await db.delete(trustedDevices).where(eq(trustedDevices.userId, userId));
    },

    async listPasskeys(userId: string): Promise<PasskeyRow[]> {
      return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
    },
    async countPasskeys(userId: string): Promise<number> {
      const [row] = await db.select({ total: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      return row?.total ?? 0;
    },
    async findPasskey(id: string): Promise<PasskeyRow | undefined> {
      const [row] = await db.select().from(passkeys).where(eq(passkeys.id, id)).limit(1);
      return row;
    },
    /** Stores a new credential; false when that credential id is already registered. */
    async addPasskey(row: typeof passkeys.$inferInsert): Promise<boolean> {
      const rows = await db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id });
      return rows.length > 0;
    },
    async recordPasskeyUse(id: string, counter: number, now: Date): Promise<void> {
      await db.update(passkeys).set({ counter, lastUsedAt: now }).where(eq(passkeys.id, id));
    },
    async removePasskey(userId: string, id: string): Promise<boolean> {
      const rows = await db
        .delete(passkeys)
        .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
        .returning({ id: passkeys.id });
      return rows.length > 0;
    },

    async createChallenge(input: {
      userId: string | null;
      purpose: ChallengePurpose;
      challenge: string;
      now: Date;
      expiresAt: Date;
    }): Promise<string> {
      // Old challenges are swept on the way: nothing else ever reads them.
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, input.now));
      const [row] = await db
        .insert(webauthnChallenges)
        .values({
          userId: input.userId,
          purpose: input.purpose,
          challenge: input.challenge,
          expiresAt: input.expiresAt,
        })
        .returning({ id: webauthnChallenges.id });
      if (!row) throw new Error('webauthn_challenges insert returned no row');
      return row.id;
    },
    /** Takes a live challenge out (once: a second take finds nothing). */
    async takeChallenge(
      id: string,
      purpose: ChallengePurpose,
      now: Date,
    ): Promise<{ userId: string | null; challenge: string } | undefined> {
      const [row] = await db
        .delete(webauthnChallenges)
        .where(and(eq(webauthnChallenges.id, id), eq(webauthnChallenges.purpose, purpose)))
        .returning();
      if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
      return { userId: row.userId, challenge: row.challenge };
    },
  };
}
