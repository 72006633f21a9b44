/**
 * The SQL re-statement of the deck's ranking (docs/decisions/0006, 0022): the fallback while a
 * node's candidate index loads or rebuilds, and with DECK_INDEX=0. The same mutual rules, filters,
 * score and order as candidate-index.ts; recommendations-index.test.ts checks on a real database
 * that both give the same candidates, scores and order for generated viewers and filters.
 */
import { sql } from 'drizzle-orm';
import {
  AFTERNOON_SLOTS_MASK,
  COMPATIBILITY_WEIGHTS,
  dayPartsMask,
  MORNING_SLOTS_MASK,
  SCHEDULE_WEIGHTS,
} from '#shared/discovery/compatibility';
import { FREQUENCY_MAX_DAYS, FREQUENCY_MIN_DAYS } from '#shared/profile/options';
import type { Database } from '../../../db/client.ts';
import { type DeckEntry, profiles, recommendationDecks } from '../../../db/schema/index.ts';
import type { DeckFilters } from './deck-filters.ts';
import { boundingBox } from './deck-geometry.ts';
import type { DeckKey, DeckViewer } from './deck-viewer.ts';

/** What a ranked deck is: its first entries, how many candidates in all, whether the entries are all of them. */
export type StoredDeck = { entries: DeckEntry[]; total: number; isComplete: boolean; createdAt: Date };

const FREQUENCY_SPAN = FREQUENCY_MAX_DAYS - FREQUENCY_MIN_DAYS;

const MORNING_PART = dayPartsMask(0, MORNING_SLOTS_MASK);
const AFTERNOON_PART = dayPartsMask(0, AFTERNOON_SLOTS_MASK);

/** Jaccard similarity of two option bitmasks, in SQL. */
const jaccard = (column: unknown, mask: number) => sql`(case when (${column} | ${mask}::int) = 0 then 0::float8
  else bit_count((${column} & ${mask}::int)::bit(32))::float8 / bit_count((${column} | ${mask}::int)::bit(32)) end)`;

/** 1 for the same level, 0.5 next to it, 0 two apart or unknown (three-step ladders). */
const ladder = (column: unknown, rank: number | null) =>
  rank == null
    ? sql`0::float8`
    : sql`(case when ${column} is null then 0::float8 else greatest(0::float8, 1 - abs(${column} - ${rank}::int) / 2.0::float8) end)`;

/** dayPartsMask in SQL: the preferred schedule plus the parts of the availability slots. */
const dayPartsSql = sql`(${profiles.scheduleMask}
    | (case when ${profiles.availabilityMask} & ${MORNING_SLOTS_MASK}::int <> 0 then ${MORNING_PART}::int else 0 end)
    | (case when ${profiles.availabilityMask} & ${AFTERNOON_SLOTS_MASK}::int <> 0 then ${AFTERNOON_PART}::int else 0 end))`;

/**
 * compatibilityPoints of src/shared/discovery/compatibility.ts, in SQL over the bitmask columns:
 * the same factors, weights and term order (float sums must round alike; the TypeScript function
 * stays the reference and gives the reasons, this one only ranks).
 */
function pointsSql(viewer: DeckViewer) {
  const p = profiles;
  const w = COMPATIBILITY_WEIGHTS;
  const sameGym = viewer.gymKey === '' ? sql`0` : sql`(case when ${p.gymKey} = ${viewer.gymKey} then 1 else 0 end)`;
  const social =
    viewer.socialPreference == null
      ? sql`0`
      : sql`(case when ${p.socialPreference} is null then 0
          when ${p.socialPreference} = ${viewer.socialPreference} then 1
          when ${p.socialPreference} = 'both' or ${viewer.socialPreference} = 'both' then 0.75 else 0 end)`;
  return sql<number>`(
    ${w.sports}::float8 * ${jaccard(p.sportsMask, viewer.sportsMask)}
    + ${SCHEDULE_WEIGHTS.slots}::float8 * ${jaccard(p.availabilityMask, viewer.availabilityMask)}
    + ${w.sameGym}::float8 * ${sameGym}
    + ${w.goals}::float8 * ${jaccard(p.goalsMask, viewer.goalsMask)}
    + ${SCHEDULE_WEIGHTS.dayParts}::float8 * ${jaccard(dayPartsSql, dayPartsMask(viewer.scheduleMask, viewer.availabilityMask))}
    + ${w.experience}::float8 * ${ladder(p.experienceRank, viewer.experienceRank)}
    + ${w.frequency}::float8 * (1 - abs(${p.frequency} - ${viewer.frequency}::int) / ${FREQUENCY_SPAN}::float8)
    + ${w.commitment}::float8 * ${ladder(p.commitmentRank, viewer.commitmentRank)}
    + ${w.motivation}::float8 * ${jaccard(p.motivationMask, viewer.motivationMask)}
    + ${w.socialPreference}::float8 * ${social}
  )`;
}

/**
 * scoreOfPoints in SQL, over the `points` of one row: the same float8 steps, rounded like
 * Math.round — floor(x + 0.5), which also spares a numeric conversion per candidate — so the
 * order follows the shown score.
 */
const scoreOfPointsSql = sql<number>`floor(100::float8 - ((100::float8 - s.points) * (100::float8 - s.points)) / 100::float8 + 0.5)::int`;

/** The viewer's own filters (deck-filters.ts) as conditions on the candidate's row. */
function deckFiltersSql(filters: DeckFilters) {
  const p = profiles;
  const level = filters.experienceRank >= 0 ? sql`and ${p.experienceRank} = ${filters.experienceRank}::int` : sql``;
  const parts = filters.dayParts !== 0 ? sql`and (${dayPartsSql} & ${filters.dayParts}::int) <> 0` : sql``;
  return sql`${level} ${parts}`;
}

/** Great-circle kilometres between the viewer's cell centre and a profile's, in SQL. */
function distanceSql(viewer: DeckViewer) {
  const p = profiles;
  return sql<number>`(2 * 6371.0088 * asin(least(1, sqrt(
    power(sin(radians(${p.latitude} - ${viewer.latitude}::float8) / 2), 2)
    + cos(radians(${viewer.latitude}::float8)) * cos(radians(${p.latitude}))
      * power(sin(radians(${p.longitude} - ${viewer.longitude}::float8) / 2), 2)))))`;
}

/**
 * The viewer's candidates in deck order (score desc, distance asc, user id) after `after` when
 * given, at most `size`, each with `total` = every candidate (when `after` is null).
 *
 * Mutual rules in SQL: both active and visible, not the viewer, not swiped by the viewer, no
 * block either way, no match between them (one made without a swipe: «Conectar»), each one's gender preference and age range accepting the other, the
 * distance within both maximum distances, and the viewer's own filters (level, part of the day).
 * The box over the snapped position (profiles_deck_idx) bounds the rows read; haversine then cuts
 * the exact radius. That index holds every column read here (the filters' columns are the score's),
 * so the scan is index-only (checked with EXPLAIN): keep it in step with this query.
 */
export function rankedCandidatesSql(viewer: DeckViewer, after: DeckKey | null, size: number) {
  const p = profiles;
  const box = boundingBox(viewer.latitude, viewer.longitude, viewer.maxDistanceKm);
  const longitudeBound =
    box.minLongitude === null
      ? sql`true`
      : sql`${p.longitude} between ${box.minLongitude}::float8 and ${box.maxLongitude}::float8`;
  const genderWanted = viewer.genderPreference === 'both' ? sql`true` : sql`${p.gender} = ${viewer.genderPreference}`;
  const acceptsViewer =
    viewer.gender === null
      ? sql`${p.genderPreference} = 'both'`
      : sql`${p.genderPreference} in ('both', ${viewer.gender})`;
  const seek = after
    ? sql`and (c.score < ${after.score}::int
        or (c.score = ${after.score}::int and c.distance_km > ${after.distanceKm}::float8)
        or (c.score = ${after.score}::int and c.distance_km = ${after.distanceKm}::float8 and c.user_id > ${after.userId}::uuid))`
    : sql``;
  return sql`
    with c as (
      select ${p.userId} as user_id, ${p.maxDistanceKm} as max_distance_km,
        ${distanceSql(viewer)} as distance_km, ${scoreOfPointsSql} as score
      from ${p}
      -- The points once per row (a subquery that is not pulled up, so the expression is not copied).
      cross join lateral (select ${pointsSql(viewer)} as points offset 0) s
      where ${p.active} and ${p.visible}
        and ${p.latitude} between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8
        and ${longitudeBound}
        and ${p.userId} <> ${viewer.userId}::uuid
        and ${genderWanted}
        and ${acceptsViewer}
        and ${p.birthDate} <= ${viewer.youngestBirthDate}::date
        and ${p.birthDate} > ${viewer.oldestBirthDateExclusive}::date
        and ${p.ageMin} <= ${viewer.age}::int and ${p.ageMax} >= ${viewer.age}::int
        ${deckFiltersSql(viewer.filters)}
        -- NOT IN over non-null columns: one hashed subplan per list instead of a probe per candidate.
        and ${p.userId} not in (select s.target_id from swipes s where s.swiper_id = ${viewer.userId}::uuid)
        and ${p.userId} not in (select b.blocked_id from blocks b where b.blocker_id = ${viewer.userId}::uuid)
        and ${p.userId} not in (select b.blocker_id from blocks b where b.blocked_id = ${viewer.userId}::uuid)
        -- Matched (or once matched) without a swipe: «Conectar» after an open session (decision 0055).
        and ${p.userId} not in (select m.user_high from matches m where m.user_low = ${viewer.userId}::uuid)
        and ${p.userId} not in (select m.user_low from matches m where m.user_high = ${viewer.userId}::uuid)
    )
    select c.user_id, c.score, c.distance_km, count(*) over () as total
    from c
    -- One haversine per row for both radii (two comparisons would compute it twice).
    where c.distance_km <= least(${viewer.maxDistanceKm}::float8, c.max_distance_km::float8)
      ${seek}
    order by c.score desc, c.distance_km asc, c.user_id asc
    limit ${size}`;
}

type CandidateRow = { user_id: string; score: number | string; distance_km: number | string; total: number | string };

/** A raw query answers node-postgres's QueryResult: { rows }. */
function candidatesOf(result: unknown): { entries: DeckEntry[]; total: number } {
  const { rows } = result as { rows: CandidateRow[] };
  const entries = rows.map((row): DeckEntry => [row.user_id, Number(row.score), Number(row.distance_km)]);
  return { entries, total: Number(rows[0]?.total ?? 0) };
}

export type SqlRankingRepository = ReturnType<typeof createSqlRankingRepository>;

export function createSqlRankingRepository(db: Database) {
  return {
    /** The next `size` candidates of the viewer's deck after `after` (see rankedCandidatesSql). */
    async candidates(viewer: DeckViewer, after: DeckKey | null, size: number) {
      return candidatesOf(await db.execute(rankedCandidatesSql(viewer, after, size)));
    },

    /**
     * A page 1: the first `size` candidates and their total, stored as the viewer's deck snapshot
     * in the same statement (one round trip instead of a query plus a four-statement
     * transaction). The snapshot is derived data that the next page 1 rebuilds, so this commit
     * does not wait for the WAL flush (`synchronous_commit` off for this transaction only): a
     * crash within the WAL writer's delay (< 1 s) may lose the newest snapshots — the next page
     * then reads the previous one or starts afresh, still re-checked by showableProfiles — but
     * never corrupts anything.
     */
    async freshDeck(viewer: DeckViewer, size: number, now: Date): Promise<StoredDeck> {
      const result = await db.execute(sql`
        with ranked as (${rankedCandidatesSql(viewer, null, size)}),
        saved as (
          insert into ${recommendationDecks} (viewer_id, entries, total, is_complete, created_at)
          select ${viewer.userId}::uuid,
            coalesce((select jsonb_agg(jsonb_build_array(r.user_id, r.score, r.distance_km)
              order by r.score desc, r.distance_km asc, r.user_id asc) from ranked r), '[]'::jsonb),
            coalesce((select max(r.total) from ranked r), 0),
            (select count(*) from ranked) < ${size},
            ${now.toISOString()}::timestamptz
          from (select set_config('synchronous_commit', 'off', true)) as async_commit
          on conflict (viewer_id) do update set entries = excluded.entries, total = excluded.total,
            is_complete = excluded.is_complete, created_at = excluded.created_at
        )
        select r.user_id, r.score, r.distance_km, r.total from ranked r
        order by r.score desc, r.distance_km asc, r.user_id asc
      `);
      const { entries, total } = candidatesOf(result);
      return { entries, total, isComplete: entries.length < size, createdAt: now };
    },
  };
}
