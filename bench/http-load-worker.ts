/**
 * Runs an open-loop HTTP load in a worker thread, so the client's own work (fetch, JSON parsing)
 * does not share the server's event loop. Input: workerData = HttpLoad; output: HttpLoadResult.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openLoop } from './load.ts';

export type HttpRequestSpec = { method: string; url: string; headers?: Record<string, string>; body?: string };
export type HttpLoad = {
  rate: number;
  requests: HttpRequestSpec[];
  countProfiles?: boolean;
  /** Count the items of this array of each answer instead of `profiles` (e.g. `sessions`). */
  countKey?: string;
  /** Closed loop instead: this many requests in flight, for at most `seconds` (saturated throughput). */
  closed?: { concurrency: number; seconds: number };
};
export type HttpLoadResult = {
  latenciesMs: number[];
  errors: number;
  elapsedMs: number;
  sent: number;
  overloaded: boolean;
  statuses: Record<number, number>;
  /** With countProfiles (or countKey): answers whose `profiles` (`countKey`) array was not empty, and the items they held. */
  nonEmpty: number;
  profiles: number;
  firstError?: string;
};

const load = workerData as HttpLoad;
const statuses: Record<number, number> = {};
let nonEmpty = 0;
let profiles = 0;
async function fire(index: number) {
  const spec = load.requests[index] as HttpRequestSpec;
  const response = await fetch(spec.url, { method: spec.method, headers: spec.headers, body: spec.body });
  statuses[response.status] = (statuses[response.status] ?? 0) + 1;
  if (load.countProfiles || load.countKey) {
    const body = (await response.json()) as Record<string, unknown>;
    const items = body[load.countKey ?? 'profiles'];
    if (Array.isArray(items) && items.length > 0) {
      nonEmpty += 1;
      profiles += items.length;
    }
  } else {
    await response.arrayBuffer();
  }
  if (response.status >= 400) throw new Error(`HTTP ${response.status}`);
}

async function closedLoop(concurrency: number, seconds: number) {
  const start = performance.now();
  const latenciesMs: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: unknown;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < load.requests.length && performance.now() - start < seconds * 1000) {
        const index = next;
        next += 1;
        const sent = performance.now();
        try {
          await fire(index);
        } catch (error) {
          errors += 1;
          firstError ??= error;
        }
        latenciesMs.push(performance.now() - sent);
      }
    }),
  );
  return { latenciesMs, errors, elapsedMs: performance.now() - start, sent: next, overloaded: false, firstError };
}

const result = load.closed
  ? await closedLoop(load.closed.concurrency, load.closed.seconds)
  : await openLoop({ rate: load.rate, count: load.requests.length, fire });
parentPort?.postMessage({
  latenciesMs: result.latenciesMs,
  errors: result.errors,
  elapsedMs: result.elapsedMs,
  sent: result.sent,
  overloaded: result.overloaded,
  statuses,
  nonEmpty,
  profiles,
  firstError: result.firstError ? String(result.firstError) : undefined,
} satisfies HttpLoadResult);
