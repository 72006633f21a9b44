import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { rowsOf, type SqlExecutor } from '../../db/rows.ts';

/**
 * The jobs an open session's row carries (docs/decisions/0055): the reminder before the start
 * (`reminder_*`, migration 0020) and «¿Quién vino?» after the end (`attendance_reminder_*`, 0023).
 */
export type OpenSessionJob = 'reminder' | 'attendance_reminder';

const column = (job: OpenSessionJob, name: 'claimed_until' | 'claim_token' | 'done_at') => sql.raw(`${job}_${name}`);

/**
 * Claims the held sessions whose `job` is due (`isDue`, over `open_sessions`, oldest `orderBy`
 * first) for `leaseMs` — the quedada jobs' pattern (docs/decisions/0029): `for update skip locked`,
 * so two nodes never take the same session, and a lease that runs out (the node died) makes it
 * claimable again. `select` reads from the claimed rows as `s` (all their columns) in the same
 * statement. Answers the claim's token and the rows.
 */
export async function claimDueJobs<T>(
  executor: SqlExecutor,
  job: OpenSessionJob,
  options: { isDue: SQL; orderBy: SQL; now: Date; leaseMs: number; limit: number; select: SQL },
): Promise<{ token: string; rows: T[] }> {
  const { now, limit } = options;
  const token = randomUUID();
  const until = new Date(now.getTime() + options.leaseMs);
  const rows = rowsOf<T>(
    await executor.execute(sql`
      with due as (
        select id from open_sessions
        where status = 'open' and ${column(job, 'done_at')} is null and ${options.isDue}
          and (${column(job, 'claimed_until')} is null or ${column(job, 'claimed_until')} < ${now}::timestamptz)
        order by ${options.orderBy} limit ${limit} for update skip locked
      ), claimed as (
        update open_sessions s set ${column(job, 'claimed_until')} = ${until}::timestamptz,
          ${column(job, 'claim_token')} = ${token}::uuid
        from due where s.id = due.id
        returning s.*
      )
      ${options.select}`),
  );
  return { token, rows };
}

/** Marks a claimed job done, if this claim still holds it (true). */
export async function completeJob(
  executor: SqlExecutor,
  job: OpenSessionJob,
  sessionId: string,
  token: string,
  now: Date,
): Promise<boolean> {
  const rows = rowsOf(
    await executor.execute(sql`update open_sessions set ${column(job, 'done_at')} = ${now}::timestamptz
      where id = ${sessionId}::uuid and ${column(job, 'claim_token')} = ${token}::uuid
        and ${column(job, 'done_at')} is null
      returning 1`),
  );
  return rows.length > 0;
}
