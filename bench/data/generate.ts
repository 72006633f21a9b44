/**
 * The benchmark data set: `profiles` users with profiles in 10 clustered Spanish cities and
 * `swipesPerUser` swipes each (100k and 20 → 2M swipes, QUALITY 24), generated inside the
 * database with `INSERT … SELECT generate_series` (seconds, not minutes). Deterministic: ids are
 * md5 of the user number, every "random" value a hash of (user number, field), so two runs build
 * the same rows on the embedded PostgreSQL and on DATABASE_URL's.
 *
 * Cities: each profile belongs to city `n % 10`, placed around its centre with a normal spread of
 * about 8 km (Box–Muller) and snapped to 0.01° like real stored positions. Past 100k profiles,
 * block b (users 100k·b + 1 … 100k·(b + 1)) is a copy of the 10 cities moved 15·b degrees east:
 * 10 cities per 100k, the density of the 100k set (the layout bench/data/spread.ts used to make
 * with an UPDATE of every row). Swipes: user n swipes the next `swipesPerUser` users of its own
 * city in its own block (n + 10k), 70 % dislike, 28 % like, 2 % superlike.
 *
 * Fast at 1M (minutes, not an hour): the option lists come from lookup tables built once (not a
 * function call per row and list), foreign-key and trigger checks are off for the load
 * (`session_replication_role = replica`, the rows are consistent by construction; where that is
 * not allowed they stay on), and the secondary indexes are dropped before and built after.
 */
import { createHash } from 'node:crypto';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  EXPERIENCE_LEVELS,
  GOALS,
  MOTIVATIONS,
  SPORTS,
  TRAINING_SCHEDULES,
} from '#shared/profile/options';

export const CITIES = [
  ['Madrid', 40.4168, -3.7038],
  ['Barcelona', 41.3874, 2.1686],
  ['Valencia', 39.4699, -0.3763],
  ['Sevilla', 37.3891, -5.9845],
  ['Zaragoza', 41.6488, -0.8891],
  ['Málaga', 36.7213, -4.4214],
  ['Murcia', 37.9922, -1.1307],
  ['Palma', 39.5696, 2.6502],
  ['Bilbao', 43.263, -2.935],
  ['Valladolid', 41.6523, -4.7245],
] as const;

/** Runs one SQL statement (no parameters), always on the same connection (temporary tables). */
export type Execute = (statement: string) => Promise<unknown>;

/** Profiles per block of 10 cities: the density of the 100k data set. */
export const BLOCK = 100_000;
/** Degrees of longitude between two copies of the 10 cities (far beyond any deck radius). */
export const SHIFT_DEGREES = 15;

/** The uuid of bench user `n` (1-based), in SQL and in TypeScript. */
export const userIdSql = (n: string) => `md5('bench-user-' || ${n})::uuid`;

const literalArray = (values: readonly string[]) =>
  `array[${values.map((value) => `'${value.replaceAll("'", "''")}'`).join(',')}]::text[]`;

/** A deterministic number in [0, 1) from a user number and a salt. */
const rnd = (n: string, salt: string) =>
  `(('x' || substr(md5((${n})::text || '${salt}'), 1, 8))::bit(32)::bigint / 4294967296.0)`;

export async function generateDataset(
  execute: Execute,
  scale: { profiles: number; swipesPerUser: number },
  options: { bulk?: boolean } = {},
) {
  const { profiles: count, swipesPerUser } = scale;
  const cityValues = CITIES.map(([name, lat, lon], index) => `(${index}, '${name}', ${lat}, ${lon})`).join(',');
  await execute(`create temporary table bench_cities (idx int primary key, name text, lat float8, lon float8)`);
  await execute(`insert into bench_cities values ${cityValues}`);
  await execute(`create or replace function pg_temp.bench_mask_options(mask int, options text[]) returns jsonb
    language sql immutable as $$
      select coalesce(jsonb_agg(options[i] order by i), '[]'::jsonb)
      from generate_series(1, array_length(options, 1)) as i where (mask >> (i - 1)) & 1 = 1
    $$`);
  // Each option list's JSON for every mask, once: the profiles join them instead of building a list per row.
  const lists = {
    sports: SPORTS,
    availability: AVAILABILITY_SLOTS,
    goals: GOALS,
    schedule: TRAINING_SCHEDULES,
    motivation: MOTIVATIONS,
  };
  for (const [name, values] of Object.entries(lists)) {
    await execute(`create temporary table bench_list_${name} as
      select mask, pg_temp.bench_mask_options(mask, ${literalArray(values)}) as list
      from generate_series(0, ${(1 << values.length) - 1}) as mask`);
    await execute(`alter table bench_list_${name} add primary key (mask)`);
  }
  const dropped: string[] = [];
  if (options.bulk) {
    await execute(`set maintenance_work_mem = '256MB'`);
    await execute(`set synchronous_commit = off`);
    try {
      await execute(`set session_replication_role = replica`);
    } catch {
      // Not a superuser: the foreign keys and triggers are checked row by row (slower, same rows).
    }
    dropped.push(...(await secondaryIndexes(execute)));
    for (const definition of dropped) await execute(`drop index ${indexName(definition)}`);
    // The swipes' random uuid key: inserting 2M of them one by one writes every index page again and again.
    await execute('alter table swipes drop constraint swipes_pkey');
  }

  await execute(`insert into users (id, email, name, last_name, complete_profile)
    select ${userIdSql('n')}, 'bench' || n || '@bench.entreno.app', 'Bench ' || n, 'Prueba', true
    from generate_series(1, ${count}) as n`);

  // One row of raw draws per user, then the profile built from them.
  await execute(`create temporary table bench_draws as
    select n, c.name as city,
      round((c.lat + 0.072 * sqrt(-2 * ln(greatest(${rnd('n', 'a')}, 1e-9))) * cos(2 * pi() * ${rnd('n', 'b')}))::numeric, 2)::float8 as lat,
      (round((c.lon + 0.095 * sqrt(-2 * ln(greatest(${rnd('n', 'a')}, 1e-9))) * sin(2 * pi() * ${rnd('n', 'b')}))::numeric, 2)
        + ${SHIFT_DEGREES} * ((n - 1) / ${BLOCK})::int)::float8 as lon,
      case when ${rnd('n', 'g')} < 0.5 then 'male' else 'female' end as gender,
      18 + floor(${rnd('n', 'age')} * 38)::int as age,
      ${rnd('n', 'pref')} as pref,
      (array[15, 25, 50, 50, 100])[1 + floor(${rnd('n', 'd')} * 5)::int] as distance,
      (floor(${rnd('n', 's1')} * 16384)::int & floor(${rnd('n', 's2')} * 16384)::int & ${(1 << SPORTS.length) - 1})
        | (1 << floor(${rnd('n', 's3')} * ${SPORTS.length})::int) as sports,
      floor(${rnd('n', 'av1')} * 16384)::int & floor(${rnd('n', 'av2')} * 16384)::int as availability,
      (floor(${rnd('n', 'go1')} * 256)::int & floor(${rnd('n', 'go2')} * 256)::int) | 1 as goals,
      1 + floor(${rnd('n', 'sc')} * 7)::int as schedule,
      floor(${rnd('n', 'mo')} * 64)::int & floor(${rnd('n', 'mo2')} * 64)::int as motivation,
      floor(${rnd('n', 'ex')} * 3)::int as experience,
      floor(${rnd('n', 'co')} * 3)::int as commitment,
      1 + floor(${rnd('n', 'fr')} * 7)::int as frequency,
      'gimnasio ' || (n % 10) || '-' || floor(${rnd('n', 'gym')} * 40)::int as gym
    from generate_series(1, ${count}) as n join bench_cities c on c.idx = n % 10`);

  await execute(`insert into profiles (user_id, name, last_name, birth_date, gender, bio, latitude, longitude, city,
      gym, training, preferences, gender_preference, age_min, age_max, max_distance_km, gym_key,
      sports_mask, availability_mask, goals_mask, schedule_mask, motivation_mask, experience_rank, commitment_rank, frequency)
    select ${userIdSql('n')}, 'Bench ' || n, 'Prueba',
      (date '2026-06-01' - make_interval(years => age, days => (n % 300)))::date, gender,
      'Entreno fuerza y salgo a correr; busco compañía para entrenar en ' || city || '.',
      lat, lon, city,
      jsonb_build_object('name', gym, 'membershipType', 'monthly', 'trainingSchedule', l_schedule.list),
      jsonb_build_object('sports', l_sports.list,
        'goals', l_goals.list,
        'experienceLevel', (${literalArray(EXPERIENCE_LEVELS)})[experience + 1], 'frequency', frequency,
        'motivation', l_motivation.list,
        'specialties', '[]'::jsonb, 'commitment_level', (${literalArray(COMMITMENT_LEVELS)})[commitment + 1],
        'supplements', '[]'::jsonb, 'socialPreference', null,
        'availability', l_availability.list),
      jsonb_build_object('gender_preference', p.gp, 'age_range', jsonb_build_object('min', greatest(18, age - 8), 'max', age + 12),
        'distance', distance),
      -- The key is normalizeGymName(gym): lower case, punctuation as spaces.
      p.gp, greatest(18, age - 8), age + 12, distance, replace(gym, '-', ' '),
      sports, availability, goals, schedule, motivation, experience, commitment, frequency
    from bench_draws
      join bench_list_sports l_sports on l_sports.mask = sports & ${(1 << SPORTS.length) - 1}
      join bench_list_availability l_availability on l_availability.mask = availability & ${(1 << AVAILABILITY_SLOTS.length) - 1}
      join bench_list_goals l_goals on l_goals.mask = goals & ${(1 << GOALS.length) - 1}
      join bench_list_schedule l_schedule on l_schedule.mask = schedule & ${(1 << TRAINING_SCHEDULES.length) - 1}
      join bench_list_motivation l_motivation on l_motivation.mask = motivation & ${(1 << MOTIVATIONS.length) - 1},
      lateral (select case when pref < 0.45 then 'both' when pref < 0.9 then (case gender when 'male' then 'female' else 'male' end)
        else gender end as gp) p`);

  // Within the user's own block: (n - 1) = b·BLOCK + i, target i + 10k (mod the block's size).
  const blockSize = Math.min(count, BLOCK);
  const block = `(floor((n - 1) / ${blockSize})::int * ${blockSize})`;
  await execute(`insert into swipes (swiper_id, target_id, action)
    select ${userIdSql('n')}, ${userIdSql(`(${block} + ((n - 1 - ${block} + 10 * k) % ${blockSize}) + 1)`)},
      case when ${rnd('n * 100 + k', 'sw')} < 0.7 then 'dislike' when ${rnd('n * 100 + k', 'sw')} < 0.98 then 'like' else 'superlike' end
    from generate_series(1, ${count}) as n, generate_series(1, ${swipesPerUser}) as k`);
  await execute('drop table bench_draws');
  await execute('drop table bench_cities');
  for (const name of Object.keys(lists)) await execute(`drop table bench_list_${name}`);
  for (const definition of dropped) await execute(definition);
  if (options.bulk) {
    await execute('alter table swipes add constraint swipes_pkey primary key (id)');
    await execute('set session_replication_role = default').catch(() => {});
  }
  // As autovacuum leaves a settled table: statistics, and the visibility map index-only scans rely on.
  await execute('vacuum analyze');
}

/** The indexes of users, profiles and swipes that back no constraint: dropped for a bulk load, built after. */
async function secondaryIndexes(execute: Execute): Promise<string[]> {
  const result = (await execute(`select pg_get_indexdef(i.indexrelid) as definition
    from pg_index i join pg_class t on t.oid = i.indrelid
    where t.relname in ('users', 'profiles', 'swipes') and t.relnamespace = 'public'::regnamespace
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`)) as {
    rows: { definition: string }[];
  };
  return result.rows.map((row) => row.definition);
}

const indexName = (definition: string) => (/^CREATE (?:UNIQUE )?INDEX (\S+) ON/.exec(definition)?.[1] ?? '') as string;

/** The uuid of bench user `n`, as userIdSql computes it. */
export function benchUserId(n: number): string {
  const hex = createHash('md5').update(`bench-user-${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
