import { type SyncQuery, type SyncResponse, SyncQuerySchema } from '#shared/chat/chat-schemas';
import { parseInput } from '../../validation.ts';
import type { SnapshotReader, SqlExecutor } from './change-log-repository.ts';

/** The entity lists of a sync answer; each source fills its own. */
export type SyncPayload = Omit<SyncResponse, 'success' | 'cursor' | 'hasMore'>;

/**
 * What syncs (the chat): what changed for the user in transactions from `horizon` on (an xid8 as
 * decimal text; '0' means everything), read with `executor` (the answer's snapshot), in a stable
 * order from `offset` on, about `limit` items; `next` is the offset to go on from when more remain.
 */
export type SyncSource = {
  /** Runs before the snapshot is taken (the chat creates missing member rows). */
  prepare?(userId: string): Promise<void>;
  load(
    executor: SqlExecutor,
    userId: string,
    page: { horizon: string; offset: number; limit: number },
  ): Promise<{ payload: SyncPayload; next: number | undefined }>;
};

export type SyncService = ReturnType<typeof createSyncService>;

/** `since`: a horizon, or a continuation `<from>.<to>.<offset>`. */
function parseCursor(since: string): { from: string; to: string | undefined; offset: number } {
  const [from = '0', to, offset] = since.split('.');
  return {
    from: String(BigInt(from)),
    to: to === undefined ? undefined : String(BigInt(to)),
    offset: Number(offset ?? 0),
  };
}

/**
 * `GET /api/sync?since=<cursor>` (docs/decisions/0041, replacing 0010's change log): the entities
 * that changed for the caller in transactions at or after the cursor, in their current state,
 * and the next cursor. The cursor is the `xmin` of the snapshot the answer's first page was read
 * in: every transaction below it had finished, so everything the caller has not seen carries an
 * xid at or above it. An answer on several pages keeps its horizons and counts its offset in the
 * cursor (`from.to.offset`), and ends with `to`. Some entities come again (the client upserts
 * them); none is skipped.
 */
export function createSyncService(deps: { snapshots: SnapshotReader; source: SyncSource }) {
  return {
    async sync(userId: string, rawQuery: unknown): Promise<SyncResponse> {
      const query: SyncQuery = parseInput(SyncQuerySchema, rawQuery);
      const cursor = parseCursor(query.since);
      await deps.source.prepare?.(userId);
      return deps.snapshots.read(async (executor, horizon) => {
        const to = cursor.to ?? horizon ?? cursor.from;
        const { payload, next } = await deps.source.load(executor, userId, {
          horizon: cursor.from,
          offset: cursor.offset,
          limit: query.limit,
        });
        return {
          success: true,
          cursor: next === undefined ? to : `${cursor.from}.${to}.${next}`,
          hasMore: next !== undefined,
          ...payload,
        };
      });
    },
  };
}
