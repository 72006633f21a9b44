/**
 * `npm run bench`: every figure next to a baseline measured in the same run, printed as a ratio.
 * `npm run bench -- <name> [<name>…]` runs some of them. PostgreSQL benches need DATABASE_URL
 * (and REDIS_URL for the scaled setup); without them they say they were skipped.
 */
import os from 'node:os';
import type { BenchResult } from './load.ts';

// Loaded on demand: `npm run bench -- client` needs neither a database nor socket.io.
const BENCHES: Record<string, () => Promise<BenchResult | BenchResult[]>> = {
  http: async () => (await import('./http-overhead.ts')).benchHttpOverhead(),
  'http-logging': async () => (await import('./http-logging.ts')).benchHttpLogging(),
  recommendations: async () => (await import('./recommendations.ts')).benchRecommendations(),
  'deck-profile': async () => (await import('./deck-profile.ts')).benchDeckProfile(),
  'deck-tail': async () => (await import('./deck-tail.ts')).benchDeckTail(),
  'nearby-sessions': async () => (await import('./nearby-sessions.ts')).benchNearbySessions(),
  swipes: async () => (await import('./swipes.ts')).benchSwipes(),
  messages: async () => (await import('./messages.ts')).benchMessages(),
  'message-cost': async () => (await import('./message-cost.ts')).benchMessageCost(),
  'swipe-cost': async () => (await import('./swipe-cost.ts')).benchSwipeCost(),
  sockets: async () => (await import('./sockets.ts')).benchSockets(),
  memory: async () => (await import('./memory.ts')).benchMemory(),
  client: async () => (await import('./client.ts')).benchClient(),
  limiter: async () => (await import('./limiter.ts')).benchLimiter(),
  startup: async () => (await import('./startup.ts')).benchStartup(),
};

const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = asked.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown bench: ${unknown.join(', ')}. Choose from: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
const names = asked.length > 0 ? asked : Object.keys(BENCHES);

const cpus = os.cpus();
console.log(
  `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB, ${os.type()} ${os.release()}, Node ${process.version}; load average at start ${os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}`,
);
let failed = false;
// A server closed while work is still in flight must not end the whole run: report and go on.
process.on('unhandledRejection', (error) => {
  console.log(
    `  unhandled rejection (in the app, during close?): ${error instanceof Error ? error.message : String(error)}`,
  );
});
for (const name of names) {
  const started = performance.now();
  try {
    const outcome = await (BENCHES[name] as () => Promise<BenchResult | BenchResult[]>)();
    for (const result of Array.isArray(outcome) ? outcome : [outcome]) {
      console.log(`\n${result.name}`);
      for (const line of result.lines) console.log(`  ${line}`);
    }
  } catch (error) {
    failed = true;
    console.log(`\n${name}: FAILED`);
    console.log(`  ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  console.log(
    `  (${name}: ${((performance.now() - started) / 1000).toFixed(0)} s; load average now ${os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ')})`,
  );
}
process.exit(failed ? 1 : 0);
