import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createTypingIndicator,
  createTypingSignal,
  TYPING_IDLE_MS,
  TYPING_REPEAT_MS,
  TYPING_SHOW_LIMIT_MS,
} from './typing-signal.ts';

describe('typing over a volatile channel (docs/decisions/0013)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says "typing" at once and every 2 s while keys keep coming, "stopped" 1000 ms after the last', () => {
    const sent: boolean[] = [];
    const signal = createTypingSignal({ emit: (isTyping) => sent.push(isTyping) > 0 });
    signal.keystroke();
    expect(sent).toEqual([true]);
    // A keystroke every 300 ms for 4.5 s: "typing" again at 2 s and 4 s, never "stopped".
    for (let elapsed = 300; elapsed <= 4500; elapsed += 300) {
      vi.advanceTimersByTime(300);
      signal.keystroke();
    }
    expect(sent).toEqual([true, true, true]);
    vi.advanceTimersByTime(TYPING_IDLE_MS - 1);
    expect(sent).toEqual([true, true, true]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([true, true, true, false]);
    // Typing again starts over at once.
    signal.keystroke();
    expect(sent.at(-1)).toBe(true);
    expect(sent).toHaveLength(5);
  });

  it('repeats exactly on the 2 s mark and tries again at the next keystroke when it could not send', () => {
    let isConnected = false;
    const sent: boolean[] = [];
    const signal = createTypingSignal({
      emit: (isTyping) => {
        if (isConnected) sent.push(isTyping);
        return isConnected;
      },
    });
    signal.keystroke();
    expect(sent).toEqual([]);
    isConnected = true;
    vi.advanceTimersByTime(100);
    signal.keystroke();
    expect(sent).toEqual([true]);
    // Sent at 100 ms: keystrokes at 1000, 1900 and 2099 ms say nothing more, the one at 2100 ms does.
    for (const step of [900, 900, 199]) {
      vi.advanceTimersByTime(step);
      signal.keystroke();
    }
    expect(sent).toEqual([true]);
    vi.advanceTimersByTime(1);
    signal.keystroke();
    expect(sent).toEqual([true, true]);
    expect(TYPING_REPEAT_MS).toBe(2000);
  });

  it('says "stopped" on stop only when "typing" went out', () => {
    const sent: boolean[] = [];
    const signal = createTypingSignal({ emit: (isTyping) => sent.push(isTyping) > 0 });
    signal.stop();
    expect(sent).toEqual([]);
    signal.keystroke();
    signal.stop();
    expect(sent).toEqual([true, false]);
    vi.advanceTimersByTime(TYPING_IDLE_MS * 3);
    expect(sent).toEqual([true, false]);
  });

  it('shows the other user typing until "stopped", or for 5 s after their last "typing"', () => {
    const shown: boolean[] = [];
    const indicator = createTypingIndicator({ onChange: (isTyping) => shown.push(isTyping) });
    indicator.set(true);
    vi.advanceTimersByTime(TYPING_SHOW_LIMIT_MS - 1000);
    indicator.set(true);
    vi.advanceTimersByTime(TYPING_SHOW_LIMIT_MS - 1);
    expect(shown).toEqual([true, true]);
    // Their "stopped" was lost: the indicator goes by itself.
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([true, true, false]);
    indicator.set(true);
    indicator.set(false);
    vi.advanceTimersByTime(TYPING_SHOW_LIMIT_MS * 2);
    expect(shown).toEqual([true, true, false, true, false]);
    indicator.set(true);
    indicator.dispose();
    vi.advanceTimersByTime(TYPING_SHOW_LIMIT_MS * 2);
    expect(shown.at(-1)).toBe(true);
  });
});
