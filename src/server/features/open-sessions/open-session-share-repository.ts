import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { type ShareRecord, type ShareRow, toShareRecord } from '../quedadas/share-repository.ts';

/** A share of an open session (docs/decisions/0054, amendment of session 17). */
export type SessionShareRecord = ShareRecord & { sessionId: string };

/** Someone the page shows: the host or an approved member other than the sharer. */
export type SharedPersonRecord = { name: string; photo: string | null; isVerified: boolean; isHost: boolean };

/** What the public page of a session share reads. */
export type SharedSessionRecord = SessionShareRecord & {
  sharedBy: string;
  people: SharedPersonRecord[];
  gymName: string;
  gymAddress: string | null;
  startsAt: Date;
  durationMin: number;
  activity: string;
  status: string;
};

/** A claimed «¿Todo bien?» with what its notification needs. */
export type ClaimedCheckIn = {
  shareId: string;
  token: string;
  userId: string;
  sessionId: string;
  activity: string;
  gymName: string;
  /** The share is live and unanswered, the session held (open) and the sharer still in it. */
  isStillWanted: boolean;
};

type Row = ShareRow & { session_id: string };

const toShare = (row: Row): SessionShareRecord => ({ ...toShareRecord(row), sessionId: row.session_id });

/** `user` holds a place in session `s`: its host, or an approved member. */
const isInSession = (user: SQL) => sql`(s.host_id = ${user} or exists (select 1 from open_session_members m
  where m.session_id = s.id and m.user_id = ${user} and m.state = 'approved'))`;

export type CreateSessionShareInput = {
  userId: string;
  /** The caller's sign-in session, which must still be live (docs/decisions/0018 §4). */
  authSessionId: string;
  sessionId: string;
  tokenHash: string;
  clientId: string;
  checkInAt: Date | null;
  graceMs: number;
  now: Date;
};

export type CreateSessionShareOutcome =
  | { kind: 'created'; share: SessionShareRecord; sharerName: string; toldIds: string[] }
  | { kind: 'repeat'; share: SessionShareRecord }
  | { kind: 'refused' };

export type OpenSessionShareRepository = ReturnType<typeof createOpenSessionShareRepository>;

/**
 * Shares of open sessions in `quedada_shares` (`session_id`, migration 0024). Revoking and
 * answering a share are the same for both kinds (the quedadas' share repository); what is an open
 * session's own is here: who may share, the page's people, and the check-in job on the share row.
 */
export function createOpenSessionShareRepository(db: Database) {
  const one = async (query: SQL): Promise<SessionShareRecord | undefined> => {
    const [row] = rowsOf<Row>(await db.execute(query));
    return row ? toShare(row) : undefined;
  };

  return {
    /**
     * One statement: the share exists only for the host or an approved member with a live sign-in,
     * of a session that is open and has not ended. It answers whom to tell: everyone else holding
     * a place (the people the page shows), and the sharer's name. A used clientId or token inserts nothing.
     */
    async create(input: CreateSessionShareInput): Promise<CreateSessionShareOutcome> {
      const me = sql`${input.userId}::uuid`;
      const { now } = input;
      const [row] = rowsOf<Row & { sharer_name: string | null; told_ids: string[] | null }>(
        await db.execute(sql`
          with inserted as (
            insert into quedada_shares (session_id, user_id, token_hash, client_id, expires_at, check_in_at, created_at)
            select s.id, ${me}, ${input.tokenHash}::text, ${input.clientId}::text,
              s.starts_at + make_interval(mins => s.duration_min) + ${`${input.graceMs} milliseconds`}::interval,
              ${input.checkInAt}::timestamptz, ${now}::timestamptz
            from open_sessions s
            where s.id = ${input.sessionId}::uuid and s.status = 'open'
              and s.starts_at + make_interval(mins => s.duration_min) > ${now}::timestamptz
              and ${isInSession(me)}
              and exists (select 1 from sessions a where a.id = ${input.authSessionId}::uuid and a.user_id = ${me}
                and a.revoked_at is null and a.expires_at > ${now}::timestamptz)
            on conflict do nothing
            returning *
          )
          select i.*, (select coalesce(p.name, u.name) from users u left join profiles p on p.user_id = u.id
              where u.id = i.user_id) as sharer_name, array(
            select s.host_id from open_sessions s where s.id = i.session_id and s.host_id <> i.user_id
            union
            select m.user_id from open_session_members m
            where m.session_id = i.session_id and m.state = 'approved' and m.user_id <> i.user_id
          ) as told_ids
          from inserted i`),
      );
      if (row) {
        return { kind: 'created', share: toShare(row), sharerName: row.sharer_name ?? '', toldIds: row.told_ids ?? [] };
      }
      const repeated = await this.findByClientId(input.userId, input.clientId);
      if (repeated?.sessionId === input.sessionId) return { kind: 'repeat', share: repeated };
      return { kind: 'refused' };
    },

    /** Who has a live link to the session (not revoked, not expired, still in it), besides `userId`. */
    async liveSharers(sessionId: string, userId: string, now: Date): Promise<{ userId: string; name: string }[]> {
      return rowsOf<{ user_id: string; name: string | null }>(
        await db.execute(sql`
          select distinct sh.user_id, (select coalesce(p.name, u.name) from users u
              left join profiles p on p.user_id = u.id where u.id = sh.user_id) as name
          from quedada_shares sh join open_sessions s on s.id = sh.session_id
          where sh.session_id = ${sessionId}::uuid and sh.user_id <> ${userId}::uuid
            and sh.revoked_at is null and sh.expires_at > ${now}::timestamptz and ${isInSession(sql`sh.user_id`)}`),
      ).map((row) => ({ userId: row.user_id, name: row.name ?? '' }));
    },

    findByClientId(userId: string, clientId: string): Promise<SessionShareRecord | undefined> {
      return one(sql`select * from quedada_shares where user_id = ${userId}::uuid and client_id = ${clientId}::text
        and session_id is not null`);
    },

    /** The owner's shares of a session, newest first. */
    async listOwned(userId: string, sessionId: string): Promise<SessionShareRecord[]> {
      return rowsOf<Row>(
        await db.execute(sql`select * from quedada_shares where session_id = ${sessionId}::uuid
          and user_id = ${userId}::uuid order by created_at desc limit 20`),
      ).map(toShare);
    },

    /**
     * The page of a live link (not revoked, not expired) whose sharer still holds a place: the
     * session, and the host and approved members besides the sharer (host first, then by arrival, then name).
     */
    async findShared(tokenHash: string, now: Date): Promise<SharedSessionRecord | undefined> {
      const [row] = rowsOf<
        Row & {
          shared_by: string | null;
          gym_name: string;
          gym_address: string | null;
          starts_at: Date | string;
          duration_min: number;
          activity: string;
          status: string;
        }
      >(
        await db.execute(sql`
          select sh.*, s.gym_name, s.gym_address, s.starts_at, s.duration_min, s.activity, s.status,
            (select coalesce(p.name, u.name) from users u left join profiles p on p.user_id = u.id
              where u.id = sh.user_id) as shared_by
          from quedada_shares sh join open_sessions s on s.id = sh.session_id
          where sh.token_hash = ${tokenHash}::text and sh.revoked_at is null and sh.expires_at > ${now}::timestamptz
            and ${isInSession(sql`sh.user_id`)}`),
      );
      if (!row) return undefined;
      const people = rowsOf<{ name: string | null; photo: string | null; is_verified: boolean; is_host: boolean }>(
        await db.execute(sql`
          select coalesce(p.name, u.name) as name, p.photos->>0 as photo, coalesce(p.verified, false) as is_verified,
            x.is_host
          from (
            select s.host_id as user_id, true as is_host, s.created_at as since from open_sessions s
            where s.id = ${row.session_id}::uuid
            union all
            select m.user_id, false, m.created_at from open_session_members m
            where m.session_id = ${row.session_id}::uuid and m.state = 'approved'
          ) x join users u on u.id = x.user_id left join profiles p on p.user_id = u.id
          where x.user_id <> ${row.user_id}::uuid
          order by x.is_host desc, x.since, name, u.id`),
      );
      return {
        ...toShare(row),
        sharedBy: row.shared_by ?? '',
        people: people.map((person) => ({
          name: person.name ?? '',
          photo: person.photo,
          isVerified: person.is_verified === true,
          isHost: person.is_host === true,
        })),
        gymName: row.gym_name,
        gymAddress: row.gym_address,
        startsAt: new Date(row.starts_at),
        durationMin: row.duration_min,
        activity: row.activity,
        status: row.status,
      };
    },

    /**
     * Claims due check-ins for `leaseMs` — the share row is the job (0029's pattern, as the
     * session's own reminders): `for update skip locked`, so two nodes never take the same share,
     * and a lease that runs out (the node died) makes it claimable again. Whether it is still
     * wanted is read in the same statement.
     */
    async claimDueCheckIns(now: Date, leaseMs: number, limit: number): Promise<ClaimedCheckIn[]> {
      const token = randomUUID();
      const until = new Date(now.getTime() + leaseMs);
      const rows = rowsOf<{
        id: string;
        user_id: string;
        session_id: string;
        activity: string;
        gym_name: string;
        is_wanted: boolean;
      }>(
        await db.execute(sql`
          with due as (
            select id from quedada_shares
            where session_id is not null and check_in_at is not null and check_in_done_at is null
              and check_in_at <= ${now}::timestamptz
              and (check_in_claimed_until is null or check_in_claimed_until < ${now}::timestamptz)
            order by check_in_at limit ${limit} for update skip locked
          ), claimed as (
            update quedada_shares sh set check_in_claimed_until = ${until}::timestamptz,
              check_in_claim_token = ${token}::uuid
            from due where sh.id = due.id
            returning sh.*
          )
          select c.id, c.user_id, c.session_id, s.activity, s.gym_name,
            (c.check_in_answer is null and c.revoked_at is null and c.expires_at > ${now}::timestamptz
              and s.status = 'open' and ${isInSession(sql`c.user_id`)}) as is_wanted
          from claimed c join open_sessions s on s.id = c.session_id`),
      );
      return rows.map((row) => ({
        shareId: row.id,
        token,
        userId: row.user_id,
        sessionId: row.session_id,
        activity: row.activity,
        gymName: row.gym_name,
        isStillWanted: row.is_wanted === true,
      }));
    },

    /** Marks a claimed check-in done, if this claim still holds it (true). */
    async completeCheckIn(shareId: string, token: string, now: Date): Promise<boolean> {
      const rows = rowsOf(
        await db.execute(sql`update quedada_shares set check_in_done_at = ${now}::timestamptz
          where id = ${shareId}::uuid and check_in_claim_token = ${token}::uuid and check_in_done_at is null
          returning 1`),
      );
      return rows.length > 0;
    },
  };
}
