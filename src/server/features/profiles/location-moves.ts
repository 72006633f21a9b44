import { haversineKm, type LatLon } from '#shared/discovery/distance';
import type { RateLimitRule } from '../../infra/rate-limit.ts';

/**
 * How often and how far a profile's position may move (docs/decisions/0026). Moves inside the
 * same 3 km cell change nothing and count for nothing; a move to another cell counts against a
 * daily budget, and may not be farther than a free radius plus what a plane covers since the last
 * move. Someone who spoofs their own position to probe another person gets a handful of probes a
 * day, each of which only tells them about 3 km cells anyway.
 */
export const LOCATION_MOVE_RULE: RateLimitRule = { name: 'profile-location-move', limit: 10, windowMs: 86_400_000 };
/** A move this far is always allowed (a commute, a wrong first reading corrected). */
export const LOCATION_FREE_MOVE_KM = 100;
/** Beyond the free radius: no faster than an airliner since the previous move. */
export const LOCATION_MAX_SPEED_KMH = 900;

type Position = LatLon & { locationChangedAt: Date | null };

/** Whether two snapped positions are different cells (snapping is exact, so equality is enough). */
export function isNewCell(current: LatLon, next: LatLon): boolean {
  return current.latitude !== next.latitude || current.longitude !== next.longitude;
}

/** Whether `next` is reachable from `current` since its last move; the first move is always allowed. */
export function isPlausibleMove(current: Position, next: LatLon, now: Date): boolean {
  if (!current.locationChangedAt) return true;
  const hours = Math.max(0, now.getTime() - current.locationChangedAt.getTime()) / 3_600_000;
  return haversineKm(current, next) <= LOCATION_FREE_MOVE_KM + LOCATION_MAX_SPEED_KMH * hours;
}
