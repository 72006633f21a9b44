import { describe, expect, it } from 'vitest';
import { formatBadgeCount, MESSAGE_BADGE_MAX, NOTIFICATION_BADGE_MAX } from './badge-count.ts';

describe('formatBadgeCount', () => {
  it('shows nothing for zero, negative or non-finite counts', () => {
    for (const count of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatBadgeCount(count, MESSAGE_BADGE_MAX)).toBeNull();
    }
  });

  it('shows the bell count up to 9, then 9+', () => {
    expect(formatBadgeCount(1, NOTIFICATION_BADGE_MAX)).toBe('1');
    expect(formatBadgeCount(9, NOTIFICATION_BADGE_MAX)).toBe('9');
    expect(formatBadgeCount(10, NOTIFICATION_BADGE_MAX)).toBe('9+');
  });

  it('shows message counts up to 99, then 99+', () => {
    expect(formatBadgeCount(99, MESSAGE_BADGE_MAX)).toBe('99');
    expect(formatBadgeCount(100, MESSAGE_BADGE_MAX)).toBe('99+');
    expect(formatBadgeCount(12_345, MESSAGE_BADGE_MAX)).toBe('99+');
  });
});
