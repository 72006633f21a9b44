import type { Server } from 'socket.io';
import { userRoom } from '../../plugins/realtime-auth.ts';
import type { NotificationRealtime } from './notification-service.ts';

/** Emits to `user:<id>` through the adapter, so the user's sockets on every node get it — and nobody else's. */
export function createUserEvents(io: Server): NotificationRealtime {
  return {
    emitToUser(userId, event, payload) {
      io.to(userRoom(userId)).emit(event, payload);
    },
  };
}
