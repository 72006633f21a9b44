ALTER TABLE "profiles" ADD COLUMN "location_changed_at" timestamp with time zone;--> statement-breakpoint
-- Positions move from 1 km to 3 km privacy cells (docs/decisions/0026): the centre of the 3 km
-- cell of every stored position, computed as src/shared/discovery/distance.ts snapToGrid does.
WITH grid AS (
  SELECT (pi() * 6371.0088) / 180 AS km_per_degree, 3.0::float8 AS cell_km
), rows_ AS (
  SELECT floor((180 * km_per_degree) / cell_km) AS grid_rows, km_per_degree, cell_km FROM grid
), banded AS (
  SELECT p.id, p.longitude, r.km_per_degree, r.cell_km,
    least(r.grid_rows - 1, floor((p.latitude + 90) / (180 / r.grid_rows))) AS row_index,
    180 / r.grid_rows AS latitude_step
  FROM "profiles" p CROSS JOIN rows_ r
), centred AS (
  SELECT id, longitude, -90 + (row_index + 0.5) * latitude_step AS centre_latitude,
    greatest(1, floor(360 * km_per_degree * cos(radians(-90 + (row_index + 0.5) * latitude_step)) / cell_km)) AS columns_
  FROM banded
), snapped AS (
  SELECT id, centre_latitude, columns_,
    least(columns_ - 1, floor(((longitude + 180) - 360 * floor((longitude + 180) / 360)) / (360 / columns_))) AS column_index
  FROM centred
)
UPDATE "profiles" p
SET latitude = s.centre_latitude, longitude = -180 + ((s.column_index + 0.5) * 360) / s.columns_
FROM snapped s
WHERE p.id = s.id;
