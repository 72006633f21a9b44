import { createServer } from 'node:http';
import { createRealtime, type Realtime } from '../../src/server/plugins/realtime.ts';

/**
 * Socket.IO servers on the shared Redis adapter under a key prefix (no HTTP app behind them), for
 * tests of what nodes tell each other; `close` closes every one opened.
 */
export function redisNodes() {
  const opened: Realtime[] = [];
  return {
    async node(keyPrefix: string): Promise<Realtime> {
      const realtime = await createRealtime(createServer(), {
        redisUrl: process.env.REDIS_URL,
        keyPrefix,
        caps: { perAddress: 10, perUser: 10, clientAddress: () => '127.0.0.1' },
      });
      opened.push(realtime);
      return realtime;
    },
    close: () => Promise.all(opened.map((realtime) => realtime.close())),
  };
}
