/**
 * The device's position for the login call (spec 000 §7 notes): read with a 5 s time-out and
 * Madrid's centre as the fallback. The server snaps whatever it receives to about 1 km
 * (QUALITY 9), so a coarse, cached fix is all we ask the browser for.
 */
import { DEFAULT_LOCATION } from '#shared/auth/auth-constants';

/** Spec 000 §9: "Location time-out 5000 ms". */
export const LOCATION_TIMEOUT_MS = 5000;

/** A fix younger than this is good enough: the server keeps only ~1 km cells. */
const MAX_POSITION_AGE_MS = 10 * 60 * 1000;

export type LoginLocation = {
  readonly latitude: number;
  readonly longitude: number;
  /** 'device' when the browser answered in time, 'fallback' for the default coordinates. */
  readonly source: 'device' | 'fallback';
};

export type LocationOptions = {
  /** The browser's Geolocation; null when the platform has none. Defaults to `navigator.geolocation`. */
  geolocation?: Pick<Geolocation, 'getCurrentPosition'> | null;
  timeoutMs?: number;
  /** Timer functions, so tests can use fake timers or a manual clock. */
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
};

export const FALLBACK_LOCATION: LoginLocation = {
  latitude: DEFAULT_LOCATION.latitude,
  longitude: DEFAULT_LOCATION.longitude,
  source: 'fallback',
};

function defaultGeolocation(): Pick<Geolocation, 'getCurrentPosition'> | null {
  return typeof navigator !== 'undefined' && 'geolocation' in navigator ? navigator.geolocation : null;
}

/**
 * Resolves with the device's position, or with the Madrid fallback when the browser has no
 * geolocation, the person refuses, the fix fails or nothing arrives within the time-out. Never
 * rejects. Our own timer matters: the browser's `timeout` option does not count the time a
 * permission prompt stays open.
 */
export function readLoginLocation(options: LocationOptions = {}): Promise<LoginLocation> {
  const geolocation = options.geolocation === undefined ? defaultGeolocation() : options.geolocation;
  const timeoutMs = options.timeoutMs ?? LOCATION_TIMEOUT_MS;
  const setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
  if (!geolocation) return Promise.resolve(FALLBACK_LOCATION);

  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (location: LoginLocation) => {
      if (isSettled) return;
      isSettled = true;
      clearTimer(timer);
      resolve(location);
    };
    const timer = setTimer(() => settle(FALLBACK_LOCATION), timeoutMs);
    try {
      geolocation.getCurrentPosition(
        (position) => {
          const { latitude, longitude } = position.coords;
          const isUsable = Number.isFinite(latitude) && Number.isFinite(longitude);
          settle(isUsable ? { latitude, longitude, source: 'device' } : FALLBACK_LOCATION);
        },
        () => settle(FALLBACK_LOCATION),
        { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: MAX_POSITION_AGE_MS },
      );
    } catch {
      // Some embedded browsers throw instead of calling the error callback.
      settle(FALLBACK_LOCATION);
    }
  });
}
