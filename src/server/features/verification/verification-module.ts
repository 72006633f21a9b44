import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import { createModerationAuditRepository, requireModerator } from '../moderation/index.ts';
import type { ModerationSection } from '../moderation/moderation-module.ts';
import type { NotificationService } from '../notifications/index.ts';
import { processSelfie } from './selfie-processor.ts';
import { createVerificationRepository } from './verification-repository.ts';
import { verificationModerationRoutes, verificationRoutes } from './verification-routes.ts';
import { createVerificationService, type VerificationService } from './verification-service.ts';

export type VerificationModule = {
  verification: VerificationService;
  /** The owner's routes under /api/verification. */
  register(http: FastifyInstance): Promise<void>;
  /** The console's queue, mounted by the moderation module under `/api/moderation` behind its guard. */
  moderationSection: ModerationSection;
};

/**
 * Verified profiles (issue #23 part 2, docs/decisions/0034). Built before the discovery features,
 * so the photo service can tell it when photos are added (`verification.photosAdded`). Each
 * review is written to the moderation audit log in the review's own transaction.
 */
export function createVerificationModule(deps: {
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  logger: Logger;
  notifications: Pick<NotificationService, 'notify'>;
}): VerificationModule {
  const verification = createVerificationService({
    repository: createVerificationRepository(deps.db),
    process: processSelfie,
    async notify(userId, notice) {
      try {
        await deps.notifications.notify(userId, {
          type: 'system',
          priority: 'high',
          title: notice.title,
          body: notice.body,
          referenceType: 'verification',
          url: '/config',
        });
      } catch (error) {
        // The review is stored either way: the person also sees it in Configuración.
        deps.logger.error({ err: error, userId }, 'verification: notification failed');
      }
    },
    audit: (entry, executor) =>
      createModerationAuditRepository(executor).record({
        moderator: entry.moderator,
        action: entry.action,
        targetUserId: entry.targetUserId,
        reason: entry.reason,
        details: { verificationRequestId: entry.requestId, kind: entry.kind, photoKeys: entry.photoKeys },
        now: deps.clock.now(),
      }),
    limiter: deps.limiter,
    clock: deps.clock,
    logger: deps.logger,
  });
  return {
    verification,
    async register(http) {
      await http.register(verificationRoutes, { prefix: '/api/verification', verification });
    },
    moderationSection: (api) => verificationModerationRoutes(verification, requireModerator)(api),
  };
}
