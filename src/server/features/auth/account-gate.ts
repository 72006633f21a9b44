import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { SECURITY_MESSAGES } from '#shared/security/security-messages';
import { AppError } from '../../errors.ts';
import { isDeletedAccount, type UserRecord, type UserRepository } from './user-repository.ts';

/**
 * What proved the person beyond the first factor when a session opens: nothing (a password or a
 * Google credential alone), a second-step code, a passkey (user-verified: two factors in one), or
 * a device remembered after an earlier second step.
 */
export type SecondFactor = 'none' | 'code' | 'passkey' | 'remembered-device';

export type AccountGateDeps = {
  users: Pick<UserRepository, 'findById'>;
  /** Whether the account has two-step verification on (docs/decisions/0032). */
  isSecondStepOn(userId: string): Promise<boolean>;
  /** Throws 403 ACCOUNT_RESTRICTED (with the appeal token) while a suspension or ban is live (0033). */
  assertNotRestricted(userId: string): Promise<void>;
  /** The same question without the answer's details, for a session that asks again. */
  isRestricted(userId: string): Promise<boolean>;
};

export type AccountGate = ReturnType<typeof createAccountGate>;

/**
 * The one question every way in asks (docs/decisions/0043; QUALITY 35): the account exists, is
 * not deleted, is not suspended or banned, and — for a new session — has passed the second step
 * when it is on. Password, phone and password, Google, the SMS code, the passkey and the second
 * step ask it before a session (or a pending second step) exists; a token's renewal and a
 * socket's handshake ask it again of a live session.
 */
export function createAccountGate(deps: AccountGateDeps) {
  const existing = async (userId: string): Promise<UserRecord> => {
    const user = await deps.users.findById(userId);
    if (!user || isDeletedAccount(user)) throw new AppError(401, AUTH_MESSAGES.accountDeleted, 'ACCOUNT_DELETED');
    return user;
  };

  return {
    /**
     * After a right first step, before anything else is handed out (a session, or the second
     * step's pending token): the account exists, is not deleted, suspended nor banned.
     */
    async assertMaySignIn(userId: string): Promise<UserRecord> {
      const user = await existing(userId);
      await deps.assertNotRestricted(userId);
      return user;
    },

    /** Before a session opens: `assertMaySignIn`, and the second step passed when it is on. */
    async admit(userId: string, secondFactor: SecondFactor): Promise<UserRecord> {
      const user = await this.assertMaySignIn(userId);
      if (secondFactor === 'none' && (await deps.isSecondStepOn(userId))) {
        throw new AppError(401, SECURITY_MESSAGES.secondStepRequired, 'SECOND_STEP_REQUIRED');
      }
      return user;
    },

    /** A live session asking again (a token's renewal, a socket's handshake): may it go on? */
    async isOpen(userId: string): Promise<boolean> {
      const [user, isRestricted] = await Promise.all([deps.users.findById(userId), deps.isRestricted(userId)]);
      return user !== undefined && !isDeletedAccount(user) && !isRestricted;
    },
  };
}
