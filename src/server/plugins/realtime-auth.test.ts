import http from 'node:http';
import type net from 'node:net';
import { Server } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { TOKEN_INVALIDATED_EVENT } from '#shared/auth/auth-constants';
import { attachSocketAuth, createRevocationBroadcaster } from './realtime-auth.ts';

const quiet = { warn() {}, info() {}, error() {}, debug() {} } as never;

describe('socket authentication', () => {
  it('drops a socket whose session was revoked while its handshake was in the middleware', async () => {
    const server = http.createServer();
    const io = new Server(server);
    let isRevoked = false;
    const revoke = createRevocationBroadcaster(io);
    attachSocketAuth(io, {
      clock: { now: () => new Date() } as never,
      logger: quiet,
      sessions: {
        async verifyToken() {
          // The token is fine when checked; the session is revoked (a logout on another device)
          // before the socket has joined its rooms and connected, so the broadcast finds no one.
          const session = { userId: 'u1', sessionId: 's1', sessionEndsAt: new Date(Date.now() + 3_600_000) };
          setImmediate(() => {
            isRevoked = true;
            revoke({ scope: 'session', userId: 'u1', sessionIds: ['s1'], reason: 'revoked' } as never);
          });
          await new Promise((resolve) => setTimeout(resolve, 20));
          return session as never;
        },
        async isLive() {
          return !isRevoked;
        },
        async sessionEnd() {
          return undefined;
        },
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const client = connect(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      reconnection: false,
      auth: { token: 'a-token' },
    });
    try {
      // The client sends nothing: only the server can end it (before the fix, it stayed connected).
      const invalidated = new Promise((resolve) => client.on(TOKEN_INVALIDATED_EVENT, resolve));
      const disconnected = new Promise((resolve) => client.on('disconnect', resolve));
      expect(await invalidated).toMatchObject({ reason: 'expired' });
      expect(await disconnected).toBe('io server disconnect');
      expect(isRevoked).toBe(true);
    } finally {
      client.close();
      await io.close();
    }
  });
});
