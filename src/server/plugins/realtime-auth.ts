import type { Server, Socket } from 'socket.io';
import { TOKEN_INVALIDATED_EVENT } from '#shared/auth/auth-constants';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import type { TokenInvalidatedEvent } from '#shared/auth/auth-schemas';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Clock } from '../infra/clock.ts';
import type { Logger } from '../logger.ts';
import type { SessionGate, SessionRevocationListener } from '../infra/session-contract.ts';
import { bearerToken } from './auth.ts';

/** What every authenticated socket carries in `socket.data`. */
export type SocketAuth = { userId: string; sessionId: string };

export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;

// setTimeout's ceiling (about 24.8 days); longer sessions are re-checked when it fires.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Sockets authenticate at connect with the same token as HTTP (`auth.token` or the Authorization
 * header), join `user:<id>` and `session:<sid>`, and are dropped when their session ends.
 */
export function attachSocketAuth(
  io: Server,
  deps: { sessions: Pick<SessionGate, 'verifyToken' | 'sessionEnd' | 'isLive'>; clock: Clock; logger: Logger },
): void {
  io.on('connection', (socket) => {
    // A revocation broadcast while this socket was still in the middleware (its token already
    // checked, not yet among the namespace's connected sockets) reached no one, and a socket that
    // sends nothing would never be checked again before its session's end: look once more now.
    const connectedAuth = socket.data.auth as SocketAuth | undefined;
    if (connectedAuth) {
      deps.sessions.isLive(connectedAuth).then(
        (isLive) => {
          if (!isLive) endSocket(socket);
        },
        (error: unknown) => deps.logger.warn({ err: error }, 'realtime: checking a session failed'),
      );
    }
    // Every event asks this node's session cache first (no I/O on a hit): a session revoked on
    // any node stops its sockets' events here even before their disconnection arrives.
    // Checked one packet after another, so events reach their handlers in the order they came
    // (a cache miss must not let a later event overtake an earlier one: #15).
    let previous: Promise<unknown> = Promise.resolve();
    socket.use((_packet, next) => {
      const auth = socket.data.auth as SocketAuth | undefined;
      if (!auth) return next(new Error(SERVER_MESSAGES.unauthorized));
      previous = previous.then(() =>
        deps.sessions.isLive(auth).then(
          (isLive) => {
            if (isLive) return next();
            endSocket(socket);
          },
          (error: unknown) => {
            deps.logger.warn({ err: error }, 'realtime: checking a session failed');
            next(error instanceof Error ? error : new Error(String(error)));
          },
        ),
      );
    });
  });

  io.use(async (socket, next) => {
    const token = socketToken(socket);
    if (!token) return next(authError(SERVER_MESSAGES.unauthorized));
    try {
      const session = await deps.sessions.verifyToken(token);
      socket.data.auth = { userId: session.userId, sessionId: session.sessionId } satisfies SocketAuth;
      await socket.join([userRoom(session.userId), sessionRoom(session.sessionId)]);
      watchSessionEnd(socket, session.sessionId, session.sessionEndsAt);
      next();
    } catch {
      next(authError(SERVER_MESSAGES.invalidToken));
    }
  });

  /** Drops the socket when its session runs out, re-reading the row (it may have slid forward). */
  function watchSessionEnd(socket: Socket, sessionId: string, endsAt: Date) {
    let timer: NodeJS.Timeout | undefined;
    const schedule = (at: Date) => {
      const delay = Math.min(Math.max(0, at.getTime() - deps.clock.now().getTime()), MAX_TIMER_MS);
      timer = setTimeout(check, delay);
      timer.unref();
    };
    const check = async () => {
      try {
        const end = await deps.sessions.sessionEnd(sessionId, (socket.data.auth as SocketAuth).userId);
        if (end && end.getTime() > deps.clock.now().getTime()) return schedule(end);
        endSocket(socket);
      } catch (error) {
        deps.logger.warn({ err: error }, 'realtime: re-checking a session failed');
        schedule(new Date(deps.clock.now().getTime() + 60_000));
      }
    };
    schedule(endsAt);
    socket.once('disconnect', () => clearTimeout(timer));
  }
}

/** Tells a socket its session is over (`token_invalidated`), then drops it. */
function endSocket(socket: Socket): void {
  const payload: TokenInvalidatedEvent = { reason: 'expired', message: AUTH_MESSAGES.sessionEnded };
  socket.emit(TOKEN_INVALIDATED_EVENT, payload);
  socket.disconnect(true);
}

/**
 * Tells the revoked sessions' sockets on every node (`token_invalidated`), then disconnects them.
 * Both go through the adapter, so with Redis they reach sockets held by other nodes, in order.
 */
export function createRevocationBroadcaster(io: Server): SessionRevocationListener {
  return (event) => {
    const rooms = event.scope === 'user' ? [userRoom(event.userId)] : event.sessionIds.map(sessionRoom);
    if (rooms.length === 0) return;
    const payload: TokenInvalidatedEvent = { reason: event.reason, message: AUTH_MESSAGES.sessionEnded };
    io.to(rooms).emit(TOKEN_INVALIDATED_EVENT, payload);
    io.in(rooms).disconnectSockets(true);
  };
}

function socketToken(socket: Socket): string | undefined {
  const fromAuth: unknown = socket.handshake.auth?.token;
  if (typeof fromAuth === 'string' && fromAuth.length > 0) return bearerToken(fromAuth) ?? fromAuth;
  return bearerToken(socket.handshake.headers.authorization);
}

function authError(message: string): Error {
  return Object.assign(new Error(message), { data: { message } });
}
