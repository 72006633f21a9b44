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
