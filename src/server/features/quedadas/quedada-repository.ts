import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Quedada, QuedadaProposal, QuedadaStatus } from '#shared/quedadas/quedada-schemas';
import type { QuedadaPatch } from '#shared/quedadas/quedada-state';
import type { Database } from '../../db/client.ts';

/** A quedada row as raw SQL returns it (snake_case). */
type Row = {
  id: string;
  conversation_id: string;
  user_a: string;
  user_b: string;
  proposer_id: string;
  proposed_by: string;
  status: string;
  gym_name: string;
  gym_address: string | null;
  starts_at: Date | string;
  duration_min: number;
  activity: string;
  note: string | null;
  history: QuedadaProposal[] | string;
  cancelled_by: string | null;
  is_late_cancel: boolean;
  confirmations: Record<string, boolean | null> | string;
  version: number;
  client_id: string;
  created_at: Date | string;
  updated_at: Date | string;
};

/** A stored quedada plus its pair, which the service needs for access and emits. */
export type QuedadaRecord = Quedada & { members: readonly [string, string] };

const iso = (value: Date | string) => new Date(value).toISOString();
const json = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);

function toRecord(row: Row): QuedadaRecord {
  const confirmations = json<Record<string, boolean | null>>(row.confirmations);
  return {
    _id: row.id,
    conversationId: row.conversation_id,
    proposerId: row.proposer_id,
    proposedBy: row.proposed_by,
    status: row.status as QuedadaStatus,
    gymName: row.gym_name,
    gymAddress: row.gym_address,
    startsAt: iso(row.starts_at),
    durationMin: row.duration_min,
    activity: row.activity,
    note: row.note,
    history: json<QuedadaProposal[]>(row.history),
    cancelledBy: row.cancelled_by,
    isLateCancel: row.is_late_cancel,
    confirmations: { [row.user_a]: confirmations[row.user_a] ?? null, [row.user_b]: confirmations[row.user_b] ?? null },
    version: row.version,
    clientId: row.client_id,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    members: [row.user_a, row.user_b],
  };
}

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The caller's session is live (docs/decisions/0018 §4): part of every guarded write. */
const liveSession = (userId: string, sessionId: string, now: Date) => sql`exists (
  select 1 from sessions s where s.id = ${sessionId}::uuid and s.user_id = ${userId}::uuid
    and s.revoked_at is null and s.expires_at > ${now}::timestamptz)`;

/** The conversation `c` is still live: active and no block either way. */
const liveConversation = sql`c.status = 'active' and not exists (
  select 1 from blocks b where (b.blocker_id = c.user_a and b.blocked_id = c.user_b)
    or (b.blocker_id = c.user_b and b.blocked_id = c.user_a))`;

const ACTIVE = sql`('proposed', 'countered', 'accepted')`;

export type ProposeInput = {
  userId: string;
  sessionId: string;
  clientId: string;
  conversationId: string;
  gymName: string;
  gymAddress: string | null;
  startsAt: string;
  durationMin: number;
  activity: string;
  note: string | null;
  now: Date;
};

export type ProposeOutcome =
  | { kind: 'created'; quedada: QuedadaRecord }
  | { kind: 'repeat'; quedada: QuedadaRecord }
  | { kind: 'missing' }
  | { kind: 'inactive' }
  | { kind: 'session' }
  | { kind: 'busy' };

/** A job to schedule in the same statement as the change that calls for it. */
export type JobSpec = { userId: string; kind: 'reminder' | 'confirm'; runAt: Date };

export type ActInput = {
  quedadaId: string;
  userId: string;
  sessionId: string;
  clientId: string;
  /** The version the service read; a concurrent change makes the write find nothing. */
  version: number;
  patch: QuedadaPatch;
  /** Jobs to add (an acceptance), and whether the pending ones end (a cancellation). */
  schedule: readonly JobSpec[];
  endPendingJobs: boolean;
  now: Date;
};

export type ActOutcome =
  | { kind: 'updated'; quedada: QuedadaRecord }
  | { kind: 'repeat'; quedada: QuedadaRecord }
  | { kind: 'stale' }
  | { kind: 'inactive' }
  | { kind: 'session' };

/** A claimed job with what its notification needs. */
export type ClaimedJob = {
  id: number;
  token: string;
  /** `checkin`: «¿Todo bien?» of a shared quedada (docs/decisions/0054). */
  kind: 'reminder' | 'confirm' | 'checkin';
  userId: string;
  quedada: QuedadaRecord;
  /** The conversation is still live and the quedada still calls for this job. */
  isStillWanted: boolean;
  otherName: string;
};

export type QuedadaRepository = ReturnType<typeof createQuedadaRepository>;

export function createQuedadaRepository(db: Database) {
  const one = async (query: SQL): Promise<QuedadaRecord | undefined> => {
    const [row] = rowsOf<Row>(await db.execute(query));
    return row ? toRecord(row) : undefined;
  };
  const many = async (query: SQL): Promise<QuedadaRecord[]> => rowsOf<Row>(await db.execute(query)).map(toRecord);

  return {
    /**
     * One guarded statement (docs/decisions/0018 §4): inserts the proposal only if the session is
     * live, the caller is a member of a live conversation, and no other quedada is in play there.
     * A used clientId inserts nothing; the reason for an empty result is read afterwards (rare).
     */
    async propose(input: ProposeInput): Promise<ProposeOutcome> {
      const { userId, now } = input;
      const inserted = await one(sql`
        insert into quedadas (conversation_id, user_a, user_b, proposer_id, proposed_by, status, gym_name,
          gym_address, starts_at, duration_min, activity, note, client_id, created_at, updated_at)
        select c.id, c.user_a, c.user_b, ${userId}::uuid, ${userId}::uuid, 'proposed', ${input.gymName}::text,
          ${input.gymAddress}::text, ${input.startsAt}::timestamptz, ${input.durationMin}::int, ${input.activity}::text,
          ${input.note}::text, ${input.clientId}::text, ${now}::timestamptz, ${now}::timestamptz
        from conversations c
        where c.id = ${input.conversationId}::uuid and ${userId}::uuid in (c.user_a, c.user_b)
          and ${liveConversation} and ${liveSession(userId, input.sessionId, now)}
          and not exists (select 1 from quedadas a where a.conversation_id = c.id and a.status = 'accepted'
            and a.starts_at + make_interval(mins => a.duration_min) > ${now}::timestamptz)
        on conflict do nothing
        returning *`);
      if (inserted) return { kind: 'created', quedada: inserted };
      const repeated = await one(
        sql`select * from quedadas where proposer_id = ${userId}::uuid and client_id = ${input.clientId}::text`,
      );
      if (repeated) return { kind: 'repeat', quedada: repeated };
      const [state] = rowsOf<{ is_member: boolean; is_live: boolean; has_session: boolean }>(
        await db.execute(sql`
          select ${userId}::uuid in (c.user_a, c.user_b) as is_member, ${liveConversation} as is_live,
            ${liveSession(userId, input.sessionId, now)} as has_session
          from conversations c where c.id = ${input.conversationId}::uuid`),
      );
      if (!state?.is_member) return { kind: 'missing' };
      if (!state.has_session) return { kind: 'session' };
      if (!state.is_live) return { kind: 'inactive' };
      return { kind: 'busy' };
    },

    findByClientId(userId: string, clientId: string): Promise<QuedadaRecord | undefined> {
      return one(sql`select * from quedadas where proposer_id = ${userId}::uuid and client_id = ${clientId}::text`);
    },

    async findById(quedadaId: string): Promise<QuedadaRecord | undefined> {
      return one(sql`select * from quedadas where id = ${quedadaId}::uuid`);
    },

    /**
     * One guarded statement: the update happens only at the version read, for a member with a
     * live session in a live conversation, and only if this clientId was not applied before; the
     * same statement records the clientId and adds or ends the quedada's jobs.
     */
    async act(input: ActInput): Promise<ActOutcome> {
      const { patch, userId, now } = input;
      const sets: SQL[] = [
        sql`status = ${patch.status}::text`,
        sql`version = q.version + 1`,
        sql`updated_at = ${now}::timestamptz`,
      ];
      if (patch.proposedBy !== undefined) sets.push(sql`proposed_by = ${patch.proposedBy}::uuid`);
      if (patch.startsAt !== undefined) sets.push(sql`starts_at = ${patch.startsAt}::timestamptz`);
      if (patch.durationMin !== undefined) sets.push(sql`duration_min = ${patch.durationMin}::int`);
      if (patch.history !== undefined) sets.push(sql`history = ${JSON.stringify(patch.history)}::jsonb`);
      if (patch.cancelledBy !== undefined) sets.push(sql`cancelled_by = ${patch.cancelledBy}::uuid`);
      if (patch.isLateCancel !== undefined) sets.push(sql`is_late_cancel = ${patch.isLateCancel}::boolean`);
      if (patch.confirmations !== undefined) {
        sets.push(sql`confirmations = ${JSON.stringify(patch.confirmations)}::jsonb`);
      }
      const jobs =
        input.schedule.length > 0
          ? sql`, scheduled as (
              insert into quedada_jobs (quedada_id, user_id, kind, run_at)
              select u.id, j.user_id, j.kind, j.run_at from updated u,
                (values ${sql.join(
                  input.schedule.map((job) => sql`(${job.userId}::uuid, ${job.kind}::text, ${job.runAt}::timestamptz)`),
                  sql`, `,
                )}) as j(user_id, kind, run_at)
              on conflict (quedada_id, kind, user_id) do update set run_at = excluded.run_at, done_at = null,
                claimed_until = null, claim_token = null
              returning 1)`
          : sql``;
      const ended = input.endPendingJobs
        ? sql`, ended as (
            update quedada_jobs set done_at = ${now}::timestamptz
            where quedada_id in (select id from updated) and done_at is null returning 1)`
        : sql``;
      const updated = await one(sql`
        with updated as (
          update quedadas q set ${sql.join(sets, sql`, `)}
          from conversations c
          where q.id = ${input.quedadaId}::uuid and q.version = ${input.version}::int and c.id = q.conversation_id
            and ${userId}::uuid in (q.user_a, q.user_b) and ${liveConversation}
            and ${liveSession(userId, input.sessionId, now)}
            and not exists (select 1 from quedada_actions a where a.user_id = ${userId}::uuid and a.client_id = ${input.clientId}::text)
          returning q.*
        ), recorded as (
          insert into quedada_actions (user_id, client_id, quedada_id, created_at)
          select ${userId}::uuid, ${input.clientId}::text, id, ${now}::timestamptz from updated
          returning 1
        )${jobs}${ended}
        select * from updated`);
      if (updated) return { kind: 'updated', quedada: updated };
      const [state] = rowsOf<{ is_repeat: boolean; is_live: boolean; has_session: boolean }>(
        await db.execute(sql`
          select exists (select 1 from quedada_actions a where a.user_id = ${userId}::uuid
              and a.client_id = ${input.clientId}::text and a.quedada_id = q.id) as is_repeat,
            ${liveConversation} as is_live, ${liveSession(userId, input.sessionId, now)} as has_session
          from quedadas q join conversations c on c.id = q.conversation_id where q.id = ${input.quedadaId}::uuid`),
      );
      if (state?.is_repeat) {
        const current = await this.findById(input.quedadaId);
        if (current) return { kind: 'repeat', quedada: current };
      }
      if (state && !state.has_session) return { kind: 'session' };
      if (state && !state.is_live) return { kind: 'inactive' };
      return { kind: 'stale' };
    },

    /** Whether the user already applied this clientId (a replay of an answer that since became moot). */
    async hasAction(userId: string, clientId: string, quedadaId: string): Promise<boolean> {
      const [row] = rowsOf<{ found: boolean }>(
        await db.execute(sql`select exists (select 1 from quedada_actions where user_id = ${userId}::uuid
          and client_id = ${clientId}::text and quedada_id = ${quedadaId}::uuid) as found`),
      );
      return row?.found === true;
    },

    /** A conversation's quedadas, newest first (the card shows the latest ones). */
    listForConversation(conversationId: string, limit = 20): Promise<QuedadaRecord[]> {
      return many(sql`select * from quedadas where conversation_id = ${conversationId}::uuid
        order by created_at desc limit ${limit}`);
    },

    /** "Próximos entrenos": accepted and not over yet, soonest first. */
    listUpcoming(userId: string, now: Date): Promise<QuedadaRecord[]> {
      return many(sql`select * from quedadas where ${userId}::uuid in (user_a, user_b) and status = 'accepted'
        and starts_at + make_interval(mins => duration_min) > ${now}::timestamptz order by starts_at limit 50`);
    },

    /** Every quedada of the user that can count for reliability. */
    listCounted(userId: string): Promise<QuedadaRecord[]> {
      return many(sql`select * from quedadas where (user_a = ${userId}::uuid or user_b = ${userId}::uuid)
        and (status in ('done', 'missed') or (status = 'cancelled' and is_late_cancel))`);
    },

    /** The starts of a conversation's confirmed quedadas (the pair streak). */
    async doneStarts(conversationIds: readonly string[]): Promise<Map<string, Date[]>> {
      const byConversation = new Map<string, Date[]>();
      if (conversationIds.length === 0) return byConversation;
      const rows = rowsOf<{ conversation_id: string; starts_at: Date | string }>(
        await db.execute(sql`select conversation_id, starts_at from quedadas where status = 'done'
          and conversation_id in (${sql.join(
            conversationIds.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`),
      );
      for (const row of rows) {
        byConversation.set(row.conversation_id, [
          ...(byConversation.get(row.conversation_id) ?? []),
          new Date(row.starts_at),
        ]);
      }
      return byConversation;
    },

    /** The user's conversations that have a quedada in play or ever done one (for the pair summaries). */
    listPairsOf(userId: string): Promise<QuedadaRecord[]> {
      return many(sql`select distinct on (conversation_id) * from quedadas
        where (user_a = ${userId}::uuid or user_b = ${userId}::uuid) and status in ('proposed', 'countered', 'accepted', 'done')
        order by conversation_id, (status in ('proposed', 'countered', 'accepted')) desc, starts_at desc`);
    },

    /**
     * Blocking or unmatching ends the pair's quedadas in play and their jobs (issue #21), in one
     * statement; the rows changed are returned so both members hear it. `userId` narrows the sweep.
     */
    async cancelEnded(now: Date, userId?: string): Promise<QuedadaRecord[]> {
      const mine = userId ? sql`and ${userId}::uuid in (q.user_a, q.user_b)` : sql``;
      return many(sql`
        with ended as (
          update quedadas q set status = 'cancelled', version = q.version + 1, updated_at = ${now}::timestamptz
          from conversations c
          where c.id = q.conversation_id and q.status in ${ACTIVE} ${mine} and not (${liveConversation})
          returning q.*
        ), jobs as (
          update quedada_jobs set done_at = ${now}::timestamptz
          where quedada_id in (select id from ended) and done_at is null returning 1
        )
        select * from ended`);
    },

    /**
     * Claims due jobs for `leaseMs` (docs/decisions/0029): `for update skip locked`, so two nodes
     * never take the same row; a lease that runs out (the node died) makes the row claimable again.
     */
    async claimDue(now: Date, leaseMs: number, limit: number): Promise<ClaimedJob[]> {
      const token = randomUUID();
      const until = new Date(now.getTime() + leaseMs);
      const rows = rowsOf<
        Row & {
          job_id: number;
          job_kind: string;
          job_user: string;
          is_live: boolean;
          other_name: string | null;
          has_open_check_in: boolean;
        }
      >(
        await db.execute(sql`
          with due as (
            select id from quedada_jobs
            where done_at is null and run_at <= ${now}::timestamptz
              and (claimed_until is null or claimed_until < ${now}::timestamptz)
            order by run_at limit ${limit} for update skip locked
          ), claimed as (
            update quedada_jobs j set claimed_until = ${until}::timestamptz, claim_token = ${token}::uuid,
              attempts = j.attempts + 1
            from due where j.id = due.id
            returning j.id, j.kind, j.user_id, j.quedada_id
          )
          select q.*, cl.id as job_id, cl.kind as job_kind, cl.user_id as job_user,
            (${liveConversation}) as is_live,
            (select coalesce(p.name, u.name) from users u left join profiles p on p.user_id = u.id
              where u.id = case when cl.user_id = q.user_a then q.user_b else q.user_a end) as other_name,
            exists (select 1 from quedada_shares s where s.quedada_id = q.id and s.user_id = cl.user_id
              and s.check_in_at is not null and s.check_in_answer is null and s.revoked_at is null
              and s.expires_at > ${now}::timestamptz) as has_open_check_in
          from claimed cl join quedadas q on q.id = cl.quedada_id join conversations c on c.id = q.conversation_id`),
      );
      return rows.map((row) => {
        const quedada = toRecord(row);
        const kind = row.job_kind as ClaimedJob['kind'];
        const isWanted =
          kind === 'checkin'
            ? row.has_open_check_in && (quedada.status === 'accepted' || quedada.status === 'done')
            : kind === 'reminder'
              ? quedada.status === 'accepted'
              : quedada.status !== 'cancelled' &&
                quedada.status !== 'declined' &&
                quedada.confirmations[row.job_user] === null;
        return {
          id: Number(row.job_id),
          token,
          kind,
          userId: row.job_user,
          quedada,
          isStillWanted: row.is_live && isWanted,
          otherName: row.other_name ?? '',
        };
      });
    },

    /** Marks a claimed job done, if this claim still holds it (true) — a reclaimed job is not ours. */
    async complete(jobId: number, token: string, now: Date): Promise<boolean> {
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`update quedada_jobs set done_at = ${now}::timestamptz
          where id = ${jobId} and claim_token = ${token}::uuid and done_at is null returning id`),
      );
      return rows.length > 0;
    },

    /**
     * Outside production only (`POST /api/dev/quedadas/{id}/rewind`): moves an accepted quedada
     * so that it ended a minute ago, its reminders spent and its question due now.
     */
    async rewind(quedadaId: string, userId: string, now: Date): Promise<QuedadaRecord | undefined> {
      return one(sql`
        with moved as (
          update quedadas q set starts_at = ${now}::timestamptz - make_interval(mins => q.duration_min + 1),
            version = q.version + 1, updated_at = ${now}::timestamptz
          where q.id = ${quedadaId}::uuid and ${userId}::uuid in (q.user_a, q.user_b) and q.status = 'accepted'
          returning q.*
        ), jobs as (
          update quedada_jobs j set
            done_at = case when j.kind = 'reminder' then ${now}::timestamptz else j.done_at end,
            run_at = case when j.kind = 'confirm' then ${now}::timestamptz else j.run_at end
          where j.quedada_id in (select id from moved) and j.done_at is null returning 1
        )
        select * from moved`);
    },

    /** Test and operations view: a quedada's jobs. */
    async jobsOf(quedadaId: string) {
      return rowsOf<{
        kind: string;
        user_id: string;
        run_at: Date | string;
        done_at: Date | string | null;
        attempts: number;
      }>(
        await db.execute(sql`select kind, user_id, run_at, done_at, attempts from quedada_jobs
          where quedada_id = ${quedadaId}::uuid order by kind, user_id`),
      );
    },
  };
}
