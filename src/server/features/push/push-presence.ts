import type { Server } from 'socket.io';
import { PRESENCE_HIDDEN_EVENT, PRESENCE_VISIBLE_EVENT } from '#shared/notifications/push-schemas';
import type { Logger } from '../../logger.ts';
import { userRoom } from '../../plugins/realtime-auth.ts';

/** Whether a user has a client on screen right now, on any node. */
export type Presence = { hasVisibleClient(userId: string): Promise<boolean> };

/**
 * Tracks page visibility per socket in `socket.data.visible`: `auth.visible` at connect, then the
 * client's `presence:visible` / `presence:hidden` events. A socket that never says is taken as
 * hidden, so a silent client still gets its pushes (docs/decisions/0007).
 */
export function attachPresence(io: Server): void {
  io.on('connection', (socket) => {
    socket.data.visible = socket.handshake.auth?.visible === true;
    // An optional acknowledgement lets a client (or a test) know the state is recorded.
    socket.on(PRESENCE_VISIBLE_EVENT, (ack?: unknown) => {
      socket.data.visible = true;
      if (typeof ack === 'function') ack();
    });
    socket.on(PRESENCE_HIDDEN_EVENT, (ack?: unknown) => {
      socket.data.visible = false;
      if (typeof ack === 'function') ack();
    });
  });
}

/** Reads the sockets of `user:<id>` on every node (`fetchSockets` goes through the Redis adapter). */
export function createPresence(io: Server, logger: Logger): Presence {
  return {
    async hasVisibleClient(userId) {
      try {
        const sockets = await io.in(userRoom(userId)).fetchSockets();
        return sockets.some((socket) => socket.data?.visible === true);
      } catch (error) {
        // Unknown (a node did not answer): deliver rather than lose the push.
        logger.warn({ err: error, userId }, 'presence: fetchSockets failed');
        return false;
      }
    },
  };
}
