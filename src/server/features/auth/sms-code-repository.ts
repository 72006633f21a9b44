import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  phoneVerifications,
  type SmsCodeRow,
  type SmsSendLimitRow,
  smsCodes,
  smsSendLimits,
} from '../../db/schema/index.ts';

export type SmsPurpose = 'register' | 'google-register' | 'second-step';

export type SmsSendLimitState = Pick<
  SmsSendLimitRow,
  'windowStartedAt' | 'sendsInWindow' | 'lastSentAt' | 'lockedUntil'
>;

export type SmsCodeRecord = SmsCodeRow;

/** What the service decided about one send, given the number's history. */
export type SendPlan<TResult> = {
  /** The number's history after this request (a refusal may also change it: the lock). */
  nextState: SmsSendLimitState | undefined;
  /** The new code to store, replacing any previous one; absent when the send is refused. */
  code: { purpose: SmsPurpose; codeHash: string; createdAt: Date; expiresAt: Date } | undefined;
  result: TResult;
};

export type SmsCodeRepository = ReturnType<typeof createSmsCodeRepository>;

export function createSmsCodeRepository(db: Database) {
  return {
    /**
     * Runs the service's decision under a row lock on the number, so two nodes answering two
     * requests for one number at once cannot both pass the cooldown or the send limit.
     */
    async planSend<TResult>(
      phone: string,
      decide: (state: SmsSendLimitState | undefined) => SendPlan<TResult>,
    ): Promise<TResult> {
      return db.transaction(async (tx) => {
        await tx
          .insert(smsSendLimits)
          .values({ phone, windowStartedAt: new Date(0), sendsInWindow: 0 })
          .onConflictDoNothing();
        const [row] = await tx.select().from(smsSendLimits).where(eq(smsSendLimits.phone, phone)).for('update');
        const plan = decide(row);
        if (plan.nextState) {
          await tx.update(smsSendLimits).set(plan.nextState).where(eq(smsSendLimits.phone, phone));
        }
        if (plan.code) {
          const values = { phone, ...plan.code, attempts: 0, consumedAt: null };
          await tx
            .insert(smsCodes)
            .values(values)
            .onConflictDoUpdate({ target: [smsCodes.phone, smsCodes.purpose], set: values });
        }
        return plan.result;
      });
    },

    async findCode(phone: string, purpose: SmsPurpose): Promise<SmsCodeRecord | undefined> {
      const [row] = await db
        .select()
        .from(smsCodes)
        .where(and(eq(smsCodes.phone, phone), eq(smsCodes.purpose, purpose)))
        .limit(1);
      return row;
    },

    /**
     * Counts one guess against the live code before it is compared, so parallel guesses cannot
     * exceed the cap. Returns the code after counting, or undefined when none is live or the cap
     * was already reached.
     */
    async takeGuess(phone: string, purpose: SmsPurpose, maxGuesses: number, now: Date) {
      const [row] = await db
        .update(smsCodes)
        .set({ attempts: sql`${smsCodes.attempts} + 1` })
        .where(
          and(
            eq(smsCodes.phone, phone),
            eq(smsCodes.purpose, purpose),
            isNull(smsCodes.consumedAt),
            gt(smsCodes.expiresAt, now),
            lt(smsCodes.attempts, maxGuesses),
          ),
        )
        .returning();
      return row;
    },

    /** Uses the code up and records the verified number, at most once per code. */
    async consumeCode(
      phone: string,
      purpose: SmsPurpose,
      codeHash: string,
      verification: { verifiedAt: Date; expiresAt: Date },
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const consumed = await tx
          .update(smsCodes)
          .set({ consumedAt: verification.verifiedAt })
          .where(
            and(
              eq(smsCodes.phone, phone),
              eq(smsCodes.purpose, purpose),
              eq(smsCodes.codeHash, codeHash),
              isNull(smsCodes.consumedAt),
            ),
          )
          .returning({ phone: smsCodes.phone });
        if (consumed.length === 0) return false;
        const values = { phone, purpose, ...verification };
        await tx
          .insert(phoneVerifications)
          .values(values)
          .onConflictDoUpdate({ target: [phoneVerifications.phone, phoneVerifications.purpose], set: verification });
        return true;
      });
    },

    async isVerified(phone: string, purpose: SmsPurpose, now: Date): Promise<boolean> {
      const rows = await db
        .select({ phone: phoneVerifications.phone })
        .from(phoneVerifications)
        .where(
          and(
            eq(phoneVerifications.phone, phone),
            eq(phoneVerifications.purpose, purpose),
            gt(phoneVerifications.expiresAt, now),
          ),
        )
        .limit(1);
      return rows.length > 0;
    },

    /** Uses a verification up; true when a live one was there. */
    async consumeVerification(phone: string, purpose: SmsPurpose, now: Date): Promise<boolean> {
      const rows = await db
        .delete(phoneVerifications)
        .where(
          and(
            eq(phoneVerifications.phone, phone),
            eq(phoneVerifications.purpose, purpose),
            gt(phoneVerifications.expiresAt, now),
          ),
        )
        .returning({ phone: phoneVerifications.phone });
      return rows.length > 0;
    },
  };
}
