import { type SyncQuery, type SyncResponse, SyncQuerySchema } from '#shared/chat/chat-schemas';
import { parseInput } from '../../validation.ts';
import type { ChangeLogRepository } from './change-log-repository.ts';

/** The entity lists of a sync answer; each source fills its own. */
export type SyncPayload = Omit<SyncResponse, 'success' | 'cursor' | 'hasMore'>;

/** A feature that syncs: the change kinds it owns and how it loads their current state. */
export type SyncSource = {
  kinds: readonly string[];
  /** Runs before the log is read (the chat creates missing participant rows and logs them). */
  prepare?(userId: string): Promise<void>;
  load(userId: string, ids: ReadonlyMap<string, readonly string[]>): Promise<Partial<SyncPayload>>;
};

export type SyncService = ReturnType<typeof createSyncService>;

/**
 * `GET /api/sync?since=<cursor>` (docs/decisions/0010): the entities that changed for the caller
 * after the cursor, in their current state, each at most once, and the next cursor. The cursor is
 * the caller's change number, handed out in commit order, so reading on from it never skips one.
 */
export function createSyncService(deps: { changes: ChangeLogRepository; sources: readonly SyncSource[] }) {
  return {
    async sync(userId: string, rawQuery: unknown): Promise<SyncResponse> {
      const query: SyncQuery = parseInput(SyncQuerySchema, rawQuery);
      const since = Number(query.since);
      for (const source of deps.sources) await source.prepare?.(userId);
      const records = await deps.changes.read(userId, since, query.limit + 1);
      const page = records.slice(0, query.limit);
      const ids = new Map<string, string[]>();
      for (const record of page) ids.set(record.kind, [...(ids.get(record.kind) ?? []), record.entityId]);
      const answer: SyncResponse = {
        success: true,
        cursor: String(page.at(-1)?.changeSeq ?? since),
        hasMore: records.length > query.limit,
        conversations: [],
        removedConversationIds: [],
        messages: [],
      };
      for (const source of deps.sources) {
        const mine = new Map(source.kinds.map((kind) => [kind, ids.get(kind) ?? []] as const));
        if (![...mine.values()].some((list) => list.length > 0)) continue;
        Object.assign(answer, await source.load(userId, mine));
      }
      return answer;
    },
  };
}
