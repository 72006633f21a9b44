import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import type { Database } from '../../db/client.ts';
import { createWebPushChannel, type WebPushChannel } from '../../delivery/web-push-channel.ts';
import type { Clock } from '../../infra/clock.ts';
import type { Logger } from '../../logger.ts';
import type { SharedSecretStore } from '../../secrets-repository.ts';
import type { SettingsService } from '../settings/index.ts';
import type { PushConfig } from './push-config.ts';
import { createPushRepository } from './push-repository.ts';
import { pushRoutes } from './push-routes.ts';
import { attachPresence, createPresence } from './push-presence.ts';
import { createPushService, type PushService } from './push-service.ts';
import { resolveVapidKeys } from './vapid-keys.ts';

export type PushModule = {
  push: PushService;
  /** `/api/push`. */
  register(http: FastifyInstance): Promise<void>;
  /** Waits for pushes under way. */
  close(): Promise<void>;
};

/**
 * Web push (spec 001 §8): the VAPID pair (generated once, shared with DATABASE_URL), subscriptions,
 * sending, and the sockets' presence (no push to a user who has the app on screen).
 */
export async function createPushModule(deps: {
  /** The server's configuration, of which push reads its own part and where to keep the VAPID pair. */
  config: { push: PushConfig; dataDir: string; isEphemeral: boolean };
  db: Database;
  clock: Clock;
  logger: Logger;
  settings: SettingsService;
  io: Server;
  /** With DATABASE_URL: where the generated VAPID pair is shared between nodes. */
  sharedSecrets?: SharedSecretStore | undefined;
  /** Tests only: a channel other than real Web Push. */
  webPushChannel?: WebPushChannel;
}): Promise<PushModule> {
  const { config } = deps;
  const vapidKeys = await resolveVapidKeys(config.push, {
    dataDir: config.dataDir,
    inMemory: config.isEphemeral,
    shared: deps.sharedSecrets,
  });
  attachPresence(deps.io);
  const push = createPushService({
    subscriptions: createPushRepository(deps.db),
    channel:
      deps.webPushChannel ??
      createWebPushChannel({
        vapid: { ...vapidKeys, subject: config.push.vapidSubject },
        timeoutMs: config.push.sendTimeoutMs,
      }),
    presence: createPresence(deps.io, deps.logger),
    settings: deps.settings,
    publicKey: vapidKeys.publicKey,
    endpointAllowlist: config.push.endpointAllowlist,
    clock: deps.clock,
    logger: deps.logger,
  });
  return {
    push,
    async register(http) {
      await http.register(pushRoutes, { prefix: '/api/push', push });
    },
    close: () => push.close(),
  };
}
