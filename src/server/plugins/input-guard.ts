import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Server } from 'socket.io';
import { controlCharacterMessage, findControlCharacter } from '#shared/text/control-characters';
import { AppError } from '../errors.ts';

/**
 * Refuses control characters (NUL and the other C0 controls but tab and line breaks, DEL) in every
 * route's body, query and path parameters with a 400 naming the field, before any handler runs:
 * PostgreSQL cannot store NUL in text, and none of our fields has a use for the others.
 */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = findControlCharacter(part);
      if (field !== undefined) throw new AppError(400, controlCharacterMessage(field), 'VALIDATION');
    }
  });
});

/**
 * The same rule for every socket event: a payload holding a control character is answered with
 * the error acknowledgement (or dropped when it has none) and never reaches a handler.
 */
export function guardSocketInput(io: Server): void {
  io.on('connection', (socket) => {
    socket.use((packet, next) => {
      const [, ...args] = packet;
      const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as (result: unknown) => void) : undefined;
      const field = findControlCharacter(ack ? args.slice(0, -1) : args);
      if (field === undefined) {
        next();
        return;
      }
      const named = field.replace(/^0\.?/, '');
      ack?.({ ok: false, status: 400, errorType: 'VALIDATION', message: controlCharacterMessage(named) });
    });
  });
}
