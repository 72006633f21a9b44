/**
 * Location privacy (QUALITY.md item 9, docs/decisions/0026): positions are snapped to 3 km cells
 * before they are stored or compared, and distances are shown as whole-kilometre buckets with a
 * floor. 1 km cells let someone moving their own position in 400 m steps place a person within
 * about a kilometre; with 3 km cells whatever they learn spans 3 km each way.
 *
 * The grid. The globe is cut into GRID_ROWS latitude bands of equal height (just over 3 km).
 * Each band is cut into as many equal longitude steps as fit 3 km wide at the band's centre,
 * so cells stay about 3 km × 3 km from the equator to the poles (a plain degree grid would make
 * them a quarter narrower than tall in Madrid and slivers near the poles), and every band closes
 * exactly around the globe, so there is no seam at ±180°. A position is replaced by the centre of
 * its cell; the centre lies inside its own cell, so snapping twice changes nothing.
 *
 * Why it defeats trilateration. The server keeps only the cell centre, and every answer it gives
 * about a user (distance, ordering, filters) is computed from that centre. Two positions in the
 * same cell are therefore indistinguishable to any sequence of questions, from any place, however
 * an attacker moves or spoofs their own position (which is snapped too). The best an attacker can
 * learn is the cell — the precision we chose to publish — and the whole-kilometre buckets with the
 * "A menos de 1 km" floor blur even that. The tests simulate such an attacker.
 *
 * Limits. Someone who lives by a cell edge and moves a little may flip between two cells; a
 * watcher then learns that they are near that edge. Re-snapping only on a real move (a new cell
 * that is not a neighbour of the stored one) is the server's cure if that ever matters.
 */

export interface LatLon {
  readonly latitude: number;
  readonly longitude: number;
}

/** The mean Earth radius (IUGG), the one haversine distances use. */
export const EARTH_RADIUS_KM = 6371.0088;
/** The side of a privacy cell: whatever anyone learns about where someone is spans this each way. */
export const GRID_CELL_KM = 3;

const KM_PER_DEGREE = (Math.PI * EARTH_RADIUS_KM) / 180;
const RADIANS_PER_DEGREE = Math.PI / 180;

/** Latitude bands: floor, so each band is at least GRID_CELL_KM tall (20015 bands of ~1.00001 km). */
export const GRID_ROWS = Math.floor((180 * KM_PER_DEGREE) / GRID_CELL_KM);
const LATITUDE_STEP = 180 / GRID_ROWS;

/** A cell of the privacy grid: its band, its column in the band and how many columns the band has. */
export interface GridCell {
  readonly row: number;
  readonly column: number;
  readonly columns: number;
}

function rowCentreLatitude(row: number): number {
  return -90 + (row + 0.5) * LATITUDE_STEP;
}

function columnsInRow(row: number): number {
  const circumferenceKm = 360 * KM_PER_DEGREE * Math.cos(rowCentreLatitude(row) * RADIANS_PER_DEGREE);
  // Floor, so each cell is at least GRID_CELL_KM wide at its centre latitude.
  return Math.max(1, Math.floor(circumferenceKm / GRID_CELL_KM));
}

function assertCoordinates(latitude: number, longitude: number): void {
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90) {
    throw new RangeError(`Invalid coordinates: ${latitude}, ${longitude}`);
  }
}

/** The privacy cell holding a position (latitude in [-90, 90]; any finite longitude, wrapped). */
export function gridCell(latitude: number, longitude: number): GridCell {
  assertCoordinates(latitude, longitude);
  const row = Math.min(GRID_ROWS - 1, Math.floor((latitude + 90) / LATITUDE_STEP));
  const columns = columnsInRow(row);
  const east = ((((longitude + 180) % 360) + 360) % 360) / (360 / columns);
  return { row, column: Math.min(columns - 1, Math.floor(east)), columns };
}

/** The centre of a privacy cell. */
export function cellCentre(cell: GridCell): LatLon {
  return {
    latitude: rowCentreLatitude(cell.row),
    longitude: -180 + ((cell.column + 0.5) * 360) / cell.columns,
  };
}

/** The only form in which a position is stored or compared: the centre of its 3 km cell. */
export function snapToGrid(latitude: number, longitude: number): LatLon {
  return cellCentre(gridCell(latitude, longitude));
}

/** Great-circle distance in kilometres. */
export function haversineKm(a: LatLon, b: LatLon): number {
  const dLat = (b.latitude - a.latitude) * RADIANS_PER_DEGREE;
  const dLon = (b.longitude - a.longitude) * RADIANS_PER_DEGREE;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.latitude * RADIANS_PER_DEGREE) * Math.cos(b.latitude * RADIANS_PER_DEGREE) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The distance a user is shown: "A menos de 1 km" under 1 km (and for anything that is not a
 * distance: the least revealing answer), "A 1 km", otherwise "A N km" in whole kilometres.
 */
export function distanceText(km: number): string {
  if (!(km >= 1) || !Number.isFinite(km)) return 'A menos de 1 km';
  const whole = Math.round(km);
  return whole === 1 ? 'A 1 km' : `A ${whole} km`;
}

/**
 * The distance as a number, in the same bucket as its text and never finer (spec 001 §3 Profile
 * `distance`): whole kilometres, with a floor of 1 ("A menos de 1 km" reads as 1).
 */
export function distanceKmBucket(km: number): number {
  if (!(km >= 1) || !Number.isFinite(km)) return 1;
  return Math.round(km);
}

/** The distance text between two positions, computed only from their cell centres. */
export function distanceTextBetween(a: LatLon, b: LatLon): string {
  return distanceText(haversineKm(snapToGrid(a.latitude, a.longitude), snapToGrid(b.latitude, b.longitude)));
}
