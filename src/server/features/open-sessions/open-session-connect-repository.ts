import { sql } from 'drizzle-orm';
import type { AttendanceMark } from '#shared/open-sessions/open-session-after';
import type { Database } from '../../db/client.ts';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';

/** Where two people stand for «Conectar»: their match's conversation, or what keeps them apart. */
export type PairState = {
  /** The match conversation between them (deck or «Conectar»), whatever its status. */
  conversation: { id: string; status: string } | null;
  /**
   * Nothing keeps the caller from making a match with them: no block either way, the caller's
   * profile active, theirs active and shown (not hidden, not restricted), and no «no» from them
   * to the caller in the deck.
   */
  isReachable: boolean;
};

/** A match «Conectar» made, as a mutual like's is announced. */
export type ConnectedMatch = { matchId: string; conversationId: string; swipeType: 'like'; createdAt: Date };

/** What a «Conectar» did: made the match, found one (or a replay), or refused. */
export type ConnectOutcome =
  | { kind: 'created'; match: ConnectedMatch }
  | { kind: 'existing' }
  | { kind: 'replay' }
  | { kind: 'refused'; reason: 'not-together' | 'unavailable' };

type PairRow = {
  other_id: string;
  conversation_id: string | null;
  conversation_status: string | null;
  is_reachable: boolean;
};

/** Per other id: the pair's match conversation and whether `userId` may reach them (one statement). */
async function pairStates(executor: SqlExecutor, userId: string, otherIds: readonly string[]) {
  if (otherIds.length === 0) return new Map<string, PairState>();
  // An array literal (the ids are validated uuids): drizzle spreads a JS array into a list.
  const others = `{${otherIds.join(',')}}`;
  const me = sql`${userId}::uuid`;
  const rows = rowsOf<PairRow>(
    await executor.execute(sql`select o.id as other_id, c.id as conversation_id, c.status as conversation_status,
        (coalesce(op.active and op.visible, false) and coalesce(mp.active, false)
          and not exists (select 1 from blocks b where (b.blocker_id = ${me} and b.blocked_id = o.id)
            or (b.blocker_id = o.id and b.blocked_id = ${me}))
          and not exists (select 1 from swipes sw where sw.swiper_id = o.id and sw.target_id = ${me}
            and sw.action = 'dislike')) as is_reachable
      from unnest(${others}::uuid[]) as o(id)
      left join profiles op on op.user_id = o.id
      left join profiles mp on mp.user_id = ${me}
      left join matches m on m.user_low = least(${me}, o.id) and m.user_high = greatest(${me}, o.id)
      left join conversations c on c.match_id = m.id`),
  );
  return new Map(
    rows.map((row): [string, PairState] => [
      row.other_id,
      {
        conversation:
          row.conversation_id && row.conversation_status
            ? { id: row.conversation_id, status: row.conversation_status }
            : null,
        isReachable: row.is_reachable,
      },
    ]),
  );
}

export type OpenSessionConnectRepository = ReturnType<typeof createOpenSessionConnectRepository>;

/**
 * «Conectar» after an open session (docs/decisions/0055, session 16): every mark of a session (its
 * verdicts say who came), where two people stand, and the match itself — the rows a mutual like
 * makes (`ensure_match`, migration 0027, which `record_swipes` calls: the match, its conversation,
 * both member rows), under
 * the same advisory lock of the pair, guarded by the clientId (`open_session_actions`).
 * `createOpenSessionRepository` hands these on as its own.
 */
export function createOpenSessionConnectRepository(db: Database) {
  return {
    /** Every «¿Quién vino?» mark made in the session. */
    async sessionMarks(sessionId: string): Promise<AttendanceMark[]> {
      return rowsOf<{ marker_id: string; subject_id: string; came: boolean }>(
        await db.execute(sql`select marker_id, subject_id, came from open_session_attendance
          where session_id = ${sessionId}::uuid`),
      ).map((row) => ({ markerId: row.marker_id, subjectId: row.subject_id, came: row.came }));
    },

    pairStates: (userId: string, otherIds: readonly string[]) => pairStates(db, userId, otherIds),

    /**
     * Makes the match between `userId` and `otherId` unless one exists, in one transaction: the
     * clientId first (a replay does nothing), then `trainedTogether` (the service's verdict; after
     * the replay check, so a replay answers as the first call did), then the pair's advisory lock —
     * the one `record_swipes` takes, so a mutual like at the same moment and this make one match —
     * and the pair's state read again under it. A refusal keeps no clientId.
     */
    connect(
      userId: string,
      clientId: string,
      sessionId: string,
      otherId: string,
      trainedTogether: boolean,
      now: Date,
    ): Promise<ConnectOutcome> {
      return db.transaction(async (tx): Promise<ConnectOutcome> => {
        const recorded = rowsOf(
          await tx.execute(sql`insert into open_session_actions (user_id, client_id, session_id)
            values (${userId}::uuid, ${clientId}::text, ${sessionId}::uuid) on conflict do nothing returning 1`),
        );
        if (recorded.length === 0) return { kind: 'replay' };
        const refuse = async (reason: 'not-together' | 'unavailable'): Promise<ConnectOutcome> => {
          await tx.execute(
            sql`delete from open_session_actions where user_id = ${userId}::uuid and client_id = ${clientId}::text`,
          );
          return { kind: 'refused', reason };
        };
        if (!trainedTogether) return refuse('not-together');
        const [low, high] = userId < otherId ? [userId, otherId] : [otherId, userId];
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${low}::text), hashtext(${high}::text))`);
        const pair = (await pairStates(tx, userId, [otherId])).get(otherId);
        if (pair?.conversation)
          return pair.conversation.status === 'active' ? { kind: 'existing' } : refuse('unavailable');
        if (!pair?.isReachable) return refuse('unavailable');
        // The rows a mutual like makes, by the same function (`ensure_match`, migration 0027).
        const [match] = rowsOf<{
          match_id: string;
          match_created_at: Date | string;
          conversation_id: string;
          is_new: boolean;
        }>(
          await tx.execute(sql`select match_id, match_created_at, conversation_id, is_new
            from ensure_match(${low}::uuid, ${high}::uuid, 'like', ${now}::timestamptz)`),
        );
        // A match row without its conversation is no pair's to reach: refused, as an unmatched one.
        if (!match?.is_new) return refuse('unavailable');
        return {
          kind: 'created',
          match: {
            matchId: match.match_id,
            conversationId: match.conversation_id,
            swipeType: 'like',
            createdAt: new Date(match.match_created_at),
          },
        };
      });
    },
  };
}
