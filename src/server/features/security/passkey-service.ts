import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { SERVER_MESSAGES } from '#shared/messages';
import { PASSKEYS_PER_USER_MAX, type PasskeySummary } from '#shared/security/security-schemas';
import { SECURITY_MESSAGES } from '#shared/security/security-messages';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import { SECOND_STEP_LIMITS, type UserRepository } from '../auth/index.ts';
import type { PasskeyRow, SecurityRepository } from './security-repository.ts';

/** How long a ceremony's challenge waits for the authenticator (the browser's own timeout is 5 minutes). */
const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'Entreno';

export type PasskeyServiceDeps = {
  security: SecurityRepository;
  users: UserRepository;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** PUBLIC_ORIGIN: the expected origin, and its host name is the relying party id. */
  publicOrigin: string;
};

export type PasskeyService = ReturnType<typeof createPasskeyService>;

export const toPasskeySummary = (row: PasskeyRow): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const rejected = () => badRequest(SECURITY_MESSAGES.passkeyRejected, 'PASSKEY_REJECTED');

/**
 * Passkeys (WebAuthn, docs/decisions/0032): registration from Seguridad and sign-in without a
 * password. User verification is required, so a passkey is two factors in one and a passkey
 * sign-in skips the second step. Challenges live in the database, used once, for 5 minutes.
 */
export function createPasskeyService(deps: PasskeyServiceDeps) {
  const { security, clock } = deps;
  const origin = deps.publicOrigin;
  const rpID = new URL(origin).hostname;

  const newChallenge = (userId: string | null, purpose: 'register' | 'authenticate', challenge: string) => {
    const now = clock.now();
    return security.createChallenge({
      userId,
      purpose,
      challenge,
      now,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    });
  };

  const perIp = (ip: string) =>
    enforceRateLimits(
      deps.limiter,
      [{ rule: SECOND_STEP_LIMITS.passkeyPerIp, key: ip }],
      SERVER_MESSAGES.tooManyRequests,
    );

  return {
    async list(userId: string): Promise<PasskeySummary[]> {
      return (await security.listPasskeys(userId)).map(toPasskeySummary);
    },

    /** Options for navigator.credentials.create, the user's own passkeys excluded. */
    async registrationOptions(userId: string, ip: string) {
      await perIp(ip);
      const user = await deps.users.findById(userId);
      if (!user) throw new AppError(401, SERVER_MESSAGES.invalidToken);
      const existing = await security.listPasskeys(userId);
      if (existing.length >= PASSKEYS_PER_USER_MAX) throw conflict(SECURITY_MESSAGES.passkeyLimit, 'PASSKEY_LIMIT');
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: user.email,
        userDisplayName: `${user.name} ${user.lastName}`.trim(),
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.id,
          transports: row.transports as AuthenticatorTransport[],
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      const challengeId = await newChallenge(userId, 'register', options.challenge);
      return { challengeId, options: { ...options } };
    },

    /** Checks the authenticator's answer and stores the new passkey under the given name. */
    async register(
      userId: string,
      input: { challengeId: string; name: string; response: unknown },
      ip: string,
    ): Promise<PasskeySummary> {
      await perIp(ip);
      const now = clock.now();
      const challenge = await security.takeChallenge(input.challengeId, 'register', now);
      if (!challenge || challenge.userId !== userId) {
        throw badRequest(SECURITY_MESSAGES.passkeyChallengeExpired, 'CHALLENGE_EXPIRED');
      }
      if ((await security.countPasskeys(userId)) >= PASSKEYS_PER_USER_MAX) {
        throw conflict(SECURITY_MESSAGES.passkeyLimit, 'PASSKEY_LIMIT');
      }
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verification = await verifyRegistrationResponse({
          response: input.response as RegistrationResponseJSON,
          expectedChallenge: challenge.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch (error) {
        deps.logger.info({ err: error }, 'passkeys: a registration was refused');
        throw rejected();
      }
      if (!verification.verified) throw rejected();
      const info = verification.registrationInfo;
      const row = {
        id: info.credential.id,
        userId,
        name: input.name,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        deviceType: info.credentialDeviceType,
        isBackedUp: info.credentialBackedUp,
        createdAt: now,
        lastUsedAt: null,
      };
      if (!(await security.addPasskey(row))) throw conflict(SECURITY_MESSAGES.passkeyRejected, 'PASSKEY_EXISTS');
      return toPasskeySummary(row);
    },

    async remove(userId: string, passkeyId: string): Promise<void> {
      if (!(await security.removePasskey(userId, passkeyId))) throw notFound(SECURITY_MESSAGES.passkeyNotFound);
    },

    /** Options for navigator.credentials.get: any passkey of this site (discoverable), with the user verified. */
    async authenticationOptions(ip: string) {
      await perIp(ip);
      const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', allowCredentials: [] });
      const challengeId = await newChallenge(null, 'authenticate', options.challenge);
      return { challengeId, options: { ...options } };
    },

    /** The user a passkey answer proves, after checking it against the stored public key. */
    async authenticate(input: { challengeId: string; response: unknown }, ip: string): Promise<string> {
      await perIp(ip);
      const now = clock.now();
      const challenge = await security.takeChallenge(input.challengeId, 'authenticate', now);
      if (!challenge) throw badRequest(SECURITY_MESSAGES.passkeyChallengeExpired, 'CHALLENGE_EXPIRED');
      const response = input.response as AuthenticationResponseJSON;
      const passkey = await security.findPasskey(response.id);
      if (!passkey) throw badRequest(SECURITY_MESSAGES.passkeyUnknown, 'PASSKEY_UNKNOWN');
      let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: challenge.challenge,
          expectedOrigin: origin,
          expectedRPID: rpID,
          requireUserVerification: true,
          credential: {
            id: passkey.id,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
            counter: passkey.counter,
            transports: passkey.transports as AuthenticatorTransport[],
          },
        });
      } catch (error) {
        deps.logger.info({ err: error }, 'passkeys: a sign-in was refused');
        throw rejected();
      }
      if (!verification.verified) throw rejected();
      await security.recordPasskeyUse(passkey.id, verification.authenticationInfo.newCounter, now);
      return passkey.userId;
    },
  };
}
