import {
  BlockRequestSchema,
  type BlockListResponse,
  DELETE_CONFIRMATION_WORD,
  type DeletionMethodResponse,
  DeleteAccountRequestSchema,
  type ReportRequest,
  ReportRequestSchema,
  SAFETY_MESSAGES,
} from '#shared/safety/safety-schemas';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter, type RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import type { SafetyRepository } from './safety-repository.ts';

const HOUR_MS = 3_600_000;
const REPORT_RULE: RateLimitRule = { name: 'safety-report', limit: 10, windowMs: HOUR_MS };
const BLOCK_RULE: RateLimitRule = { name: 'safety-block', limit: 60, windowMs: HOUR_MS };
const DELETE_RULE: RateLimitRule = { name: 'safety-delete', limit: 5, windowMs: 15 * 60_000 };
const EXPORT_RULE: RateLimitRule = { name: 'safety-export', limit: 10, windowMs: HOUR_MS };

/** How the safety feature reaches sockets, without knowing Socket.IO (safety-module.ts implements it). */
export type SafetyRealtime = {
  conversationEnded(userId: string, conversationId: string, status: 'blocked' | 'unmatched'): void;
  /** Groups whose members' blocks changed: every node reads their membership again (typing relays). */
  groupsChanged?(conversationIds: readonly string[]): void;
};

/**
 * What a report made from an open session or a group chat is about, from the features that own
 * them (app.ts hands them in): each answers only what the caller may see, and throws that
 * feature's own 404 otherwise (docs/decisions/0056, amendment of session 17).
 */
export type ReportContexts = {
  /** The host of an open session the caller may see. */
  openSessionHost(callerId: string, sessionId: string): Promise<string>;
  /**
   * For a group conversation whose current member the caller is: the person reported (`userId`, a
   * member now or before, or the author of `messageId`) and the message's text. Undefined when the
   * conversation is no group (a match's chat, reported as before).
   */
  groupReport(
    callerId: string,
    conversationId: string,
    target: { userId?: string; messageId?: string },
  ): Promise<{ reportedId: string; messageText: string | null } | undefined>;
};

/** Told after each block, so features holding both people together act on it (open sessions). */
export type AfterBlock = (blockerId: string, blockedId: string) => Promise<void>;

export type SafetyServiceDeps = {
  repository: SafetyRepository;
  realtime: SafetyRealtime;
  contexts?: ReportContexts;
  afterBlock?: AfterBlock;
  /** Ends every session of the user: HTTP refuses the tokens, sockets get `token_invalidated`. */
  revokeAllSessions(userId: string): Promise<void>;
  /** Told once the account's rows are gone (every node's caches and the deck index forget it). */
  accountDeleted?(userId: string): Promise<void>;
  passwords: {
    verify(storedHash: string, password: string): Promise<boolean>;
    verifyDummy(password: string): Promise<void>;
  };
  /** Removes photo files (and their thumbnails) from the photo store. */
  discardPhotos(keys: readonly string[]): Promise<void>;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
};

export type SafetyService = ReturnType<typeof createSafetyService>;

/** Blocks, reports, the data export and account deletion (docs/decisions/0012). */
export function createSafetyService(deps: SafetyServiceDeps) {
  const { repository, realtime, clock, limiter } = deps;

  /** The other user must exist; a deleted or unknown one is a 404 (never "you are blocked"). */
  const requireOther = async (callerId: string, otherId: string, selfMessage: string) => {
    if (otherId === callerId) throw badRequest(selfMessage, 'VALIDATION');
    if (!(await repository.findAccount(otherId))) throw notFound(SAFETY_MESSAGES.userNotFound);
  };

  /** Groups the two share hear that a block between them changed (typing is not relayed across it). */
  const groupsOfPairChanged = async (a: string, b: string) => {
    const groups = await repository.sharedGroups(a, b);
    if (groups.length > 0) realtime.groupsChanged?.(groups);
  };

  const block = async (callerId: string, otherId: string) => {
    const changed = await repository.block(callerId, otherId, clock.now());
    for (const conversation of changed) {
      for (const userId of [conversation.userA, conversation.userB]) {
        realtime.conversationEnded(userId, conversation.conversationId, 'blocked');
      }
    }
    await groupsOfPairChanged(callerId, otherId);
    // The block stands once stored; what other features do about it is logged when it fails.
    await deps.afterBlock?.(callerId, otherId).catch((error: unknown) => {
      deps.logger.error({ err: error, userId: callerId }, 'safety: after-block work failed');
    });
  };

  /** Who a report is about, and what besides the person (a session, a group message), checked for the caller. */
  const subjectOf = async (callerId: string, input: ReportRequest) => {
    let reportedId = input.userId;
    let messageText: string | null = null;
    if (input.openSessionId) {
      if (!deps.contexts) throw notFound(SAFETY_MESSAGES.userNotFound);
      const hostId = await deps.contexts.openSessionHost(callerId, input.openSessionId);
      if (reportedId !== undefined && reportedId !== hostId)
        throw badRequest(SAFETY_MESSAGES.invalidUser, 'VALIDATION');
      reportedId = hostId;
    }
    if (input.conversationId && (input.messageId || !input.openSessionId)) {
      const group = await deps.contexts?.groupReport(callerId, input.conversationId, {
        userId: input.userId,
        messageId: input.messageId,
      });
      if (group) {
        reportedId = group.reportedId;
        messageText = group.messageText;
      } else if (input.messageId) {
        throw badRequest(SAFETY_MESSAGES.messageNeedsGroup, 'VALIDATION');
      }
    }
    if (reportedId === undefined) throw badRequest(SAFETY_MESSAGES.reportTargetRequired, 'VALIDATION');
    await requireOther(callerId, reportedId, SAFETY_MESSAGES.cannotReportSelf);
    return { reportedId, messageText };
  };

  return {
    async block(callerId: string, body: unknown): Promise<{ success: true; message: string }> {
      const input = parseInput(BlockRequestSchema, body);
      await enforceRateLimits(limiter, [{ rule: BLOCK_RULE, key: callerId }], SAFETY_MESSAGES.blockRateLimited);
      await requireOther(callerId, input.userId, SAFETY_MESSAGES.cannotBlockSelf);
      await block(callerId, input.userId);
      return { success: true, message: SAFETY_MESSAGES.blocked };
    },

    async unblock(callerId: string, otherId: string): Promise<{ success: true; message: string }> {
      await enforceRateLimits(limiter, [{ rule: BLOCK_RULE, key: callerId }], SAFETY_MESSAGES.blockRateLimited);
      if (!(await repository.unblock(callerId, otherId))) throw notFound(SAFETY_MESSAGES.blockNotFound);
      await groupsOfPairChanged(callerId, otherId);
      return { success: true, message: SAFETY_MESSAGES.unblocked };
    },

    async listBlocks(callerId: string): Promise<BlockListResponse> {
      const rows = await repository.listBlocks(callerId);
      return {
        success: true,
        blocks: rows.map((row) => ({
          userId: row.userId,
          name: row.profileName ?? row.accountName,
          photo: row.photos?.[0] ?? null,
          blockedAt: row.blockedAt.toISOString(),
        })),
      };
    },

    /**
     * Stores a report (and blocks too when asked). With the outbox's clientId a replay stores
     * nothing, blocks nobody again and answers the first report (`isNew` false: 200).
     */
    async report(
      callerId: string,
      body: unknown,
    ): Promise<{ success: true; message: string; reportId: string; isNew: boolean }> {
      const input = parseInput(ReportRequestSchema, body);
      await enforceRateLimits(limiter, [{ rule: REPORT_RULE, key: callerId }], SAFETY_MESSAGES.reportRateLimited);
      if (input.clientId) {
        const earlier = await repository.findReportByClientId(callerId, input.clientId);
        if (earlier) return { success: true, message: SAFETY_MESSAGES.reported, reportId: earlier, isNew: false };
      }
      const { reportedId, messageText } = await subjectOf(callerId, input);
      const stored = await repository.insertReport({
        reporterId: callerId,
        reportedId,
        reason: input.reason,
        details: input.details ? input.details : null,
        conversationId: input.conversationId ?? null,
        openSessionId: input.openSessionId ?? null,
        messageId: input.messageId ?? null,
        messageText,
        clientId: input.clientId ?? null,
        now: clock.now(),
      });
      if (stored.isNew && input.block) await block(callerId, reportedId);
      return { success: true, message: SAFETY_MESSAGES.reported, reportId: stored.id, isNew: stored.isNew };
    },

    async exportData(callerId: string) {
      await enforceRateLimits(limiter, [{ rule: EXPORT_RULE, key: callerId }], SAFETY_MESSAGES.exportRateLimited);
      return { exportedAt: clock.now().toISOString(), ...(await repository.exportData(callerId)) };
    },

    /** How the caller confirms a deletion: their password, or the word ELIMINAR (Google-only accounts). */
    async deletionMethod(callerId: string): Promise<DeletionMethodResponse> {
      const account = await repository.findAccount(callerId);
      if (!account) throw notFound(SAFETY_MESSAGES.userNotFound);
      return { success: true, method: account.passwordHash ? 'password' : 'confirmation' };
    },

    /**
     * Accounts with a password confirm with it; Google-only accounts, with the word ELIMINAR.
     * Sessions are revoked first, so no socket or request of the user races the deletion.
     */
    async deleteAccount(callerId: string, body: unknown): Promise<{ success: true; message: string }> {
      const input = parseInput(DeleteAccountRequestSchema, body ?? {});
      await enforceRateLimits(limiter, [{ rule: DELETE_RULE, key: callerId }], SAFETY_MESSAGES.deleteRateLimited);
      const account = await repository.findAccount(callerId);
      if (!account) throw notFound(SAFETY_MESSAGES.userNotFound);
      if (account.passwordHash) {
        if (input.password === undefined) throw badRequest(SAFETY_MESSAGES.passwordRequired, 'PASSWORD_REQUIRED');
        if (!(await deps.passwords.verify(account.passwordHash, input.password))) {
          throw new AppError(403, SAFETY_MESSAGES.wrongPassword, 'WRONG_PASSWORD');
        }
      } else if (input.confirmation !== DELETE_CONFIRMATION_WORD) {
        throw badRequest(SAFETY_MESSAGES.deleteConfirmation, 'CONFIRMATION_REQUIRED');
      }
      await deps.revokeAllSessions(callerId);
      const { photoKeys, ended } = await repository.deleteAccount(callerId, clock.now());
      await deps.accountDeleted?.(callerId);
      for (const conversation of ended) {
        realtime.conversationEnded(conversation.otherUserId, conversation.conversationId, conversation.status);
      }
      await deps.discardPhotos(photoKeys).catch((error: unknown) => {
        deps.logger.error({ err: error, userId: callerId }, 'safety: photo files of a deleted account remain');
      });
      return { success: true, message: SAFETY_MESSAGES.accountDeleted };
    },
  };
}
