/**
 * The deck's storage and reads around its ranking: the SQL ranking of the fallback
 * (ranking/sql-ranking-repository.ts), the viewers' deck snapshots, the viewer's /config filters
 * and a page's showable rows.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from '../../db/client.ts';
import { profiles, recommendationDecks, userSettings } from '../../db/schema/index.ts';
import type { StoredProfile } from '../profiles/profile-model.ts';
import { toStoredProfile } from '../profiles/profile-repository.ts';
import { type DeckFilters, deckFiltersOfStored } from './ranking/deck-filters.ts';
import { createSqlRankingRepository, type StoredDeck } from './ranking/sql-ranking-repository.ts';

export type { StoredDeck } from './ranking/sql-ranking-repository.ts';

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
    ...createSqlRankingRepository(db),

    /** The viewer's «Nivel de experiencia» and «Horario preferido» (settings; defaults when none are stored). */
    async viewerFilters(viewerId: string): Promise<DeckFilters> {
      const [row] = await db
        .select({ search: sql<unknown>`${userSettings.settings} -> 'search'` })
        .from(userSettings)
        .where(eq(userSettings.userId, viewerId));
      return deckFiltersOfStored(row?.search);
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
     * meanwhile (from another device), no block and no match («Conectar») since the deck was computed.
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
            sql`not exists (select 1 from matches m where m.user_low = least(${viewerId}::uuid, ${p.userId})
              and m.user_high = greatest(${viewerId}::uuid, ${p.userId}))`,
          ),
        );
      return rows.map(toStoredProfile);
    },
  };
}
