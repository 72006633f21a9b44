import { io, type Socket } from 'socket.io-client';
import type { TestApp } from './test-app.ts';

/** A real socket.io-client connection to a test app; resolves once connected. */
export async function connectSocket(
  app: TestApp,
  credentials: { token?: string; authorization?: string },
): Promise<Socket> {
  const socket = io(app.url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    auth: credentials.token ? { token: credentials.token } : {},
    extraHeaders: credentials.authorization ? { authorization: credentials.authorization } : {},
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return socket;
}

/** Resolves with the first `event` the socket receives (rejects after a few seconds). */
export function nextEvent<T = unknown>(socket: Socket, event: string, timeoutMs = 5000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/**
 * Sends again every `everyMs` until `received` settles. Typing is relayed volatile, so the server
 * may drop it while the recipient's transport is still busy with an earlier packet; the app's
 * client re-sends typing while the person types (features/chat/typing-signal.ts), and so do tests.
 */
export async function resendUntil<T>(received: Promise<T>, send: () => void, everyMs = 200): Promise<T> {
  send();
  const timer = setInterval(send, everyMs);
  try {
    return await received;
  } finally {
    clearInterval(timer);
  }
}

/** A conversation id no test uses: leaving its room changes nothing. */
const NO_CONVERSATION = '00000000-0000-4000-8000-000000000000';

/**
 * The barrier of a "nothing else arrives" check, instead of a sleep: an acknowledged event on the
 * socket's own connection. The server writes to one connection in order, so once the answer is
 * back, every packet it had queued for this socket before has arrived too. Call it once the server
 * has visibly handled the action (another socket received its event, or its ack came back), then
 * assert what this socket did not get. (It leaves the room of a conversation nobody is in.)
 */
export async function roundTrip(socket: Socket): Promise<void> {
  await socket.timeout(5000).emitWithAck('leaveConversation', { conversationId: NO_CONVERSATION });
}
