/** Touch swipe rules (spec 001 §2, §9): left is dislike, right is like, from 50 px. */
import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import { SWIPE_THRESHOLD_PX } from '#shared/profile/options';

/** The action a released drag means, or null when it stayed under the threshold or was mostly vertical. */
export function swipeActionForDrag(dx: number, dy = 0, threshold = SWIPE_THRESHOLD_PX): SwipeAction | null {
  if (!Number.isFinite(dx) || Math.abs(dx) < threshold) return null;
  if (Math.abs(dy) > Math.abs(dx)) return null;
  return dx > 0 ? 'like' : 'dislike';
}

/** The card's tilt while dragging, in degrees, capped so it never looks silly. */
export function dragRotation(dx: number): number {
  return Math.max(-15, Math.min(15, dx / 18));
}

/** How strongly a badge ("Entreno" / "Rechazar") shows while dragging: 0 to 1, full at the threshold. */
export function dragIntent(dx: number, threshold = SWIPE_THRESHOLD_PX): number {
  return Math.min(1, Math.abs(dx) / (threshold * 2));
}
