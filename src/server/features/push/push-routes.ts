import type { FastifyInstance } from 'fastify';
import {
  type PushPublicKeyResponse,
  PushSubscriptionRequestSchema,
  type PushSubscriptionResponse,
  PushUnsubscribeRequestSchema,
} from '#shared/notifications/push-schemas';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { PushService } from './push-service.ts';

/** Web push calls, mounted at /api/push (not in the spec: docs/decisions/0007-notifications.md). */
export async function pushRoutes(app: FastifyInstance, options: { push: PushService }) {
  const { push } = options;

  // Public by nature: it is the key every browser gets anyway.
  app.get('/public-key', async (): Promise<PushPublicKeyResponse> => ({ success: true, publicKey: push.publicKey() }));

  app.post(
    '/subscriptions',
    { preHandler: app.authenticate },
    async (request, reply): Promise<PushSubscriptionResponse> => {
      const subscription = parseInput(PushSubscriptionRequestSchema, request.body);
      await push.subscribe(requireAuth(request).userId, subscription);
      reply.status(201);
      return { success: true };
    },
  );

  app.delete('/subscriptions', { preHandler: app.authenticate }, async (request): Promise<PushSubscriptionResponse> => {
    const { endpoint } = parseInput(PushUnsubscribeRequestSchema, request.body);
    await push.unsubscribe(requireAuth(request).userId, endpoint);
    return { success: true };
  });
}
