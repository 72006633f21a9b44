/**
 * Per-key lanes (docs/decisions/0018 §7, #15): tasks with the same key run one at a time in the
 * order they were queued; different keys run in parallel, and an idle key costs nothing. The chat
 * keys them by sender and conversation, so a client that pipelines without waiting for
 * acknowledgements gets its messages stored, acknowledged and announced in emission order.
 * `run` must be called synchronously when the work arrives, before any await, or the order is lost.
 */
export function createLanes() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, task: () => Promise<T>): Promise<T> {
      const previous = tails.get(key);
      const result = previous ? previous.then(task, task) : task();
      const tail = result.then(
        () => {},
        () => {},
      );
      tails.set(key, tail);
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    /** Keys with work queued or running (tests, metrics). */
    get size() {
      return tails.size;
    },
  };
}
