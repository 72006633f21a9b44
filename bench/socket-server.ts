/**
 * The server side of the idle-socket bench, as its own process (its own file limit and RSS).
 * MODE=app: the whole app on a throwaway embedded PostgreSQL, one user with a session (the token is printed);
 * MODE=bare: a bare Socket.IO server. Prints one JSON line when listening, then answers stdin:
 * "stats" → a JSON line with RSS, heap, sockets and the event-loop delay since the last "stats".
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { Server } from 'socket.io';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';

const mode = process.env.MODE === 'bare' ? 'bare' : 'app';
let port: number;
let token = '';
let countSockets: () => number;

if (mode === 'bare') {
  const http = createServer();
  const io = new Server(http, { transports: ['websocket'] });
  io.on('connection', (socket) => void socket.join(`user:${randomBytes(4).toString('hex')}`));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
  countSockets = () => io.engine.clientsCount;
} else {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/entreno-bench' }),
    isEphemeral: true,
    tokenSecret: randomBytes(32).toString('hex'),
    // One user's token opens every socket, all from loopback: the caps would refuse them.
    socketsPerUser: 1_000_000,
    socketsPerAddress: 1_000_000,
  };
  const app = await buildApp(config);
  const user = await app.auth.users.createUser({
    name: 'Bench',
    lastName: 'Sockets',
    email: 'sockets@bench.entreno.app',
    phone: null,
    password: null,
  });
  token = (await app.auth.sessions.issueSession(user.id, { rememberMe: true })).token;
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  port = (app.http.server.address() as AddressInfo).port;
  countSockets = () => app.realtime.io.engine.clientsCount;
}

// Samples are the timer's whole interval: the delay is what exceeds RESOLUTION_MS.
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
globalThis.gc?.();
console.log(JSON.stringify({ port, token, pid: process.pid }));

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (line.trim() !== 'stats') return;
  globalThis.gc?.();
  const memory = process.memoryUsage();
  console.log(
    JSON.stringify({
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      sockets: countSockets(),
      delayP50: Math.max(0, histogram.percentile(50) / 1e6 - RESOLUTION_MS),
      delayP99: Math.max(0, histogram.percentile(99) / 1e6 - RESOLUTION_MS),
      delayMax: Math.max(0, histogram.max / 1e6 - RESOLUTION_MS),
    }),
  );
  histogram.reset();
});
lines.on('close', () => process.exit(0));
