import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FALLBACK_LOCATION, LOCATION_TIMEOUT_MS, readLoginLocation } from './geolocation.ts';

type Success = PositionCallback;
type Failure = PositionErrorCallback | null | undefined;

function fakeGeolocation() {
  const calls: { success: Success; failure: Failure; options?: PositionOptions }[] = [];
  return {
    calls,
    getCurrentPosition(success: Success, failure?: Failure, options?: PositionOptions) {
      calls.push({ success, failure, options });
    },
  };
}

const position = (latitude: number, longitude: number) =>
  ({ coords: { latitude, longitude }, timestamp: Date.now() }) as unknown as GeolocationPosition;

describe('login location (spec 000 §7: 5 s time-out, Madrid fallback)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('falls back to Madrid at once without geolocation', async () => {
    await expect(readLoginLocation({ geolocation: null })).resolves.toEqual(FALLBACK_LOCATION);
    expect(FALLBACK_LOCATION).toMatchObject({ latitude: 40.4168, longitude: -3.7038 });
  });

  it('uses the device position when it arrives in time', async () => {
    const geolocation = fakeGeolocation();
    const pending = readLoginLocation({ geolocation });
    vi.advanceTimersByTime(1200);
    geolocation.calls[0]?.success(position(41.39, 2.17));
    await expect(pending).resolves.toEqual({ latitude: 41.39, longitude: 2.17, source: 'device' });
    expect(geolocation.calls[0]?.options?.timeout).toBe(LOCATION_TIMEOUT_MS);
  });

  it('falls back after 5 s when nothing arrives (a permission prompt left open)', async () => {
    const geolocation = fakeGeolocation();
    let settled: unknown;
    void readLoginLocation({ geolocation }).then((value) => {
      settled = value;
    });
    await vi.advanceTimersByTimeAsync(LOCATION_TIMEOUT_MS - 1);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toEqual(FALLBACK_LOCATION);
    // A late answer changes nothing.
    geolocation.calls[0]?.success(position(1, 1));
    expect(settled).toEqual(FALLBACK_LOCATION);
  });

  it('falls back when the person refuses or the platform throws', async () => {
    const refusing = fakeGeolocation();
    const pending = readLoginLocation({ geolocation: refusing });
    refusing.calls[0]?.failure?.({ code: 1, message: 'denied' } as GeolocationPositionError);
    await expect(pending).resolves.toEqual(FALLBACK_LOCATION);

    const throwing = {
      getCurrentPosition() {
        throw new Error('blocked');
      },
    };
    await expect(readLoginLocation({ geolocation: throwing })).resolves.toEqual(FALLBACK_LOCATION);
  });
});
