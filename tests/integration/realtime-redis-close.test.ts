// @setup scaled — the Redis adapter's connections closed on shutdown
import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRealtime, type Realtime } from '../../src/server/plugins/realtime.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.REDIS_URL;

/**
 * A node closing while work is still in flight (a delivery drain's emits, a revocation, a
 * presence lookup) must not turn Redis's "Connection is closed" into an unhandled rejection, which
 * ends a Node process: each such failure is reported to `onRedisError` instead.
 */
describe.runIf(isScaled)('Socket.IO on the Redis adapter after close', () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  let realtime: Realtime | undefined;

  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
    unhandled.length = 0;
  });

  it('emits, disconnects and lookups after close are reported, never left unhandled', async () => {
    process.on('unhandledRejection', onUnhandled);
    const reported: unknown[] = [];
    const server = createServer();
    realtime = await createRealtime(server, {
      redisUrl: process.env.REDIS_URL,
      onRedisError: (error) => reported.push(error),
      caps: { perAddress: 10, perUser: 10, clientAddress: () => '127.0.0.1' },
    });
    const { io } = realtime;
    await realtime.close();

    io.to('user:someone').emit('newMessage', { text: 'tarde' });
    io.in('session:gone').disconnectSockets(true);
    io.serverSideEmit('ping');
    await expect(io.in('conversation:x').fetchSockets()).rejects.toThrow(/closed/i);
    // Until every rejection above has settled and its handlers have run.
    for (let turn = 0; turn < 20 && reported.length < 3; turn += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setImmediate(resolve));

    expect(unhandled).toEqual([]);
    expect(reported.length).toBeGreaterThanOrEqual(3);
    for (const error of reported) expect(String(error)).toMatch(/closed|EPIPE|ECONNRESET/i);
    server.close();
  });
});
