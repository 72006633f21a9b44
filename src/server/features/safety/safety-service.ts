import {
  BlockRequestSchema,
  type BlockListResponse,
  DELETE_CONFIRMATION_WORD,
  type DeletionMethodResponse,
  DeleteAccountRequestSchema,
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
};

export type SafetyServiceDeps = {
  repository: SafetyRepository;
  realtime: SafetyRealtime;
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

  const block = async (callerId: string, otherId: string) => {
    const changed = await repository.block(callerId, otherId, clock.now());
    for (const conversation of changed) {
      for (const userId of [conversation.userA, conversation.userB]) {
        realtime.conversationEnded(userId, conversation.conversationId, 'blocked');
      }
    }
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

    async report(callerId: string, body: unknown): Promise<{ success: true; message: string; reportId: string }> {
      const input = parseInput(ReportRequestSchema, body);
      await enforceRateLimits(limiter, [{ rule: REPORT_RULE, key: callerId }], SAFETY_MESSAGES.reportRateLimited);
      await requireOther(callerId, input.userId, SAFETY_MESSAGES.cannotReportSelf);
      const reportId = await repository.insertReport({
        reporterId: callerId,
        reportedId: input.userId,
        reason: input.reason,
        details: input.details ? input.details : null,
        conversationId: input.conversationId ?? null,
        now: clock.now(),
      });
      if (input.block) await block(callerId, input.userId);
      return { success: true, message: SAFETY_MESSAGES.reported, reportId };
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
