import { LAST_NAME_MAX_LENGTH, NAME_MAX_LENGTH } from '#shared/auth/auth-constants';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { type AuthUser, LastNameSchema, NameSchema } from '#shared/auth/auth-schemas';
import { SERVER_MESSAGES } from '#shared/messages';
import * as v from 'valibot';
import { AppError, badRequest, conflict } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import {
  type AccountGate,
  AUTH_LIMITS,
  type SecondStep,
  type SessionService,
  type SignInOutcome,
  type SmsCodeService,
  toAuthUser,
  type UserRecord,
  type UserService,
} from '../auth/index.ts';
import { type GoogleIdentity, GoogleTokenError, type GoogleVerifier } from './google-verifier.ts';

export type GoogleAuthServiceDeps = {
  verifier: GoogleVerifier;
  users: UserService;
  sessions: SessionService;
  /** The account-state gate (docs/decisions/0043): asked before an existing account is linked. */
  gate: Pick<AccountGate, 'assertMaySignIn'>;
  /** With two-step on, a Google sign-in asks for the second step too (docs/decisions/0032). */
  secondStep: SecondStep;
  smsCodes: SmsCodeService;
  /** The auth feature's welcome hook for a new account (`auth.notifyRegistered`). */
  notifyRegistered(user: AuthUser): Promise<void>;
  limiter: RateLimiter;
  logger: Logger;
};

export type GoogleAuthService = ReturnType<typeof createGoogleAuthService>;

type SessionAnswer = { token: string; user: AuthUser; message: string };

/** Seconds a client should wait before retrying when Google's keys could not be fetched. */
const GOOGLE_RETRY_AFTER_S = 5;

/** Addresses Google hosts itself: for these (and Workspace accounts, `hd`) Google is authoritative. */
const GMAIL_ADDRESS = /@(gmail|googlemail)\.com$/i;

/**
 * Google sign-in and registration (spec 000 §4, §7; QUALITY 6; docs/decisions/0004). Every call
 * verifies the client's `credential` and reads who signed in only from its verified payload; the
 * googleId, e-mail and names the client sends beside it are never trusted.
 */
export function createGoogleAuthService(deps: GoogleAuthServiceDeps) {
  const { users, sessions, smsCodes, limiter, logger } = deps;

  /** Counts the attempt per IP, then verifies the credential: 401 if refused, 503 if Google is unreachable. */
  const verify = async (credential: string | undefined, ip: string): Promise<GoogleIdentity> => {
    await enforceRateLimits(limiter, [{ rule: AUTH_LIMITS.googlePerIp, key: ip }], SERVER_MESSAGES.tooManyRequests);
    try {
      return await deps.verifier.verify(credential);
    } catch (error) {
      if (!(error instanceof GoogleTokenError)) throw error;
      if (error.code === 'jwks_unavailable') {
        logger.error({ err: error }, 'google: signing keys unavailable');
        throw new AppError(503, AUTH_MESSAGES.googleUnavailable, 'GOOGLE_UNAVAILABLE', {
          'retry-after': String(GOOGLE_RETRY_AFTER_S),
        });
      }
      logger.info({ code: error.code }, 'google: credential refused');
      throw new AppError(401, AUTH_MESSAGES.googleCredentialInvalid, 'INVALID_GOOGLE_CREDENTIAL');
    }
  };

  /** 409 when the Google account, or its e-mail, already belongs to an Entreno account. */
  const assertNoAccount = async (identity: GoogleIdentity) => {
    if (await users.findByGoogleSub(identity.sub)) {
      throw conflict(AUTH_MESSAGES.googleAccountExists, 'GOOGLE_ACCOUNT_TAKEN');
    }
    if (await users.findByEmail(identity.email)) throw conflict(AUTH_MESSAGES.googleAccountExists, 'EMAIL_TAKEN');
  };

  /**
   * A new account's first session (Google's 30 days: the client keeps the token in local storage,
   * spec 000 §4); two-step cannot be on yet, and the gate would refuse it if it were.
   */
  const openSession = async (user: UserRecord, message: string): Promise<SessionAnswer> => ({
    ...(await sessions.issueSession(user.id, { rememberMe: true, secondFactor: 'none' })),
    message,
  });

  /**
   * An account registered with this e-mail and a password, never with Google. Linked only when
   * Google is authoritative for the address; see docs/decisions/0004 "Existing e-mail".
   */
  /** An existing account signing in: through the second step when it is on. */
  const signInExisting = (user: UserRecord, message: string, deviceToken: string | undefined) =>
    deps.secondStep.finishFirstStep(user.id, { rememberMe: true, deviceToken, message });

  const linkExistingAccount = async (account: UserRecord, identity: GoogleIdentity): Promise<SignInOutcome> => {
    if (account.googleSub !== null) {
      // The e-mail's account is linked to another Google account (e.g. an address moved between accounts).
      throw conflict(AUTH_MESSAGES.googleAccountTaken, 'GOOGLE_ACCOUNT_TAKEN');
    }
    if (!isGoogleAuthoritative(identity)) {
      throw conflict(AUTH_MESSAGES.googleEmailHasPasswordAccount, 'EMAIL_TAKEN');
    }
    // A suspended or banned account is refused before the link drops its password and sessions.
    await deps.gate.assertMaySignIn(account.id);
    const linked = await users.linkGoogleAccount(account.id, identity.sub);
    // The e-mail wizard never proved the address: whoever chose the password may not own it. Google
    // just proved who does, so every earlier session ends and the password was dropped.
    await sessions.revokeAllSessions(linked.id, 'revoked');
    await deps.secondStep.forgetDevices(linked.id);
    logger.info({ userId: linked.id }, 'google: linked to an existing account');
    return signInExisting(linked, AUTH_MESSAGES.googleLinked, undefined);
  };

  return {
    /**
     * POST /auth/google: the account of the verified Google subject, a link by e-mail where that is
     * safe, or 404 'Usuario no encontrado' so the client goes on to /register/google.
     */
    async signIn(input: { credential?: string | undefined }, ip: string, deviceToken?: string): Promise<SignInOutcome> {
      const identity = await verify(input.credential, ip);
      const bySub = await users.findByGoogleSub(identity.sub);
      if (bySub) return signInExisting(bySub, AUTH_MESSAGES.loginSucceeded, deviceToken);
      const byEmail = await users.findByEmail(identity.email);
      if (byEmail) return linkExistingAccount(byEmail, identity);
      throw new AppError(404, AUTH_MESSAGES.userNotFound, 'USER_NOT_FOUND');
    },

    /**
     * POST /auth/google/send-code: 409 when the Google account already has an Entreno account,
     * otherwise exactly /auth/send-code's rules and errorTypes, for the 'google-register' purpose.
     * Whether the number belongs to an account is told only after its code is verified.
     */
    async sendCode(input: { credential?: string | undefined; phone: string }, ip: string): Promise<void> {
      const identity = await verify(input.credential, ip);
      await assertNoAccount(identity);
      await smsCodes.sendCode({ phone: input.phone, purpose: 'google-register', ip });
    },

    /**
     * POST /auth/google/verify-code: checks the code, then creates the account from the verified
     * payload (Google subject, e-mail, names) and the verified phone, with no password.
     */
    async register(
      input: {
        credential?: string | undefined;
        phone: string;
        code: string;
        firstName?: string | null | undefined;
        lastName?: string | null | undefined;
      },
      ip: string,
    ): Promise<SessionAnswer> {
      const identity = await verify(input.credential, ip);
      await assertNoAccount(identity);
      const names = namesFor(identity, input);
      const { phone } = await smsCodes.verifyCode({
        phone: input.phone,
        code: input.code,
        purpose: 'google-register',
        ip,
      });
      // Told only now that the code proved the number is the caller's (QUALITY 2).
      if (await users.findByPhone(phone)) throw conflict(AUTH_MESSAGES.phoneTaken, 'PHONE_TAKEN');
      const record = await users.createUser({
        ...names,
        email: identity.email,
        phone,
        password: null,
        googleSub: identity.sub,
      });
      await smsCodes.consumeVerification(phone, 'google-register');
      await deps.notifyRegistered(toAuthUser(record));
      return openSession(record, AUTH_MESSAGES.googleRegistered);
    },
  };
}

/** Google hosts the address (gmail.com) or the account is a Workspace one (`hd`): the owner is proven. */
export function isGoogleAuthoritative(identity: Pick<GoogleIdentity, 'email' | 'hostedDomain'>): boolean {
  return identity.hostedDomain !== undefined || GMAIL_ADDRESS.test(identity.email);
}

/**
 * The new account's names: the verified payload's (cut to the spec's 20 and 30 characters), or,
 * only when it has none, the client's, checked by the spec's name rules.
 */
export function namesFor(
  identity: Pick<GoogleIdentity, 'givenName' | 'familyName' | 'name'>,
  client: { firstName?: string | null | undefined; lastName?: string | null | undefined },
): { name: string; lastName: string } {
  const first = clean(identity.givenName) ?? clean(identity.name);
  if (first) {
    return {
      name: cut(first, NAME_MAX_LENGTH),
      lastName: cut(clean(identity.familyName) ?? '', LAST_NAME_MAX_LENGTH),
    };
  }
  if (!clean(client.firstName)) throw badRequest(AUTH_MESSAGES.googleDataMissing, 'GOOGLE_DATA_MISSING');
  const name = v.safeParse(NameSchema, client.firstName);
  if (!name.success) throw badRequest(name.issues[0].message, 'VALIDATION');
  const lastName = v.safeParse(LastNameSchema, client.lastName ?? undefined);
  if (!lastName.success) throw badRequest(lastName.issues[0].message, 'VALIDATION');
  return { name: name.output, lastName: lastName.output };
}

const clean = (value: string | null | undefined): string | undefined => value?.trim() || undefined;

/** At most `max` characters (code points, so no emoji is split in half). */
const cut = (value: string, max: number): string => Array.from(value).slice(0, max).join('').trim();
