import { and, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import {
  AFTERNOON_SLOTS_MASK,
  dayPartsMask,
  MORNING_SLOTS_MASK,
  SCHEDULE_WEIGHTS,
} from '#shared/discovery/compatibility';
import type { Database } from '../../db/client.ts';
import { type DeckEntry, profiles, recommendationDecks } from '../../db/schema/index.ts';
import type { ProfileDeckColumns, StoredProfile } from '../profiles/profile-model.ts';
import { toStoredProfile } from '../profiles/profile-repository.ts';
import { boundingBox } from './deck-geometry.ts';

/** Everything the deck query needs to know about the viewer. */
export type DeckViewer = ProfileDeckColumns & {
  userId: string;
  latitude: number;
  longitude: number;
  gender: string | null;
  age: number;
  /** Candidates' birth dates allowed by the viewer's age range: youngestBirthDate ≥ date > oldestBirthDateExclusive. */
  youngestBirthDate: string;
  oldestBirthDateExclusive: string;
};

/** Where a chunk continues from: the last entry of the previous one (a seek, never an OFFSET). */
export type DeckKey = { score: number; distanceKm: number; userId: string };

export type StoredDeck = { entries: DeckEntry[]; total: number; isComplete: boolean; createdAt: Date };

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

/**
 * The "% Entreno" of src/shared/discovery/compatibility.ts, in SQL over the bitmask columns:
 * the same factors and weights (the TypeScript function stays the reference and gives the
 * reasons; this one only ranks). Rounded like Math.round — floor(x + 0.5) in float8, which also
 * spares a numeric conversion per candidate — so the order follows the shown score.
 */
function scoreSql(viewer: DeckViewer) {
  const p = profiles;
  const sameGym = viewer.gymKey === '' ? sql`0` : sql`(case when ${p.gymKey} = ${viewer.gymKey} then 1 else 0 end)`;
  const social =
    viewer.socialPreference == null
      ? sql`0`
      : sql`(case when ${p.socialPreference} is null then 0
          when ${p.socialPreference} = ${viewer.socialPreference} then 1
          when ${p.socialPreference} = 'both' or ${viewer.socialPreference} = 'both' then 0.75 else 0 end)`;
  // dayPartsMask in SQL: the preferred schedule plus the parts of the availability slots.
  const dayPartsSql = sql`(${p.scheduleMask}
    | (case when ${p.availabilityMask} & ${MORNING_SLOTS_MASK}::int <> 0 then ${MORNING_PART}::int else 0 end)
    | (case when ${p.availabilityMask} & ${AFTERNOON_SLOTS_MASK}::int <> 0 then ${AFTERNOON_PART}::int else 0 end))`;
  return sql<number>`floor((
    22 * ${jaccard(p.sportsMask, viewer.sportsMask)}
    + ${SCHEDULE_WEIGHTS.slots} * ${jaccard(p.availabilityMask, viewer.availabilityMask)}
    + 12 * ${sameGym}
    + 10 * ${jaccard(p.goalsMask, viewer.goalsMask)}
    + ${SCHEDULE_WEIGHTS.dayParts} * ${jaccard(dayPartsSql, dayPartsMask(viewer.scheduleMask, viewer.availabilityMask))}
    + 8 * ${ladder(p.experienceRank, viewer.experienceRank)}
    + 6 * (1 - abs(${p.frequency} - ${viewer.frequency}::int) / 6.0::float8)
    + 6 * ${ladder(p.commitmentRank, viewer.commitmentRank)}
    + 6 * ${jaccard(p.motivationMask, viewer.motivationMask)}
    + 6 * ${social}
  ) + 0.5)::int`;
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
 * block either way, each one's gender preference and age range accepting the other, and the
 * distance within both maximum distances. The box over the snapped position (profiles_deck_idx)
 * bounds the rows read; haversine then cuts the exact radius. That index holds every column read
 * here, so the scan is index-only: keep it in step with this query.
 */
function rankedCandidatesSql(viewer: DeckViewer, after: DeckKey | null, size: number) {
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
        ${distanceSql(viewer)} as distance_km, ${scoreSql(viewer)} as score
      from ${p}
      where ${p.active} and ${p.visible}
        and ${p.latitude} between ${box.minLatitude}::float8 and ${box.maxLatitude}::float8
        and ${longitudeBound}
        and ${p.userId} <> ${viewer.userId}::uuid
        and ${genderWanted}
        and ${acceptsViewer}
        and ${p.birthDate} <= ${viewer.youngestBirthDate}::date
        and ${p.birthDate} > ${viewer.oldestBirthDateExclusive}::date
        and ${p.ageMin} <= ${viewer.age}::int and ${p.ageMax} >= ${viewer.age}::int
        -- NOT IN over non-null columns: one hashed subplan per list instead of a probe per candidate.
        and ${p.userId} not in (select s.target_id from swipes s where s.swiper_id = ${viewer.userId}::uuid)
        and ${p.userId} not in (select b.blocked_id from blocks b where b.blocker_id = ${viewer.userId}::uuid)
        and ${p.userId} not in (select b.blocker_id from blocks b where b.blocked_id = ${viewer.userId}::uuid)
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

export type RecommendationRepository = ReturnType<typeof createRecommendationRepository>;

/**
 * A batch of deck snapshots in one statement (named, so PostgreSQL plans it once per connection);
 * like freshDeck, without waiting for the WAL flush (`synchronous_commit` off for this
 * transaction only).
 */
const STORE_DECKS_SQL = `insert into recommendation_decks (viewer_id, entries, total, is_complete, created_at)
  select d.viewer_id, d.entries, d.total, d.is_complete, d.created_at
  from jsonb_to_recordset($1::jsonb)
    as d(viewer_id uuid, entries jsonb, total int, is_complete boolean, created_at timestamptz),
    (select set_config('synchronous_commit', 'off', true)) as async_commit
  on conflict (viewer_id) do update set entries = excluded.entries, total = excluded.total,
    is_complete = excluded.is_complete, created_at = excluded.created_at`;

export function createRecommendationRepository(db: Database) {
  const loadDeckQuery = db
    .select()
    .from(recommendationDecks)
    .where(eq(recommendationDecks.viewerId, sql.placeholder('viewerId')))
    .prepare('deck_load');
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

    async loadDeck(viewerId: string): Promise<StoredDeck | undefined> {
      const [row] = await loadDeckQuery.execute({ viewerId });
      return row && { entries: row.entries, total: row.total, isComplete: row.isComplete, createdAt: row.createdAt };
    },

    /** Stores viewers' deck snapshots (a batch of them: deck-snapshots.ts writes behind) in one statement. */
    async storeDecks(decks: ReadonlyMap<string, StoredDeck>): Promise<void> {
      if (decks.size === 0) return;
      const batch = JSON.stringify(
        [...decks].map(([viewerId, deck]) => ({
          viewer_id: viewerId,
          entries: deck.entries,
          total: deck.total,
          is_complete: deck.isComplete,
          created_at: deck.createdAt.toISOString(),
        })),
      );
      await (db as unknown as { $client: pg.Pool }).$client.query({
        name: 'deck_store_batch',
        text: STORE_DECKS_SQL,
        values: [batch],
      });
    },

    /**
     * The profiles of a deck page that may still be shown: still active and visible, not swiped
     * meanwhile (from another device), no block since the deck was computed.
     */
    async showableProfiles(viewerId: string, userIds: readonly string[]): Promise<StoredProfile[]> {
      if (userIds.length === 0) return [];
      const p = profiles;
      const rows = await db
        .select()
        .from(p)
        .where(
          and(
            inArray(p.userId, [...userIds]),
            sql`${p.active} and ${p.visible}`,
            sql`not exists (select 1 from swipes s where s.swiper_id = ${viewerId}::uuid and s.target_id = ${p.userId})`,
            sql`not exists (select 1 from blocks b where (b.blocker_id = ${viewerId}::uuid and b.blocked_id = ${p.userId})
              or (b.blocker_id = ${p.userId} and b.blocked_id = ${viewerId}::uuid))`,
          ),
        );
      return rows.map(toStoredProfile);
    },
  };
}
