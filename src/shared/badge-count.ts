/** Caps of the navigation badges (spec 001 §2 and §9): the bell shows 9+, message counts 99+. */
export const NOTIFICATION_BADGE_MAX = 9;
export const MESSAGE_BADGE_MAX = 99;

/** Text of a count badge: null when there is nothing to show, `${max}+` above the cap. */
export function formatBadgeCount(count: number, max: number): string | null {
  if (!Number.isFinite(count) || count <= 0) return null;
  const whole = Math.floor(count);
  return whole > max ? `${max}+` : String(whole);
}
