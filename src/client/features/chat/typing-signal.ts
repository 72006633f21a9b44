/**
 * Typing over a volatile channel (docs/decisions/0013): "typing" at the first keystroke and again
 * every 2 s while keystrokes keep coming, "stopped" 1000 ms after the last one (spec 001 §9). The
 * other side's indicator expires by itself 5 s after the last "typing", so a lost packet costs
 * at most a moment of indicator.
 */

/** Spec 001 §9: typing stops after 1000 ms without a keystroke. */
export const TYPING_IDLE_MS = 1000;
/** While the user keeps typing, "typing" is said again this often. */
export const TYPING_REPEAT_MS = 2000;
/** The other user's indicator goes away by itself this long after their last "typing". */
export const TYPING_SHOW_LIMIT_MS = 5000;

export type TypingSignalDeps = {
  /** Sends one volatile typing event; false when it could not be handed to a connected socket. */
  emit(isTyping: boolean): boolean;
  now?(): number;
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
};

export function createTypingSignal(deps: TypingSignalDeps) {
  const now = deps.now ?? Date.now;
  const schedule = deps.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const cancel = deps.clearTimeout ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let idleTimer: unknown;
  /** When "typing" was last sent; null while the other side has been told nothing (or "stopped"). */
  let sentAt: number | null = null;

  const stop = () => {
    cancel(idleTimer);
    idleTimer = undefined;
    if (sentAt !== null) deps.emit(false);
    sentAt = null;
  };

  return {
    /** Every keystroke. */
    keystroke() {
      const at = now();
      if (sentAt === null || at - sentAt >= TYPING_REPEAT_MS) {
        if (deps.emit(true)) sentAt = at;
      }
      cancel(idleTimer);
      idleTimer = schedule(stop, TYPING_IDLE_MS);
    },
    /** Sent, left the chat, or idle: "stopped" if "typing" went out. */
    stop,
  };
}

/**
 * The other user's indicator: on with "typing", off with "stopped", with a message of theirs, or
 * 5 s after the last "typing".
 */
export function createTypingIndicator(deps: {
  onChange(isTyping: boolean): void;
  setTimeout?(callback: () => void, ms: number): unknown;
  clearTimeout?(handle: unknown): void;
}) {
  const schedule = deps.setTimeout ?? ((callback: () => void, ms: number) => setTimeout(callback, ms));
  const cancel = deps.clearTimeout ?? ((handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  let expiry: unknown;
  const set = (isTyping: boolean) => {
    cancel(expiry);
    expiry = isTyping ? schedule(() => deps.onChange(false), TYPING_SHOW_LIMIT_MS) : undefined;
    deps.onChange(isTyping);
  };
  return { set, dispose: () => cancel(expiry) };
}
