/**
 * The profile follows the device (spec 001 §7 "Update location: PUT /profiles/{userId}/location"):
 * when the device's position moves to another 3 km cell (docs/decisions/0026) than the one it was
 * last seen in on this device, the new position is sent. The first reading only notes the cell: a
 * profile placed elsewhere on purpose (the wizard, the editor) is not moved until the device
 * itself moves. The position is read only where the person already allowed it: this never prompts.
 * The last cell is kept in the user's local database, which sign-out wipes.
 */
import { subscribe } from 'valtio';
import { gridCell, haversineKm, type LatLon } from '#shared/discovery/distance';
import type { OwnProfile } from '#shared/profile/profile-views';
import { dbFor, readMeta, writeMeta } from '../../services/local-db.ts';
import { onSignOut } from '../../services/session.ts';
import { updateLocation } from './profile-api.ts';
import { ownProfileState, setOwnProfile } from './own-profile-store.ts';

/** Within this distance of the profile's position the city it names is kept; farther, it is dropped. */
export const KEEP_CITY_WITHIN_KM = 20;
/** At most one reading per this long while the app stays open (the server limits moves too: 0026). */
export const FOLLOW_INTERVAL_MS = 10 * 60 * 1000;
/** The `meta` key of the cell the device was last seen in. */
const DEVICE_CELL_KEY = 'location:device-cell';

export type LocationFollowDeps = {
  /** The device's position, or null when unknown or not allowed (never asks the person). */
  readPosition(): Promise<LatLon | null>;
  /** The cell the device was last seen in for this user ("row:column"), or null. */
  readDeviceCell(userId: string): Promise<string | null>;
  writeDeviceCell(userId: string, cell: string): Promise<void>;
  updateLocation(
    userId: string,
    location: { latitude: number; longitude: number; city?: string | null },
  ): Promise<OwnProfile>;
  log(message: string, error?: unknown): void;
};

export type FollowOutcome = 'moved' | 'first-reading' | 'same-cell' | 'no-position' | 'failed';

const cellKey = (position: LatLon) => {
  const cell = gridCell(position.latitude, position.longitude);
  return `${cell.row}:${cell.column}`;
};

/** One check: PUTs the device's position when the device moved to another cell since last seen. */
export async function followDeviceLocation(
  profile: OwnProfile,
  deps: LocationFollowDeps,
  onMoved: (profile: OwnProfile) => void = () => {},
): Promise<FollowOutcome> {
  const position = await deps.readPosition();
  if (!position) return 'no-position';
  const here = cellKey(position);
  const before = await deps.readDeviceCell(profile.userId);
  if (before === null) {
    await deps.writeDeviceCell(profile.userId, here);
    return 'first-reading';
  }
  // The device stayed, or the profile is already where the device went (edited meanwhile).
  if (before === here || cellKey(profile.location) === here) {
    if (before !== here) await deps.writeDeviceCell(profile.userId, here);
    return 'same-cell';
  }
  const isNear = haversineKm(position, profile.location) <= KEEP_CITY_WITHIN_KM;
  try {
    const updated = await deps.updateLocation(profile.userId, {
      latitude: position.latitude,
      longitude: position.longitude,
      ...(isNear && profile.location.city ? { city: profile.location.city } : {}),
    });
    await deps.writeDeviceCell(profile.userId, here);
    onMoved(updated);
    return 'moved';
  } catch (error) {
    // A refused move (the daily limit, too far too fast: 0026) or no network: tried at the next check.
    deps.log('the profile position could not follow the device', error);
    return 'failed';
  }
}

/** The device's position only when geolocation is already granted (no prompt outside the wizard). */
export async function readGrantedPosition(): Promise<LatLon | null> {
  if (typeof navigator === 'undefined' || !('geolocation' in navigator) || !navigator.permissions) return null;
  try {
    const permission = await navigator.permissions.query({ name: 'geolocation' });
    if (permission.state !== 'granted') return null;
  } catch {
    return null;
  }
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (position) => resolve({ latitude: position.coords.latitude, longitude: position.coords.longitude }),
      () => resolve(null),
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: FOLLOW_INTERVAL_MS },
    );
  });
}

const appDeps: LocationFollowDeps = {
  readPosition: readGrantedPosition,
  async readDeviceCell(userId) {
    const db = dbFor(userId);
    return db ? ((await readMeta(db, DEVICE_CELL_KEY)) ?? null) : null;
  },
  async writeDeviceCell(userId, cell) {
    const db = dbFor(userId);
    if (db) await writeMeta(db, DEVICE_CELL_KEY, cell);
  },
  updateLocation,
  log: (message, error) => console.warn(`[location] ${message}`, error ?? ''),
};

let isStarted = false;
let lastCheckAt = Number.NEGATIVE_INFINITY;
let isChecking = false;

/**
 * Checks once the own profile is loaded, and again when the app comes back to the screen (at most
 * every 10 minutes). Started with the signed-in runtime.
 */
export function startLocationFollow(deps: LocationFollowDeps = appDeps, now: () => number = Date.now): void {
  if (isStarted) return;
  isStarted = true;
  const check = () => {
    const current = ownProfileState.current;
    if (current.status !== 'ready' || isChecking || now() - lastCheckAt < FOLLOW_INTERVAL_MS) return;
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return;
    isChecking = true;
    lastCheckAt = now();
    void followDeviceLocation(current.profile, deps, setOwnProfile)
      .catch((error: unknown) => deps.log('the device position could not be checked', error))
      .finally(() => {
        isChecking = false;
      });
  };
  subscribe(ownProfileState, check);
  if (typeof document !== 'undefined') document.addEventListener('visibilitychange', check);
  check();
  onSignOut(() => {
    lastCheckAt = Number.NEGATIVE_INFINITY;
  });
}
