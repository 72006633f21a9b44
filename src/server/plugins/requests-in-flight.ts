import type { FastifyInstance } from 'fastify';

export type RequestsInFlight = {
  readonly count: number;
  /** Resolves once no HTTP request is being handled (at once when none is). */
  idle(): Promise<void>;
};

/**
 * Counts the HTTP requests under way, so a graceful stop lets them finish before it closes the
 * sockets and the database (main.ts, docs/decisions/0024). One increment and one decrement each.
 */
export function trackRequestsInFlight(http: FastifyInstance): RequestsInFlight {
  let count = 0;
  let waiters: (() => void)[] = [];
  http.addHook('onRequest', (_request, reply, done) => {
    count += 1;
    // 'close' fires once per response: when it is sent, or when the client went away first.
    reply.raw.once('close', () => {
      count -= 1;
      if (count === 0 && waiters.length > 0) {
        for (const resolve of waiters) resolve();
        waiters = [];
      }
    });
    done();
  });
  return {
    get count() {
      return count;
    },
    idle() {
      if (count === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}
