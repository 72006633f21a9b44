import { createHash } from 'node:crypto';
import { isQuedadaId } from '#shared/quedadas/quedada-schemas';
import { quedadaWhen } from '#shared/quedadas/quedada-time';
import {
  CheckInAnswerRequestSchema,
  CreateShareRequestSchema,
  checkInOf,
  type QuedadaShare,
  RevokeShareRequestSchema,
  SHARE_GRACE_MS,
  SHARE_MESSAGES,
  SHARE_TOKEN_PATTERN,
  type SharedSession,
  shareViewOf,
} from '#shared/quedadas/share-schemas';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, notFound, tooManyRequests } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import type { RateLimiter, RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import type { QuedadaRepository } from './quedada-repository.ts';
import type { Caller, QuedadaNotifier } from './quedada-service.ts';
import type { ShareRecord, ShareRepository } from './share-repository.ts';

const WRITE_RULE: RateLimitRule = { name: 'quedada-share-write', limit: 20, windowMs: 60_000 };
/** The public page, per IP: tokens are 256-bit, the limit only keeps the endpoint cheap. */
const PAGE_RULE: RateLimitRule = { name: 'quedada-share-page', limit: 60, windowMs: 60_000 };

/** Only the hash reaches the database: a leaked table opens no page. */
export const hashShareToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The check-in's time: none, or from now (a minute of grace for clocks) until the page expires. */
export function checkInTime(checkInAt: string | null, now: Date, endMs: number): Date | null {
  if (checkInAt === null) return null;
  const at = new Date(checkInAt);
  if (at.getTime() < now.getTime() - 60_000 || at.getTime() > endMs + SHARE_GRACE_MS) {
    throw badRequest(SHARE_MESSAGES.checkInAt, 'VALIDATION');
  }
  return at;
}

export type ShareService = ReturnType<typeof createShareService>;

export type ShareServiceDeps = {
  shares: ShareRepository;
  quedadas: Pick<QuedadaRepository, 'findById'>;
  notifier?: QuedadaNotifier;
  /** The page of an open session's share (docs/decisions/0054, session 17), by the token's hash. */
  sessionPage?: (tokenHash: string, now: Date) => Promise<SharedSession | undefined>;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
};

/**
 * «Compartir con alguien de confianza» (issue #35, docs/decisions/0054): only a member of an
 * accepted quedada that has not ended creates a link, and only its owner lists, revokes or answers
 * its check-in (anyone else gets 404) — revoke and answer serve an open session's shares too. The
 * public page reads a live link by its token's hash, a quedada's here or a session's through `sessionPage`.
 */
export function createShareService(deps: ShareServiceDeps) {
  const { shares, clock } = deps;

  const limit = async (rule: RateLimitRule, key: string) => {
    const state = await deps.limiter.consume({ rule, key });
    if (state.isLimited) throw tooManyRequests(SHARE_MESSAGES.rateLimited, state.retryAfterMs / 1000, 'RATE_LIMIT');
  };

  const toShare = (record: ShareRecord): QuedadaShare => shareViewOf(record, clock.now());

  const owned = async (userId: string, shareId: string): Promise<ShareRecord> => {
    const found = isQuedadaId(shareId) ? await shares.findOwned(userId, shareId.toLowerCase()) : undefined;
    if (!found) throw notFound(SHARE_MESSAGES.shareNotFound);
    return found;
  };

  return {
    toShare,

    /** Creates the link (the client made the token); the same clientId again answers the same share. */
    async create(caller: Caller, quedadaId: string, body: unknown): Promise<{ share: QuedadaShare; isNew: boolean }> {
      const input = parseInput(CreateShareRequestSchema, body);
      const quedada = isQuedadaId(quedadaId) ? await deps.quedadas.findById(quedadaId.toLowerCase()) : undefined;
      if (!quedada?.members.includes(caller.userId)) throw notFound(SHARE_MESSAGES.shareNotFound);
      const repeated = await shares.findByClientId(caller.userId, input.clientId);
      if (repeated?.quedadaId === quedada._id) return { share: toShare(repeated), isNew: false };
      const now = clock.now();
      const end = Date.parse(quedada.startsAt) + quedada.durationMin * 60_000;
      if (quedada.status !== 'accepted' || end <= now.getTime())
        throw conflict(SHARE_MESSAGES.notShareable, 'QUEDADA_STATE');
      const checkInAt = checkInTime(input.checkInAt, now, end);
      await limit(WRITE_RULE, caller.userId);
      const outcome = await shares.create({
        ...caller,
        quedadaId: quedada._id,
        tokenHash: hashShareToken(input.token),
        clientId: input.clientId,
        checkInAt,
        graceMs: SHARE_GRACE_MS,
        now,
      });
      if (outcome.kind === 'repeat') return { share: toShare(outcome.share), isNew: false };
      if (outcome.kind === 'refused') {
        // The quedada changed since it was read, the session ended, or the token is taken.
        const current = await deps.quedadas.findById(quedada._id);
        if (current?.status !== 'accepted') throw conflict(SHARE_MESSAGES.notShareable, 'QUEDADA_STATE');
        throw new AppError(409, SHARE_MESSAGES.invalidToken, 'SHARE_TOKEN');
      }
      // The partner is told the session was shared (issue #35): never the link itself.
      deps.notifier
        ?.notify(outcome.partnerId, {
          type: 'activity',
          title: 'Entreno compartido',
          body: `Vuestra quedada (${quedada.activity}, ${quedadaWhen(quedada.startsAt)}) se ha compartido con un contacto de confianza.`,
          referenceId: quedada.conversationId,
          referenceType: 'conversation',
          collapseKey: `quedada:${quedada._id}:shared`,
          url: `/messages/${encodeURIComponent(quedada.conversationId)}`,
          setting: 'trainingRequests',
        })
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'quedadas: share notification failed'));
      return { share: toShare(outcome.share), isNew: true };
    },

    async list(userId: string, quedadaId: string): Promise<QuedadaShare[]> {
      const quedada = isQuedadaId(quedadaId) ? await deps.quedadas.findById(quedadaId.toLowerCase()) : undefined;
      if (!quedada?.members.includes(userId)) throw notFound(SHARE_MESSAGES.shareNotFound);
      return (await shares.listOwned(userId, quedada._id)).map(toShare);
    },

    /** Revokes at once, a quedada's share or an open session's; a replay answers the revoked share. */
    async revoke(caller: Caller, shareId: string, body: unknown): Promise<QuedadaShare> {
      parseInput(RevokeShareRequestSchema, body);
      const share = await owned(caller.userId, shareId);
      const revoked = await shares.revoke(caller.userId, share.id, clock.now());
      if (!revoked) throw notFound(SHARE_MESSAGES.shareNotFound);
      return toShare(revoked);
    },

    /** «¿Todo bien?» of either kind: the first answer counts; the same answer again (a replay) answers 200. */
    async answer(caller: Caller, shareId: string, body: unknown): Promise<QuedadaShare> {
      const input = parseInput(CheckInAnswerRequestSchema, body);
      const share = await owned(caller.userId, shareId);
      if (!share.checkInAt) throw conflict(SHARE_MESSAGES.noCheckIn, 'NO_CHECK_IN');
      if (share.checkInAnswer) return toShare(share);
      if (share.revokedAt) throw conflict(SHARE_MESSAGES.revoked, 'SHARE_REVOKED');
      const answered = await shares.answer(caller.userId, share.id, input.answer, clock.now());
      if (answered) return toShare(answered);
      const current = await owned(caller.userId, share.id);
      if (current.checkInAnswer) return toShare(current);
      throw conflict(SHARE_MESSAGES.publicNotFound, 'SHARE_EXPIRED');
    },

    /** The public page: no sign-in; an unknown, revoked or expired link is a 404. */
    async shared(token: string, ip: string): Promise<SharedSession> {
      await limit(PAGE_RULE, ip);
      if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound(SHARE_MESSAGES.publicNotFound);
      const now = clock.now();
      const tokenHash = hashShareToken(token);
      const found = await shares.findShared(tokenHash, now);
      if (!found) {
        const session = await deps.sessionPage?.(tokenHash, now);
        if (!session) throw notFound(SHARE_MESSAGES.publicNotFound);
        return session;
      }
      return {
        kind: 'quedada',
        sharedBy: found.sharedBy.split(/\s+/)[0] ?? '',
        partner: {
          firstName: found.partnerName.split(/\s+/)[0] ?? '',
          photo: found.partnerPhoto ? `/${found.partnerPhoto}` : null,
          isVerified: found.partnerVerified,
        },
        gymName: found.gymName,
        gymAddress: found.gymAddress,
        startsAt: found.startsAt.toISOString(),
        durationMin: found.durationMin,
        activity: found.activity,
        isCancelled: found.status === 'cancelled' || found.status === 'declined',
        expiresAt: found.expiresAt.toISOString(),
        checkIn: checkInOf(
          found.checkInAt?.toISOString() ?? null,
          found.checkInAnswer,
          found.answeredAt?.toISOString() ?? null,
          now,
        ),
      };
    },
  };
}
