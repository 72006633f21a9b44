import { type SQL, sql } from 'drizzle-orm';
import type { CheckInAnswer, StoredShareRecord } from '#shared/quedadas/share-schemas';
import type { Database } from '../../db/client.ts';

/** A share row (a quedada's or an open session's, migration 0024) with its owner. */
export type ShareRecord = StoredShareRecord & { userId: string };

/** What the public page reads: the share, its quedada and the partner (the other member). */
export type SharedRecord = ShareRecord & {
  quedadaId: string;
  sharedBy: string;
  partnerName: string;
  partnerPhoto: string | null;
  partnerVerified: boolean;
  gymName: string;
  gymAddress: string | null;
  startsAt: Date;
  durationMin: number;
  activity: string;
  status: string;
};

/** A `quedada_shares` row as node-postgres answers it. */
export type ShareRow = {
  id: string;
  quedada_id: string | null;
  session_id?: string | null;
  user_id: string;
  expires_at: Date | string;
  check_in_at: Date | string | null;
  check_in_answer: string | null;
  answered_at: Date | string | null;
  revoked_at: Date | string | null;
  created_at: Date | string;
};

const date = (value: Date | string) => new Date(value);
const maybeDate = (value: Date | string | null) => (value === null ? null : new Date(value));

/** A row as a record (both kinds). */
export function toShareRecord(row: ShareRow): ShareRecord {
  return {
    id: row.id,
    quedadaId: row.quedada_id,
    sessionId: row.session_id ?? null,
    userId: row.user_id,
    expiresAt: date(row.expires_at),
    checkInAt: maybeDate(row.check_in_at),
    checkInAnswer: row.check_in_answer as CheckInAnswer | null,
    answeredAt: maybeDate(row.answered_at),
    revokedAt: maybeDate(row.revoked_at),
    createdAt: date(row.created_at),
  };
}

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** The caller's session is live (docs/decisions/0018 §4), as in every quedada write. */
const liveSession = (userId: string, sessionId: string, now: Date) => sql`exists (
  select 1 from sessions s where s.id = ${sessionId}::uuid and s.user_id = ${userId}::uuid
    and s.revoked_at is null and s.expires_at > ${now}::timestamptz)`;

export type CreateShareInput = {
  userId: string;
  sessionId: string;
  quedadaId: string;
  tokenHash: string;
  clientId: string;
  checkInAt: Date | null;
  graceMs: number;
  now: Date;
};

export type CreateShareOutcome =
  | { kind: 'created'; share: ShareRecord; partnerId: string }
  | { kind: 'repeat'; share: ShareRecord }
  | { kind: 'refused' };

export type ShareRepository = ReturnType<typeof createShareRepository>;

export function createShareRepository(db: Database) {
  const one = async (query: SQL): Promise<ShareRecord | undefined> => {
    const [row] = rowsOf<ShareRow>(await db.execute(query));
    return row ? toShareRecord(row) : undefined;
  };

  return {
    /**
     * One statement: the share exists only for a member with a live session, of an accepted
     * quedada that has not ended, and its check-in job (kind `checkin`, the quedada jobs'
     * exactly-once claim) is scheduled with it. A used clientId or token inserts nothing.
     */
    async create(input: CreateShareInput): Promise<CreateShareOutcome> {
      const { userId, now } = input;
      const [row] = rowsOf<ShareRow & { partner_id: string }>(
        await db.execute(sql`
          with inserted as (
            insert into quedada_shares (quedada_id, user_id, token_hash, client_id, expires_at, check_in_at, created_at)
            select q.id, ${userId}::uuid, ${input.tokenHash}::text, ${input.clientId}::text,
              q.starts_at + make_interval(mins => q.duration_min) + ${`${input.graceMs} milliseconds`}::interval,
              ${input.checkInAt}::timestamptz, ${now}::timestamptz
            from quedadas q
            where q.id = ${input.quedadaId}::uuid and ${userId}::uuid in (q.user_a, q.user_b)
              and q.status = 'accepted' and q.starts_at + make_interval(mins => q.duration_min) > ${now}::timestamptz
              and ${liveSession(userId, input.sessionId, now)}
            on conflict do nothing
            returning *
          ), job as (
            insert into quedada_jobs (quedada_id, user_id, kind, run_at)
            select quedada_id, user_id, 'checkin', check_in_at from inserted where check_in_at is not null
            on conflict (quedada_id, kind, user_id) do update set run_at = excluded.run_at, done_at = null,
              claimed_until = null, claim_token = null
            returning 1
          )
          select i.*, case when q.user_a = i.user_id then q.user_b else q.user_a end as partner_id
          from inserted i join quedadas q on q.id = i.quedada_id`),
      );
      if (row) return { kind: 'created', share: toShareRecord(row), partnerId: row.partner_id };
      const repeated = await this.findByClientId(userId, input.clientId);
      if (repeated?.quedadaId === input.quedadaId) return { kind: 'repeat', share: repeated };
      return { kind: 'refused' };
    },

    findByClientId(userId: string, clientId: string): Promise<ShareRecord | undefined> {
      return one(sql`select * from quedada_shares where user_id = ${userId}::uuid and client_id = ${clientId}::text`);
    },

    /** A share of its owner only (anyone else's reads as missing), a quedada's or an open session's. */
    findOwned(userId: string, shareId: string): Promise<ShareRecord | undefined> {
      return one(sql`select * from quedada_shares where id = ${shareId}::uuid and user_id = ${userId}::uuid`);
    },

    /** The owner's shares of a quedada, newest first. */
    async listOwned(userId: string, quedadaId: string): Promise<ShareRecord[]> {
      return rowsOf<ShareRow>(
        await db.execute(sql`select * from quedada_shares where quedada_id = ${quedadaId}::uuid
          and user_id = ${userId}::uuid order by created_at desc limit 20`),
      ).map(toShareRecord);
    },

    /** Revokes at once; revoking again keeps the first time (a replay changes nothing). */
    revoke(userId: string, shareId: string, now: Date): Promise<ShareRecord | undefined> {
      return one(sql`update quedada_shares set revoked_at = coalesce(revoked_at, ${now}::timestamptz)
        where id = ${shareId}::uuid and user_id = ${userId}::uuid returning *`);
    },

    /** Records the first answer only; a later one (a replay, another device) changes nothing. */
    answer(userId: string, shareId: string, answer: CheckInAnswer, now: Date): Promise<ShareRecord | undefined> {
      return one(sql`update quedada_shares set check_in_answer = ${answer}::text, answered_at = ${now}::timestamptz
        where id = ${shareId}::uuid and user_id = ${userId}::uuid and check_in_at is not null
          and check_in_answer is null and revoked_at is null and expires_at > ${now}::timestamptz
        returning *`);
    },

    /** The public page's data for a live link (not revoked, not expired), or undefined. */
    async findShared(tokenHash: string, now: Date): Promise<SharedRecord | undefined> {
      const [row] = rowsOf<
        ShareRow & {
          shared_by: string | null;
          partner_name: string | null;
          partner_photo: string | null;
          partner_verified: boolean | null;
          gym_name: string;
          gym_address: string | null;
          starts_at: Date | string;
          duration_min: number;
          activity: string;
          status: string;
        }
      >(
        await db.execute(sql`
          select s.*, q.gym_name, q.gym_address, q.starts_at, q.duration_min, q.activity, q.status,
            (select coalesce(p.name, u.name) from users u left join profiles p on p.user_id = u.id
              where u.id = s.user_id) as shared_by,
            coalesce(pp.name, pu.name) as partner_name, pp.photos->>0 as partner_photo,
            coalesce(pp.verified, false) as partner_verified
          from quedada_shares s
          join quedadas q on q.id = s.quedada_id
          join users pu on pu.id = case when q.user_a = s.user_id then q.user_b else q.user_a end
          left join profiles pp on pp.user_id = pu.id
          where s.token_hash = ${tokenHash}::text and s.revoked_at is null and s.expires_at > ${now}::timestamptz`),
      );
      if (!row?.quedada_id) return undefined;
      return {
        ...toShareRecord(row),
        quedadaId: row.quedada_id,
        sharedBy: row.shared_by ?? '',
        partnerName: row.partner_name ?? '',
        partnerPhoto: row.partner_photo,
        partnerVerified: row.partner_verified === true,
        gymName: row.gym_name,
        gymAddress: row.gym_address,
        startsAt: date(row.starts_at),
        durationMin: row.duration_min,
        activity: row.activity,
        status: row.status,
      };
    },
  };
}
