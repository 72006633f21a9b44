/**
 * A pass that each node runs every `intervalMs` (a job runner whose claim in the database keeps
 * nodes apart): never two passes at once on one node; `close()` stops it and waits for the pass
 * under way. A failed pass is logged and the next tick tries again.
 */
export function periodicPass(pass: () => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running) return;
    running = pass()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      timer ??= setInterval(tick, intervalMs);
      timer.unref();
      tick();
    },
    async close() {
      clearInterval(timer);
      await running;
    },
  };
}
