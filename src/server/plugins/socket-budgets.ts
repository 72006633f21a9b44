import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Server, Socket } from 'socket.io';
import { SERVER_MESSAGES } from '#shared/messages';
import type { Logger } from '../logger.ts';

/**
 * Per-event budgets of every socket (QUALITY 31; docs/decisions/0018 §6, 0021): each event class
 * has a budget per socket and per user, counted in this process's memory before any handler runs,
 * so an event over budget costs microseconds and no I/O. Over budget, a volatile event (typing) is
 * dropped and an acknowledged one answered `{ ok: false, status: 429, errorType: 'RATE_LIMITED' }`;
 * a socket that keeps going over (REFUSALS_BEFORE_DISCONNECT within a window) is disconnected.
 * Budgets are per node: a user spread over N nodes gets N times them (the shared limits, such
 * as the per-account send limit, still hold across nodes).
 */
export type EventBudget = {
  /** Events per window on one socket. */
  perSocket: number;
  /** Events per window over all of one user's sockets on this node. */
  perUser: number;
  windowS: number;
};

/** Budgets generous for people (a burst of receipts after a reconnect, fast typing) and tight for scripts. */
export const SOCKET_EVENT_BUDGETS = {
  typing: { perSocket: 20, perUser: 40, windowS: 10 },
  rooms: { perSocket: 40, perUser: 80, windowS: 10 },
  receipts: { perSocket: 150, perUser: 300, windowS: 10 },
  send: { perSocket: 60, perUser: 100, windowS: 10 },
  presence: { perSocket: 20, perUser: 60, windowS: 10 },
  other: { perSocket: 40, perUser: 80, windowS: 10 },
} as const satisfies Record<string, EventBudget>;

type BudgetClass = keyof typeof SOCKET_EVENT_BUDGETS;

const EVENT_CLASSES: Record<string, BudgetClass> = {
  typing: 'typing',
  joinConversation: 'rooms',
  leaveConversation: 'rooms',
  messageReceived: 'receipts',
  markAsDelivered: 'receipts',
  markMessagesRead: 'receipts',
  sendMessage: 'send',
  'presence:visible': 'presence',
  'presence:hidden': 'presence',
};

/** Events refused on one socket within a window before the socket is dropped. */
export const REFUSALS_BEFORE_DISCONNECT = 100;
const REFUSAL_WINDOW_S = 10;

export const RATE_LIMITED_ACK = {
  ok: false,
  status: 429,
  errorType: 'RATE_LIMITED',
  message: SERVER_MESSAGES.tooManyRequests,
} as const;

type Limiters = { perSocket: RateLimiterMemory; perUser: RateLimiterMemory };

const isUnder = (operation: Promise<RateLimiterRes>) =>
  operation.then(
    () => true,
    (error: unknown) => {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    },
  );

/** Installs the budgets as a packet middleware on every socket of `io`. */
export function attachSocketBudgets(
  io: Server,
  options: { logger: Logger; budgets?: Record<BudgetClass, EventBudget> } = { logger: console },
): void {
  const budgets = options.budgets ?? SOCKET_EVENT_BUDGETS;
  const limiters = Object.fromEntries(
    Object.entries(budgets).map(([name, budget]) => [
      name,
      {
        perSocket: new RateLimiterMemory({
          keyPrefix: `s:${name}`,
          points: budget.perSocket,
          duration: budget.windowS,
        }),
        perUser: new RateLimiterMemory({ keyPrefix: `u:${name}`, points: budget.perUser, duration: budget.windowS }),
      },
    ]),
  ) as Record<BudgetClass, Limiters>;
  const refusals = new RateLimiterMemory({
    keyPrefix: 'refused',
    points: REFUSALS_BEFORE_DISCONNECT,
    duration: REFUSAL_WINDOW_S,
  });

  const refuse = (socket: Socket, event: string, ack: unknown) => {
    if (typeof ack === 'function') (ack as (result: unknown) => void)(RATE_LIMITED_ACK);
    void isUnder(refusals.consume(socket.id)).then((isTolerated) => {
      if (isTolerated || !socket.connected) return;
      options.logger.warn(
        { socketId: socket.id, userId: socket.data.auth?.userId, event },
        'socket budgets: persistent flood, disconnecting',
      );
      socket.disconnect(true);
    });
  };

  io.on('connection', (socket) => {
    socket.use((packet, next) => {
      const event = String(packet[0]);
      const limiter = limiters[EVENT_CLASSES[event] ?? 'other'];
      const userId: string = socket.data.auth?.userId ?? `anonymous:${socket.id}`;
      // Both are counted, so a user cannot dodge the per-user budget by spreading over sockets.
      Promise.all([isUnder(limiter.perSocket.consume(socket.id)), isUnder(limiter.perUser.consume(userId))]).then(
        ([isSocketUnder, isUserUnder]) => {
          if (isSocketUnder && isUserUnder) return next();
          refuse(socket, event, packet[packet.length - 1]);
        },
        (error: unknown) => {
          // An in-memory limiter does not fail; if it ever did, serve rather than drop.
          options.logger.error({ err: error }, 'socket budgets: limiter failed');
          next();
        },
      );
    });
    socket.once('disconnect', () => {
      // The per-socket counters die with their timers; the refusal count is dropped at once.
      void refusals.delete(socket.id);
    });
  });
}
