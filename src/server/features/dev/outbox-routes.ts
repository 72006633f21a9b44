import type { FastifyInstance } from 'fastify';
import { normalizeSpanishPhone } from '#shared/auth/phone';
import { OutboxQuerySchema, type OutboxResponse } from '#shared/dev-outbox';
import type { Outbox } from '../../delivery/outbox.ts';
import { parseInput } from '../../validation.ts';

/** `GET /api/dev/outbox[?to=]`: what would have been sent, newest first. Never registered in production. */
export async function outboxRoutes(app: FastifyInstance, options: { outbox: Outbox }) {
  app.get('/outbox', async (request): Promise<OutboxResponse> => {
    const { to } = parseInput(OutboxQuerySchema, request.query);
    const recipient = to === undefined ? undefined : (normalizeSpanishPhone(to) ?? to.trim().toLowerCase());
    return { success: true, data: await options.outbox.list({ to: recipient }) };
  });
}
