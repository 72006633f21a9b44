import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import {
  AppealRequestSchema,
  MODERATION_MESSAGES,
  type ModerationNotice,
  NoticeSeenRequestSchema,
  type RestrictedAccount,
} from '#shared/moderation/moderation-schemas';
import { REPORT_REASON_LABELS, type ReportReason } from '#shared/safety/safety-schemas';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../errors.ts';
import { parseInput } from '../../validation.ts';
import type { RestrictionRepository } from './restriction-repository.ts';

const APPEAL_ISSUER = 'entreno-appeal';
const APPEAL_TOKEN_TTL_S = 3600;

const MADRID_DAY = new Intl.DateTimeFormat('es-ES', {
  timeZone: 'Europe/Madrid',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** The reason as the person reads it (a report reason's label; never the moderator's note). */
export const reasonLabel = (reason: string) =>
  REPORT_REASON_LABELS[reason as ReportReason] ?? 'Incumplimiento de las normas';

export type AppealService = ReturnType<typeof createAppealService>;

/**
 * What the person acted on meets (docs/decisions/0033): a refused sign-in that says why and hands
 * out a short-lived appeal token, the warning notice, and their one appeal per restriction.
 */
export function createAppealService(deps: { restrictions: RestrictionRepository; clock: Clock; key: Uint8Array }) {
  const { restrictions, clock } = deps;

  const signAppealToken = (userId: string, restrictionId: string) =>
    new SignJWT({ rid: restrictionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(APPEAL_ISSUER)
      .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + APPEAL_TOKEN_TTL_S)
      .sign(deps.key);

  const verifyAppealToken = async (token: string) => {
    try {
      const { payload } = await jwtVerify(token, deps.key, {
        algorithms: ['HS256'],
        issuer: APPEAL_ISSUER,
        currentDate: clock.now(),
        requiredClaims: ['sub', 'rid', 'exp'],
      });
      if (typeof payload.sub !== 'string' || typeof payload.rid !== 'string')
        throw badRequest(MODERATION_MESSAGES.appealInvalid);
      return { userId: payload.sub, restrictionId: payload.rid };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw badRequest(MODERATION_MESSAGES.appealInvalid, 'APPEAL_INVALID');
      throw error;
    }
  };

  return {
    /**
     * Called before any session is issued (password, Google, registration): a suspended or banned
     * account is refused with 403 ACCOUNT_RESTRICTED, what it means, and the appeal token.
     */
    async assertMaySignIn(userId: string): Promise<void> {
      const restriction = await restrictions.liveRestriction(userId, clock.now());
      if (!restriction) return;
      const message =
        restriction.kind === 'ban'
          ? MODERATION_MESSAGES.accountBanned
          : MODERATION_MESSAGES.accountSuspended(MADRID_DAY.format(restriction.endsAt ?? clock.now()));
      const account: RestrictedAccount = {
        kind: restriction.kind,
        reason: reasonLabel(restriction.reason),
        endsAt: restriction.endsAt?.toISOString() ?? null,
        canAppeal: !restriction.hasAppeal,
        appealToken: restriction.hasAppeal ? null : await signAppealToken(userId, restriction.id),
      };
      throw new AppError(403, message, 'ACCOUNT_RESTRICTED', {}, { restriction: account });
    },

    /** Whether a suspension or ban is live now (a live session asking again: docs/decisions/0043). */
    async isRestricted(userId: string): Promise<boolean> {
      return (await restrictions.liveRestriction(userId, clock.now())) !== undefined;
    },

    /** The one appeal: with the refused sign-in's token, or signed in against their warning. */
    async appeal(body: unknown, signedInUserId: string | undefined) {
      const input = parseInput(AppealRequestSchema, body);
      let target: { userId: string; restrictionId: string };
      if ('appealToken' in input) target = await verifyAppealToken(input.appealToken);
      else if (signedInUserId) target = { userId: signedInUserId, restrictionId: input.restrictionId };
      else throw unauthorized();
      const outcome = await restrictions.appeal({ ...target, text: input.text, now: clock.now() });
      if (outcome.status === 'not-found') throw notFound(MODERATION_MESSAGES.restrictionNotFound);
      if (outcome.status === 'duplicate') throw conflict(MODERATION_MESSAGES.appealAlreadySent, 'APPEAL_ALREADY_SENT');
      return { success: true as const, message: MODERATION_MESSAGES.appealSent };
    },

    async notice(userId: string): Promise<ModerationNotice> {
      const warning = await restrictions.unseenWarning(userId);
      return {
        success: true,
        notice: warning
          ? {
              restrictionId: warning.id,
              reason: reasonLabel(warning.reason),
              createdAt: warning.createdAt.toISOString(),
              canAppeal: !warning.hasAppeal,
            }
          : null,
      };
    },

    async markNoticeSeen(userId: string, body: unknown) {
      const input = parseInput(NoticeSeenRequestSchema, body);
      if (!(await restrictions.markSeen(userId, input.restrictionId, clock.now())))
        throw notFound(MODERATION_MESSAGES.restrictionNotFound);
      return { success: true as const };
    },
  };
}
