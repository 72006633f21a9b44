/**
 * Open-loop load: operation i is scheduled at start + i / rate whatever happened before, and its
 * latency is measured from that scheduled time (coordinated-omission correction: a stall delays
 * every later send, and each of them is charged for the wait).
 *
 * When more than `maxInFlight` (default: one second's worth) are unanswered, the server is not
 * keeping up: sending stops (`overloaded`, `sent` < count) so an overloaded run still ends in
 * bounded time; the latencies of what was sent, queueing included, are kept.
 */
export async function openLoop(options: {
  rate: number;
  count: number;
  fire: (index: number) => Promise<void>;
  maxInFlight?: number;
}): Promise<{
  latenciesMs: number[];
  errors: number;
  elapsedMs: number;
  sent: number;
  overloaded: boolean;
  firstError?: unknown;
}> {
  const { rate, count, fire } = options;
  const maxInFlight = options.maxInFlight ?? Math.max(50, rate);
  const latenciesMs: number[] = [];
  let errors = 0;
  let inFlight = 0;
  let overloaded = false;
  let firstError: unknown;
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < count && start + (next * 1000) / rate <= now) {
        if (inFlight >= maxInFlight) {
          overloaded = true;
          break;
        }
        const index = next;
        inFlight += 1;
        const scheduled = start + (index * 1000) / rate;
        next += 1;
        pending.push(
          fire(index).then(
            () => {
              inFlight -= 1;
              latenciesMs.push(performance.now() - scheduled);
            },
            (error) => {
              inFlight -= 1;
              errors += 1;
              firstError ??= error;
              latenciesMs.push(performance.now() - scheduled);
            },
          ),
        );
      }
      if (next >= count || overloaded) resolve();
      else setTimeout(tick, Math.max(0, start + (next * 1000) / rate - performance.now() - 0.5));
    };
    tick();
  });
  await Promise.all(pending);
  return { latenciesMs, errors, elapsedMs: performance.now() - start, sent: next, overloaded, firstError };
}

/** "p50 a  baseline b  ratio r×" lines for p50/p95/p99. */
export function compareLines(
  measured: { p50: number; p95: number; p99: number },
  baseline: { p50: number; p95: number; p99: number },
): string[] {
  return (['p50', 'p95', 'p99'] as const).map(
    (key) =>
      `${key}: ${measured[key].toFixed(2)} ms  baseline ${baseline[key].toFixed(2)} ms  ratio ${(measured[key] / baseline[key]).toFixed(2)}x`,
  );
}

export type BenchResult = { name: string; lines: string[] };

/** What a run achieved: "achieved N/s" or, when it stopped, how far it got. */
export function achieved(run: { sent: number; elapsedMs: number; overloaded: boolean; errors: number }, count: number) {
  const rate = ((run.sent - run.errors) / run.elapsedMs) * 1000;
  return run.overloaded
    ? `OVERLOADED: stopped after ${run.sent} of ${count} (over a second's worth unanswered), ${rate.toFixed(0)}/s completed`
    : `achieved ${rate.toFixed(0)}/s`;
}
