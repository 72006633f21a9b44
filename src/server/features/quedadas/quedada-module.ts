import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../infra/clock.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import type { InvalidationBus } from '../../infra/invalidation-bus.ts';
import { periodicPass } from '../../infra/periodic-pass.ts';
import type { RateLimiter } from '../../infra/rate-limit.ts';
import type { ChatRealtime } from '../chat/index.ts';
import { createQuedadaRepository } from './quedada-repository.ts';
import { devQuedadaRoutes, quedadaRoutes } from './quedada-routes.ts';
import {
  createQuedadaService,
  type QuedadaNotifier,
  type QuedadaService,
  type QuedadaServiceDeps,
  type QuedadaSettings,
} from './quedada-service.ts';
import { createShareRepository } from './share-repository.ts';
import { sharedPageRoutes, shareRoutes } from './share-routes.ts';
import { createShareService, type ShareServiceDeps } from './share-service.ts';
import { createSuggestionRepository } from './suggestion-repository.ts';

/** How often each node looks for due reminders (the claim in the database keeps nodes apart). */
export const QUEDADA_JOB_INTERVAL_MS = 15_000;

export type QuedadaModule = {
  quedadas: QuedadaService;
  /** Starts the job runner's interval. */
  start(): void;
  /** Stops it and waits for a pass under way. */
  close(): Promise<void>;
};

/** Quedadas (issue #21): repository, service, `/api/quedadas` and the job runner, wired in one call. */
export async function registerQuedadas(
  http: FastifyInstance,
  deps: {
    db: Database;
    /** The chat's emitter: `user:<id>` on every node (QUALITY 16), the spec's aliases included. */
    realtime: ChatRealtime;
    clock: Clock;
    limiter: RateLimiter;
    notifier: QuedadaNotifier;
    settings: QuedadaSettings;
    publicOrigin: Config['publicOrigin'];
    /** Outside production: `/api/dev/quedadas/{id}/rewind`. */
    hasDevRoutes: boolean;
    /** `pair-ended` (unmatch, block, deletion) cancels the pair's quedada at once (docs/decisions/0029). */
    bus?: Pick<InvalidationBus, 'subscribe'>;
    openSessionRecord?: QuedadaServiceDeps['openSessionRecord'];
    /** `/api/shared/{token}` of an open session's share (docs/decisions/0054, session 17). */
    sessionSharePage?: ShareServiceDeps['sessionPage'];
  },
): Promise<QuedadaModule> {
  const logger = http.log;
  // Through the chat's emitter: `user:<id>` on every node (QUALITY 16).
  const chatRealtime = deps.realtime;
  const quedadaRepository = createQuedadaRepository(deps.db);
  const quedadas = createQuedadaService({
    quedadas: quedadaRepository,
    suggestions: createSuggestionRepository(deps.db),
    realtime: { emitToUser: (userId, event, payload) => chatRealtime.emitToUser(userId, event, payload) },
    notifier: deps.notifier,
    settings: deps.settings,
    limiter: deps.limiter,
    clock: deps.clock,
    logger,
    openSessionRecord: deps.openSessionRecord,
  });
  const shares = createShareService({
    shares: createShareRepository(deps.db),
    quedadas: quedadaRepository,
    notifier: deps.notifier,
    sessionPage: deps.sessionSharePage,
    limiter: deps.limiter,
    clock: deps.clock,
    logger,
  });
  await http.register(
    async (api) => {
      await api.register(shareRoutes, { prefix: '/quedadas', shares });
      await api.register(sharedPageRoutes, { shares });
      await api.register(quedadaRoutes, { prefix: '/quedadas', quedadas, publicOrigin: deps.publicOrigin });
      if (deps.hasDevRoutes) await api.register(devQuedadaRoutes, { prefix: '/dev', quedadas });
    },
    { prefix: '/api' },
  );
  deps.bus?.subscribe((event) => {
    if (event.type !== 'pair-ended') return;
    quedadas
      .sweep(event.userIds[0])
      .catch((error: unknown) => logger.warn({ err: error }, 'quedadas: cancelling after a pair ended failed'));
  });
  const runner = periodicPass(
    () => quedadas.runDueJobs(),
    QUEDADA_JOB_INTERVAL_MS,
    (error) => logger.error({ err: error }, 'quedadas: job runner failed'),
  );
  return { quedadas, start: runner.start, close: runner.close };
}
