import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { passwordProblems } from '#shared/auth/password';
import type { Clock } from '../../infra/clock.ts';
import { badRequest, conflict } from '../../errors.ts';
import { isCommonPassword } from './common-passwords.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { UserRecord, UserRepository } from './user-repository.ts';

export type NewAccount = {
  name: string;
  lastName: string;
  email: string;
  /** E.164, already verified by an SMS code. */
  phone: string | null;
  /** Null for an account that signs in with Google only. */
  password: string | null;
  googleSub?: string | null;
};

export type UserServiceDeps = { users: UserRepository; hasher: PasswordHasher; clock: Clock };

export type UserService = ReturnType<typeof createUserService>;

/** Accounts: lookups and creation, shared by e-mail registration and the Google flow. */
export function createUserService(deps: UserServiceDeps) {
  const { users } = deps;

  /** The spec's rules (000 §5) plus the blocklist (QUALITY 1); throws a Spanish 400. */
  const assertAcceptablePassword = (password: string) => {
    const [problem] = passwordProblems(password);
    if (problem) throw badRequest(problem.message, 'VALIDATION');
    if (isCommonPassword(password)) throw badRequest(AUTH_MESSAGES.passwordCommon, 'PASSWORD_TOO_COMMON');
  };

  return {
    assertAcceptablePassword,
    findById: (id: string): Promise<UserRecord | undefined> => users.findById(id),
    /** Case-insensitive. */
    findByEmail: (email: string): Promise<UserRecord | undefined> => users.findByEmail(email),
    findByPhone: (phone: string): Promise<UserRecord | undefined> => users.findByPhone(phone),
    findByGoogleSub: (googleSub: string): Promise<UserRecord | undefined> => users.findByGoogleSub(googleSub),

    /**
     * Gives an account without one a Google subject and drops its password (docs/decisions/0004).
     * 409 when another account already holds the subject or this one got another meanwhile.
     */
    async linkGoogleAccount(userId: string, googleSub: string): Promise<UserRecord> {
      const result = await users.linkGoogleSub(userId, googleSub, deps.clock.now());
      if (result.status === 'linked') return result.user;
      throw conflict(AUTH_MESSAGES.googleAccountTaken, 'GOOGLE_ACCOUNT_TAKEN');
    },

    /**
     * Creates an account. E-mail or phone held by another account: 409 with the message the
     * client shows as is (spec 000 §8, "Registration").
     */
    async createUser(account: NewAccount): Promise<UserRecord> {
      if (account.password !== null) assertAcceptablePassword(account.password);
      if (await users.findByEmail(account.email)) throw conflict(AUTH_MESSAGES.emailTaken, 'EMAIL_TAKEN');
      if (account.phone && (await users.findByPhone(account.phone))) {
        throw conflict(AUTH_MESSAGES.phoneTaken, 'PHONE_TAKEN');
      }
      const passwordHash = account.password === null ? null : await deps.hasher.hash(account.password);
      const result = await users.create({
        email: account.email.toLowerCase(),
        phone: account.phone,
        name: account.name,
        lastName: account.lastName,
        passwordHash,
        googleSub: account.googleSub ?? null,
        createdAt: deps.clock.now(),
      });
      if (result.status === 'created') return result.user;
      // Lost a race with another registration between the checks and the insert.
      if (result.field === 'email') throw conflict(AUTH_MESSAGES.emailTaken, 'EMAIL_TAKEN');
      if (result.field === 'phone') throw conflict(AUTH_MESSAGES.phoneTaken, 'PHONE_TAKEN');
      throw conflict(AUTH_MESSAGES.emailTaken, 'GOOGLE_ACCOUNT_TAKEN');
    },
  };
}
