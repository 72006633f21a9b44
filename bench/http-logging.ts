/**
 * `npm run bench -- http-logging`: what request logging costs per request, in process (Fastify's
 * `inject`, no sockets), side by side: the same route answering a swipe's `{ success, match }`
 * under app.ts's logger settings (logger.ts: redaction, the `req` serializer) written to /dev/null
 * through pino's own destination, at `silent`, at `info` with Fastify's two lines per request
 * (`incoming request`, `request completed`), and at `info` with the one access-log line of
 * plugins/request-log.ts (app.ts's); and a Fastify app without a logger as the floor. Batches of
 * BENCH_LOG_REQUESTS (4,000) interleaved, BENCH_LOG_ROUNDS (7) of each after one of warm-up;
 * CPU per request from `process.cpuUsage()` (the median of the rounds), so a loaded host moves it
 * little.
 */
import os from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { loggerOptions } from '../src/server/logger.ts';
import { createAccessLog } from '../src/server/plugins/request-log.ts';
import type { BenchResult } from './load.ts';

const REQUESTS = Number(process.env.BENCH_LOG_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.BENCH_LOG_ROUNDS ?? 7);

function appWith(logging: 'none' | 'silent' | 'two lines' | 'one line'): FastifyInstance {
  const stream = pino.destination({ dest: '/dev/null', sync: false });
  const accessLog = createAccessLog();
  const http =
    logging === 'none'
      ? Fastify({ logger: false })
      : Fastify({
          logger: { ...loggerOptions(logging === 'silent' ? 'silent' : 'info'), stream },
          ...(logging === 'one line' ? { logController: accessLog.controller } : {}),
        });
  if (logging === 'one line') accessLog.attach(http.log);
  http.post('/api/swipes/users/:id/swipe', async () => ({ success: true, match: false }));
  return http;
}

async function batch(http: FastifyInstance): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i += 1) {
    const response = await http.inject({
      method: 'POST',
      url: `/api/swipes/users/00000000-0000-4000-8000-${String(i).padStart(12, '0')}/swipe`,
      headers: { 'content-type': 'application/json' },
      payload: '{"target_user_id":"00000000-0000-4000-8000-000000000001","action":"dislike","clientId":"c-1"}',
    });
    if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

export async function benchHttpLogging(): Promise<BenchResult> {
  const sides = (['none', 'silent', 'two lines', 'one line'] as const).map((logging) => ({
    logging,
    http: appWith(logging),
    samples: [] as number[],
  }));
  for (const side of sides) await side.http.ready();
  const loadBefore = os.loadavg()[0]?.toFixed(1);
  for (let round = 0; round <= ROUNDS; round += 1) {
    for (const side of sides) {
      const perRequest = await batch(side.http);
      if (round > 0) side.samples.push(perRequest);
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const floor = median(sides[0]?.samples ?? []);
  const lines = sides.map(
    (side) =>
      `${side.logging.padEnd(10)} ${median(side.samples).toFixed(1)} µs CPU per request (+${(median(side.samples) - floor).toFixed(1)} over no logger; rounds ${side.samples.map((value) => value.toFixed(0)).join(' ')})`,
  );
  lines.push(`load average ${loadBefore} → ${os.loadavg()[0]?.toFixed(1)}`);
  for (const side of sides) await side.http.close();
  return {
    name: `Request logging, in process: ${REQUESTS} injects a batch, ${ROUNDS} interleaved rounds (floor: Fastify without a logger)`,
    lines,
  };
}
