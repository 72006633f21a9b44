import { describe, expect, it, vi } from 'vitest';
import { gridCell, snapToGrid } from '#shared/discovery/distance';
import type { OwnProfile } from '#shared/profile/profile-views';
import { ApiRequestError } from '../../services/http.ts';
import { followDeviceLocation, type LocationFollowDeps } from './location-follow.ts';
import { ownProfileFixture } from './own-profile.fixture.ts';

/** A profile stored, as the server stores it, at the centre of the 3 km cell of Puerta del Sol. */
const SOL = snapToGrid(40.4168, -3.7038);
const profile = ownProfileFixture({ location: { ...SOL, city: 'Madrid' } });
/** Retiro, about 2.5 km east of Sol: another 3 km cell, the same city. */
const RETIRO = { latitude: 40.4153, longitude: -3.6745 };
const cellOf = (position: { latitude: number; longitude: number }) => {
  const cell = gridCell(position.latitude, position.longitude);
  return `${cell.row}:${cell.column}`;
};

function deps(
  position: { latitude: number; longitude: number } | null,
  lastCell: string | null,
  update?: LocationFollowDeps['updateLocation'],
) {
  const cells = new Map<string, string>(lastCell === null ? [] : [['u1', lastCell]]);
  return {
    cells,
    readPosition: vi.fn(async () => position),
    readDeviceCell: vi.fn(async (userId: string) => cells.get(userId) ?? null),
    writeDeviceCell: vi.fn(async (userId: string, cell: string) => void cells.set(userId, cell)),
    updateLocation: vi.fn(
      update ?? (async (_userId: string, location: OwnProfile['location']) => ({ ...profile, location })),
    ),
    log: vi.fn(),
  };
}

describe('the profile follows the device (spec 001 §7 PUT /profiles/{userId}/location)', () => {
  it('sends the position when the device moved to another cell, keeping the city nearby', async () => {
    const moved = deps(RETIRO, cellOf(SOL));
    const onMoved = vi.fn();
    await expect(followDeviceLocation(profile, moved, onMoved)).resolves.toBe('moved');
    expect(moved.updateLocation).toHaveBeenCalledWith('u1', { ...RETIRO, city: 'Madrid' });
    expect(onMoved).toHaveBeenCalledTimes(1);
    expect(moved.cells.get('u1')).toBe(cellOf(RETIRO));
  });

  it('drops the city after a long move (it would name the wrong place)', async () => {
    const barcelona = { latitude: 41.3874, longitude: 2.1686 };
    const travelled = deps(barcelona, cellOf(SOL));
    await followDeviceLocation(profile, travelled);
    expect(travelled.updateLocation).toHaveBeenCalledWith('u1', barcelona);
  });

  it('only notes the cell on the first reading: a profile placed elsewhere on purpose stays', async () => {
    const first = deps(RETIRO, null);
    await expect(followDeviceLocation(profile, first)).resolves.toBe('first-reading');
    expect(first.updateLocation).not.toHaveBeenCalled();
    expect(first.cells.get('u1')).toBe(cellOf(RETIRO));
  });

  it('sends nothing while the device stays in its cell, nor without a position', async () => {
    const stayed = deps({ latitude: RETIRO.latitude + 0.001, longitude: RETIRO.longitude }, cellOf(RETIRO));
    await expect(followDeviceLocation(profile, stayed)).resolves.toBe('same-cell');
    expect(stayed.updateLocation).not.toHaveBeenCalled();
    // The device went where the profile already is (edited meanwhile): nothing to send.
    const already = deps(SOL, cellOf(RETIRO));
    await expect(followDeviceLocation(profile, already)).resolves.toBe('same-cell');
    expect(already.updateLocation).not.toHaveBeenCalled();
    expect(already.cells.get('u1')).toBe(cellOf(SOL));
    const unknown = deps(null, cellOf(SOL));
    await expect(followDeviceLocation(profile, unknown)).resolves.toBe('no-position');
    expect(unknown.updateLocation).not.toHaveBeenCalled();
  });

  it('only logs a refused move (the daily limit of decision 0026), and tries again next time', async () => {
    const limited = deps(RETIRO, cellOf(SOL), async () => {
      throw new ApiRequestError('http', 'Has cambiado de ubicación demasiadas veces hoy.', 429, 'LOCATION_RATE_LIMIT');
    });
    await expect(followDeviceLocation(profile, limited)).resolves.toBe('failed');
    expect(limited.log).toHaveBeenCalledTimes(1);
    expect(limited.cells.get('u1')).toBe(cellOf(SOL));
  });
});
