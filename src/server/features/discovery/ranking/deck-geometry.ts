/** The deck's search box and day arithmetic, shared by the SQL query and the candidate index. */
const KM_PER_DEGREE = 111.195;

/** The viewer's search radius as a latitude/longitude box (without a longitude bound near the poles or ±180°). */
export function boundingBox(latitude: number, longitude: number, radiusKm: number) {
  const latDelta = radiusKm / KM_PER_DEGREE + 0.01;
  const farthestLatitude = Math.min(89.9, Math.abs(latitude) + latDelta);
  const lonDelta = radiusKm / (KM_PER_DEGREE * Math.cos((farthestLatitude * Math.PI) / 180)) + 0.01;
  const hasLongitudeBound =
    Math.abs(latitude) + latDelta < 89.9 && longitude - lonDelta >= -180 && longitude + lonDelta <= 180;
  return {
    minLatitude: latitude - latDelta,
    maxLatitude: latitude + latDelta,
    minLongitude: hasLongitudeBound ? longitude - lonDelta : null,
    maxLongitude: hasLongitudeBound ? longitude + lonDelta : null,
  };
}

/** Days since 1970-01-01 of a "YYYY-MM-DD" date. */
export function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date}T00:00:00Z`) / 86_400_000);
}
