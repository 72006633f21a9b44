import { getTableColumns, sql } from 'drizzle-orm';
import pg from 'pg';
import { SOCIAL_PREFERENCES } from '#shared/profile/options';
import { resolveSettings } from '#shared/settings/settings-schema';
import type { Database } from '../../../db/client.ts';
import { profiles, sessions, userSettings } from '../../../db/schema/index.ts';
import type { SessionLiveness } from '../../../infra/session-contract.ts';
import {
  DECK_COLUMN_NAMES,
  OPEN_PRIVACY,
  type ProfilePrivacy,
  type StoredProfile,
} from '../../profiles/profile-model.ts';
import type { IndexedProfile } from './candidate-index.ts';
import { type DeckFilters, deckFiltersOfStored, NO_DECK_FILTERS } from './deck-filters.ts';

/** The channel migration 0007's triggers notify: user ids, comma-separated, or '*' (reload everything). */
export const DECK_CHANNEL = 'deck_profiles';

type DeckRow = {
  user_id: string;
  latitude: number;
  longitude: number;
  gender: string | null;
  birth_date: string;
  gender_preference: string;
  age_min: number;
  age_max: number;
  max_distance_km: number;
  gym_key: string;
  sports_mask: number;
  availability_mask: number;
  goals_mask: number;
  schedule_mask: number;
  motivation_mask: number;
  experience_rank: number | null;
  commitment_rank: number | null;
  frequency: number;
  social_preference: string | null;
};

const p = profiles;
const deckColumnsSql = sql`${p.userId} as user_id, ${p.latitude} as latitude, ${p.longitude} as longitude,
  ${p.gender} as gender, ${p.birthDate}::text as birth_date, ${p.genderPreference} as gender_preference,
  ${p.ageMin} as age_min, ${p.ageMax} as age_max, ${p.maxDistanceKm} as max_distance_km, ${p.gymKey} as gym_key,
  ${p.sportsMask} as sports_mask, ${p.availabilityMask} as availability_mask, ${p.goalsMask} as goals_mask,
  ${p.scheduleMask} as schedule_mask, ${p.motivationMask} as motivation_mask, ${p.experienceRank} as experience_rank,
  ${p.commitmentRank} as commitment_rank, ${p.frequency} as frequency, ${p.socialPreference} as social_preference`;

/** A deck row as the index keeps it: the stored deck columns are the shared score's features. */
function indexedProfile(row: DeckRow): IndexedProfile {
  return {
    userId: row.user_id,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    gender: row.gender,
    birthDate: row.birth_date,
    genderPreference: row.gender_preference,
    ageMin: row.age_min,
    ageMax: row.age_max,
    maxDistanceKm: row.max_distance_km,
    features: {
      sports: row.sports_mask,
      availability: row.availability_mask,
      goals: row.goals_mask,
      schedule: row.schedule_mask,
      motivation: row.motivation_mask,
      experience: row.experience_rank ?? -1,
      commitment: row.commitment_rank ?? -1,
      frequency: row.frequency,
      social: row.social_preference === null ? -1 : SOCIAL_PREFERENCES.indexOf(row.social_preference as never),
      gym: row.gym_key,
    },
  };
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/** [user_id, remember_me, expires_at, max_expires_at, revoked_at] (times in epoch milliseconds). */
type SessionTuple = [string, boolean, number, number, number | null];

function sessionOf(sessionId: string | null, tuple: SessionTuple | null): SessionLiveness | undefined {
  if (sessionId === null || tuple === null) return undefined;
  const [userId, rememberMe, expiresAt, maxExpiresAt, revokedAt] = tuple;
  return {
    id: sessionId,
    userId,
    rememberMe,
    expiresAt: new Date(expiresAt),
    maxExpiresAt: new Date(maxExpiresAt),
    revokedAt: revokedAt === null ? null : new Date(revokedAt),
  };
}

/**
 * The columns of a StoredProfile (the row without the deck columns): a page's rows are read as
 * the profiles they are, without the deck copies the index already holds, and without a second
 * object per row to drop them.
 */
const deckColumnSet: ReadonlySet<string> = new Set(DECK_COLUMN_NAMES);
const storedProfileColumns = Object.fromEntries(
  Object.entries(getTableColumns(profiles)).filter(([key]) => !deckColumnSet.has(key)),
) as Omit<ReturnType<typeof getTableColumns<typeof profiles>>, (typeof DECK_COLUMN_NAMES)[number]>;

/** A page's row with its privacy switches resolved as the settings feature resolves them. */
function pageRow(row: { profile: StoredProfile; privacy: unknown }) {
  return {
    profile: row.profile,
    privacy: row.privacy === null ? OPEN_PRIVACY : resolveSettings({ privacy: row.privacy }).privacy,
  };
}

/** Splits a comma-separated list from string_agg ('' or null: none). */
const idList = (value: string | null | undefined) => (value ? value.split(',') : []);

export type DeckIndexRepository = ReturnType<typeof createDeckIndexRepository>;

export function createDeckIndexRepository(db: Database) {
  // Prepared once per connection: every deck request runs these two, and planning them cost more
  // than running them (a primary-key read and three index-only scans).
  const viewer = sql.placeholder('viewerId');
  const viewerStateQuery = db
    .select({
      profile: storedProfileColumns,
      // The caller's session row when this node has not cached it (docs/decisions/0022 amendment 4):
      // the cold request's session read rides in this statement (null sessionId: none read).
      session: sql<SessionTuple | null>`(select json_build_array(s.user_id, s.remember_me,
        floor(extract(epoch from s.expires_at) * 1000), floor(extract(epoch from s.max_expires_at) * 1000),
        floor(extract(epoch from s.revoked_at) * 1000))
        from ${sessions} s where s.id = ${sql.placeholder('sessionId')}::uuid)`,
      swiped: sql<
        string | null
      >`(select string_agg(s.target_id::text, ',') from swipes s where s.swiper_id = ${viewer}::uuid)`,
      blocked: sql<
        string | null
      >`(select string_agg(b.blocked_id::text, ',') from blocks b where b.blocker_id = ${viewer}::uuid)`,
      blockers: sql<
        string | null
      >`(select string_agg(b.blocker_id::text, ',') from blocks b where b.blocked_id = ${viewer}::uuid)`,
      // A match made without a swipe («Conectar» after an open session, decision 0055).
      matched: sql<string | null>`(select string_agg(m.id::text, ',') from (
        select user_high as id from matches where user_low = ${viewer}::uuid
        union all select user_low from matches where user_high = ${viewer}::uuid) m)`,
      // The viewer's /config filters (deck-filters.ts), read with the row that ranks.
      search: sql<unknown>`(select us.settings -> 'search' from ${userSettings} us where us.user_id = ${viewer}::uuid)`,
    })
    .from(p)
    .where(sql`${p.userId} = ${viewer}::uuid`)
    .prepare('deck_viewer_state');
  // What each candidate lets others see (docs/decisions/0025), in the same round trip.
  // Qualified by hand: drizzle writes a single table's columns unqualified in the select list.
  const pagePrivacy = sql<unknown>`(select us.settings -> 'privacy' from ${userSettings} us where us.user_id = "profiles"."user_id")`;
  const pageRowsWhere = sql`${p.userId} = any(${sql.placeholder('userIds')}::uuid[]) and ${p.active} and ${p.visible}
    and not exists (select 1 from swipes s where s.swiper_id = ${viewer}::uuid and s.target_id = ${p.userId})
    and not exists (select 1 from blocks b where b.blocker_id = ${viewer}::uuid and b.blocked_id = ${p.userId})
    and not exists (select 1 from blocks b where b.blocker_id = ${p.userId} and b.blocked_id = ${viewer}::uuid)
    and not exists (select 1 from matches m where m.user_low = least(${viewer}::uuid, ${p.userId})
      and m.user_high = greatest(${viewer}::uuid, ${p.userId}))`;
  const pageProfilesQuery = db
    .select({ profile: storedProfileColumns, privacy: pagePrivacy })
    .from(p)
    .where(pageRowsWhere)
    .prepare('deck_page_profiles');
  // Pages 2+ whose deck this node holds: the viewer's own row (for the re-check and the cards'
  // distance and score) and the page's rows in one statement.
  const viewerSearch = sql<unknown>`(case when "profiles"."user_id" = ${viewer}::uuid then
    (select us.settings -> 'search' from ${userSettings} us where us.user_id = ${viewer}::uuid) end)`;
  const pageWithViewerQuery = db
    .select({ profile: storedProfileColumns, privacy: pagePrivacy, search: viewerSearch })
    .from(p)
    .where(sql`${p.userId} = ${viewer}::uuid or (${pageRowsWhere})`)
    .prepare('deck_page_with_viewer');

  return {
    /** Up to `limit` candidates (active and visible) after `afterUserId` in user id order: the index loads in chunks. */
    async candidatesAfter(afterUserId: string | null, limit: number): Promise<IndexedProfile[]> {
      const after = afterUserId === null ? sql`` : sql`and ${p.userId} > ${afterUserId}::uuid`;
      const result = await db.execute(sql`select ${deckColumnsSql} from ${p}
        where ${p.active} and ${p.visible} ${after} order by ${p.userId} limit ${limit}`);
      return rowsOf<DeckRow>(result).map(indexedProfile);
    },

    /** The current deck rows of these users: a candidate each, or absent (hidden, inactive, deleted). */
    async candidatesOf(userIds: readonly string[]): Promise<IndexedProfile[]> {
      if (userIds.length === 0) return [];
      const result = await db.execute(sql`select ${deckColumnsSql} from ${p}
        where ${p.userId} = any(${`{${userIds.join(',')}}`}::uuid[]) and ${p.active} and ${p.visible}`);
      return rowsOf<DeckRow>(result).map(indexedProfile);
    },

    /**
     * The viewer's own profile row, their /config filters and everyone the viewer's deck must leave
     * out — swiped by the viewer, blocked by the viewer, blocking the viewer, or matched with them —
     * in one statement (index-only reads of swipes (swiper_id, target_id), both block indexes and
     * both of matches').
     */
    async viewerState(
      viewerId: string,
      sessionId: string | null = null,
    ): Promise<
      | { profile: StoredProfile; excluded: Set<string>; filters: DeckFilters; session: SessionLiveness | undefined }
      | undefined
    > {
      const [row] = await viewerStateQuery.execute({ viewerId, sessionId });
      if (!row) return undefined;
      const excluded = new Set([
        ...idList(row.swiped),
        ...idList(row.blocked),
        ...idList(row.blockers),
        ...idList(row.matched),
      ]);
      const filters = deckFiltersOfStored(row.search);
      return { profile: row.profile, excluded, filters, session: sessionOf(sessionId, row.session) };
    },

    /**
     * `pageProfiles` and the viewer's own row (with their /config filters) in one statement: a page 2+ whose deck this node
     * holds (the excluded ids are only needed to rank, and the page's rows are re-checked here).
     */
    async pageWithViewer(
      viewerId: string,
      userIds: readonly string[],
    ): Promise<{
      me: StoredProfile | undefined;
      filters: DeckFilters;
      page: { profile: StoredProfile; privacy: ProfilePrivacy }[];
    }> {
      const rows = await pageWithViewerQuery.execute({ viewerId, userIds: `{${userIds.join(',')}}` });
      let me: StoredProfile | undefined;
      let filters = NO_DECK_FILTERS;
      const page: { profile: StoredProfile; privacy: ProfilePrivacy }[] = [];
      for (const row of rows) {
        if (row.profile.userId === viewerId) {
          me = row.profile;
          filters = deckFiltersOfStored(row.search);
        } else page.push(pageRow(row));
      }
      return { me, filters, page };
    },

    /**
     * The rows of a page's profiles that may still be shown: active and visible, not swiped by
     * the viewer, no block either way (re-checked here: another device may have swiped since the
     * deck was ranked), each with its privacy switches (settings, defaults filled, as the
     * settings feature resolves them). A prepared statement with the ids as one array parameter.
     */
    async pageProfiles(
      viewerId: string,
      userIds: readonly string[],
    ): Promise<{ profile: StoredProfile; privacy: ProfilePrivacy }[]> {
      if (userIds.length === 0) return [];
      const rows = await pageProfilesQuery.execute({ viewerId, userIds: `{${userIds.join(',')}}` });
      return rows.map(pageRow);
    },

    /**
     * Listens to the change feed (migration 0007). `onIds` gets the user ids of each notification,
     * `onReset` a bulk change or a lost connection (reload everything). Resolves once listening;
     * the function it returns stops.
     */
    async listen(handlers: {
      onIds(userIds: string[]): void;
      onReset(): void;
      onError(error: unknown): void;
    }): Promise<() => Promise<void>> {
      const deliver = (payload: string | undefined) => {
        if (payload === '*') handlers.onReset();
        else handlers.onIds(idList(payload));
      };
      // Embedded or shared, the database is a node-postgres pool (docs/decisions/0019).
      const client = (db as unknown as { $client: unknown }).$client;
      if (!(client instanceof pg.Pool)) throw new Error('the deck change feed needs a node-postgres pool');
      return listenOnPostgres(client, deliver, handlers);
    },
  };
}

/**
 * A dedicated connection (outside the pool) that LISTENs; when it drops, it reconnects (after a
 * second, until it succeeds) and asks for a reload, since notifications may have been missed.
 */
async function listenOnPostgres(
  pool: pg.Pool,
  deliver: (payload: string | undefined) => void,
  handlers: { onReset(): void; onError(error: unknown): void },
): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    const client = new pg.Client(pool.options);
    client.on('notification', (message) => {
      if (message.channel === DECK_CHANNEL) deliver(message.payload);
    });
    client.on('error', (error) => handlers.onError(error));
    client.on('end', () => {
      if (stopped || current !== client) return;
      current = undefined;
      const again = () => {
        retry = undefined;
        if (stopped) return;
        connect().then(
          () => handlers.onReset(),
          (error) => {
            handlers.onError(error);
            retry = setTimeout(again, 1000);
          },
        );
      };
      retry = setTimeout(again, 1000);
    });
    await client.connect();
    await client.query(`listen ${DECK_CHANNEL}`);
    current = client;
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await current?.end().catch(() => {});
  };
}
