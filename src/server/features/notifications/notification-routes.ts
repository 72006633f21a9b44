import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import { NOTIFICATION_MESSAGES } from '#shared/notifications/notification-messages';
import {
  type DeleteNotificationResponse,
  DevNotificationRequestSchema,
  type NotificationListResponse,
  NotificationListQuerySchema,
  type NotificationResponse,
  type ReadAllResponse,
  type UnreadCountResponse,
} from '#shared/notifications/notification-schemas';
import { notFound } from '../../errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { NotificationService } from './notification-service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A notification id from the path; anything that is not one is as unknown as someone else's (404). */
function notificationId(params: unknown): string {
  const id = v.is(v.object({ id: v.string() }), params) ? params.id : '';
  if (!UUID.test(id)) throw notFound(NOTIFICATION_MESSAGES.notificationNotFound);
  return id.toLowerCase();
}

/** Spec 001 §7 notification calls, mounted at /api/notifications; every one is the caller's own. */
export async function notificationRoutes(app: FastifyInstance, options: { notifications: NotificationService }) {
  const { notifications } = options;
  app.addHook('preHandler', app.authenticate);

  app.get('/', async (request): Promise<NotificationListResponse> => {
    const query = parseInput(NotificationListQuerySchema, request.query);
    return notifications.list(requireAuth(request).userId, query);
  });

  app.get('/unread-count', async (request): Promise<UnreadCountResponse> => {
    return { success: true, count: await notifications.unreadCount(requireAuth(request).userId) };
  });

  app.patch('/read-all', async (request): Promise<ReadAllResponse> => {
    return { success: true, updated: await notifications.markAllRead(requireAuth(request).userId) };
  });

  app.patch('/:id/read', async (request): Promise<NotificationResponse> => {
    const id = notificationId(request.params);
    return { success: true, notification: await notifications.setRead(requireAuth(request).userId, id, true) };
  });

  // Not in the spec ("a call whose path is not shown"): docs/decisions/0007-notifications.md.
  app.patch('/:id/unread', async (request): Promise<NotificationResponse> => {
    const id = notificationId(request.params);
    return { success: true, notification: await notifications.setRead(requireAuth(request).userId, id, false) };
  });

  app.delete('/:id', async (request): Promise<DeleteNotificationResponse> => {
    await notifications.remove(requireAuth(request).userId, notificationId(request.params));
    return { success: true };
  });
}

/**
 * `POST /api/dev/notifications` — outside production only: a notification (and its push) to
 * oneself, so the screens and the push path can be tried without the features that create them.
 */
export async function devNotificationRoutes(app: FastifyInstance, options: { notifications: NotificationService }) {
  app.post(
    '/notifications',
    { preHandler: app.authenticate },
    async (request, reply): Promise<NotificationResponse> => {
      const input = parseInput(DevNotificationRequestSchema, request.body);
      const notification = await options.notifications.notify(requireAuth(request).userId, input);
      reply.status(201);
      return { success: true, notification };
    },
  );
}
