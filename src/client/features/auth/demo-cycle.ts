/** Spec 000 §9: the demo advances every 3 s after an 800 ms delay; the login form shows after 600 ms. */
export const DEMO_INITIAL_DELAY_MS = 800;
export const DEMO_INTERVAL_MS = 3000;
export const LOGIN_FORM_DELAY_MS = 600;

/**
 * The demo carousel's clock: `onReady` after `initialDelayMs` (the first card comes in), then
 * `onStep` every `intervalMs`. `restart` (after a manual step) waits a full interval again, so the
 * card just chosen stays up; `pause` keeps the current card.
 */
export function createDemoCycle(options: {
  onReady(): void;
  onStep(): void;
  initialDelayMs?: number;
  intervalMs?: number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}) {
  const initialDelayMs = options.initialDelayMs ?? DEMO_INITIAL_DELAY_MS;
  const intervalMs = options.intervalMs ?? DEMO_INTERVAL_MS;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let timer: unknown;

  const clear = () => {
    if (timer !== undefined) clearTimer(timer);
    timer = undefined;
  };
  const schedule = (ms: number) => {
    clear();
    timer = setTimer(() => {
      timer = undefined;
      options.onStep();
      schedule(intervalMs);
    }, ms);
  };

  return {
    /** Begins with the initial delay; with `isPaused` only the first card comes in. */
    start(isPaused = false) {
      clear();
      timer = setTimer(() => {
        timer = undefined;
        options.onReady();
        if (!isPaused) schedule(intervalMs);
      }, initialDelayMs);
    },
    restart: () => schedule(intervalMs),
    stop() {
      if (timer !== undefined) clearTimer(timer);
      timer = undefined;
    },
  };
}
