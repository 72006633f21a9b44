import { createHmac, randomBytes } from 'node:crypto';
import { RESET_LINK_TTL_S } from '#shared/auth/auth-constants';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../../infra/clock.ts';
import type { EmailChannel } from '../../delivery/email-channel.ts';
import { badRequest } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter } from '../../infra/rate-limit.ts';
import { passwordResetEmail } from './auth-emails.ts';
import { AUTH_LIMITS } from './auth-limits.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { PasswordResetRepository } from './password-reset-repository.ts';
import type { SessionService } from './session-service.ts';
import type { UserRecord, UserRepository } from './user-repository.ts';
import type { UserService } from './user-service.ts';

export type PasswordResetServiceDeps = {
  resets: PasswordResetRepository;
  users: UserRepository;
  userService: UserService;
  sessions: SessionService;
  email: EmailChannel;
  hasher: PasswordHasher;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** HMAC key for stored link tokens. */
  resetKey: Buffer;
  /** PUBLIC_ORIGIN: links are built from configuration, never from the request's Host. */
  publicOrigin: string;
  /** A new password forgets every remembered device (docs/decisions/0032). */
  onPasswordChanged?(userId: string): Promise<void>;
};

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

/** Password recovery by e-mailed link (QUALITY 5). */
export function createPasswordResetService(deps: PasswordResetServiceDeps) {
  const { resets, users, clock } = deps;
  const pending = new Set<Promise<void>>();

  const hashToken = (token: string) => createHmac('sha256', deps.resetKey).update(token).digest('hex');

  const sendLink = async (user: UserRecord) => {
    const token = randomBytes(32).toString('base64url');
    const now = clock.now();
    await resets.add({
      userId: user.id,
      tokenHash: hashToken(token),
      createdAt: now,
      expiresAt: new Date(now.getTime() + RESET_LINK_TTL_S * 1000),
    });
    const link = new URL('/reset-password', `${deps.publicOrigin}/`);
    link.searchParams.set('token', token);
    link.searchParams.set('email', user.email);
    await deps.email.send(passwordResetEmail({ to: user.email, name: user.name, link: link.toString() }));
  };

  /** The link's row and user when the token and e-mail match; otherwise 'invalid'. */
  const findLink = async (token: string, email: string) => {
    const link = await resets.findByHash(hashToken(token));
    if (!link || link.usedAt) return undefined;
    const user = await users.findById(link.userId);
    if (!user || user.email.toLowerCase() !== email.toLowerCase()) return undefined;
    return { link, user, isExpired: link.expiresAt.getTime() <= clock.now().getTime() };
  };

  return {
    /**
     * Mails a reset link when an account uses the address. Answers the same, in about the same
     * time, either way (QUALITY 2): the link is made and mailed after the answer. Past the
     * per-address budget the answer is still the same but no mail goes out: a stranger's requests
     * neither cancel the owner's links nor lock the owner's own request out.
     */
    async requestReset(email: string, ip: string): Promise<void> {
      await enforceRateLimits(
        deps.limiter,
        [{ rule: AUTH_LIMITS.forgotPasswordPerIp, key: ip }],
        SERVER_MESSAGES.tooManyRequests,
      );
      const mails = await deps.limiter.consume({ rule: AUTH_LIMITS.forgotPasswordPerEmail, key: email });
      if (mails.isLimited) return;
      const user = await users.findByEmail(email);
      if (!user) return;
      const work = sendLink(user)
        .catch((error: unknown) => {
          deps.logger.error({ err: error, userId: user.id }, 'password reset: sending the link failed');
        })
        .finally(() => pending.delete(work));
      pending.add(work);
    },

    /** Whether the link can still be used (POST /auth/validate-reset-token). */
    async validateLink(token: string, email: string, ip: string): Promise<boolean> {
      await enforceRateLimits(
        deps.limiter,
        [{ rule: AUTH_LIMITS.resetPasswordPerIp, key: ip }],
        SERVER_MESSAGES.tooManyRequests,
      );
      const found = await findLink(token, email);
      return found !== undefined && !found.isExpired;
    },

    /** Sets the new password, uses the link up and ends every session of the user. */
    async resetPassword(input: { token: string; email: string; newPassword: string }, ip: string): Promise<void> {
      await enforceRateLimits(
        deps.limiter,
        [{ rule: AUTH_LIMITS.resetPasswordPerIp, key: ip }],
        SERVER_MESSAGES.tooManyRequests,
      );
      const found = await findLink(input.token, input.email);
      if (!found) throw badRequest(AUTH_MESSAGES.resetLinkInvalid, 'RESET_LINK_INVALID');
      if (found.isExpired) throw badRequest(AUTH_MESSAGES.resetLinkExpired, 'RESET_LINK_EXPIRED');
      deps.userService.assertAcceptablePassword(input.newPassword);
      const { user, link } = found;
      if (user.passwordHash && (await deps.hasher.verify(user.passwordHash, input.newPassword))) {
        throw badRequest(AUTH_MESSAGES.passwordSameAsCurrent, 'PASSWORD_SAME_AS_CURRENT');
      }
      const passwordHash = await deps.hasher.hash(input.newPassword);
      const now = clock.now();
      if (!(await resets.markUsed(link.id, now)))
        throw badRequest(AUTH_MESSAGES.resetLinkInvalid, 'RESET_LINK_INVALID');
      await users.setPasswordHash(user.id, passwordHash, now);
      await resets.deleteUnusedForUser(user.id);
      await deps.sessions.revokeAllSessions(user.id, 'password_reset');
      await deps.onPasswordChanged?.(user.id);
    },

    /** Resolves when every link being mailed has been handed over (shutdown, tests). */
    async whenIdle(): Promise<void> {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
