/**
 * Open sessions («Entrenos abiertos») over the benchmark data set (generate.ts), inside the
 * database with `INSERT … SELECT generate_series` — seconds, not thousands of HTTP calls.
 * Deterministic like generate.ts: every "random" value is a hash of (session number, field).
 *
 * - `upcoming` open sessions (5k for issue #35), starting 1 h to 14 days from now at a quarter
 *   hour, and `past` sessions (as many by default) ended in the weeks before, 5k every 4 weeks (1
 *   in 10 cancelled): history the list must step over. Every tenth upcoming one repeats a past session of the same host («Repetir la
 *   próxima semana», so `repeat_of` and the invited rule have rows).
 * - Each host is a bench user; the session is at one of 40 gyms of the host's city (its position
 *   snapped to 0.01°), with an activity, a level (1 in 4 «Todos los niveles»), 1–7 places, host
 *   approval or first come, and 1 in 7 for «Mis matches» only.
 * - Members: 0 to `places` approved and 0–2 requested people of the host's city per session.
 * - Matches: each user has two (the next users of its city), with their active conversations —
 *   the «Mis matches» sessions' rule reads them.
 * - Blocks: 20 per 1,000 users between people of one city; hosts of one user in 50 hidden («Perfil
 *   visible» off) and one in 97 restricted (`active = false`).
 * Reminders are spent (none falls due while a bench runs). The working tables are unlogged, not
 * temporary: the statements may run on different connections of a pool.
 */
import { CITIES, userIdSql } from './generate.ts';

/** Runs one SQL statement, always on the same connection. */
export type Execute = (statement: string) => Promise<unknown>;

export type OpenSessionScale = { profiles: number; upcoming: number; past?: number };

const ACTIVITIES = [
  'Fuerza',
  'Pierna',
  'Torso',
  'CrossFit',
  'Cardio',
  'Spinning',
  'Yoga',
  'Natación',
  'Running',
  'Boxeo',
];
const LEVELS = ['all', 'beginner', 'intermediate', 'advanced'];

/** A deterministic number in [0, 1) from a number and a salt (generate.ts's rnd). */
const rnd = (n: string, salt: string) =>
  `(('x' || substr(md5((${n})::text || '${salt}'), 1, 8))::bit(32)::bigint / 4294967296.0)`;

const textArray = (values: readonly string[]) => `array[${values.map((value) => `'${value}'`).join(',')}]::text[]`;

/** The uuid of bench session `i` (1-based). */
export const sessionIdSql = (i: string) => `md5('bench-open-session-' || ${i})::uuid`;

/**
 * Seeds the sessions, members, matches and blocks, starting from now: a kept database's earlier
 * seed (BENCH_NEARBY_KEEP) is replaced, since its upcoming sessions have moved into the past.
 */
export async function seedOpenSessions(execute: Execute, scale: OpenSessionScale): Promise<void> {
  for (const table of ['open_sessions', 'conversations', 'matches', 'blocks']) await execute(`delete from ${table}`);
  const { profiles, upcoming, past = upcoming } = scale;
  const total = upcoming + past;
  const pastDays = Math.max(27, Math.ceil((27 * past) / 5_000));
  // Session i ≤ upcoming is upcoming; i > upcoming is past, and i + upcoming is the twin of i. An
  // upcoming session that repeats (every tenth) repeats its twin and shares its host.
  const cities = CITIES.map(([name, lat, lon], index) => `(${index}, '${name}', ${lat}, ${lon})`).join(',');
  await execute('create unlogged table bench_session_cities (idx int primary key, name text, lat float8, lon float8)');
  await execute(`insert into bench_session_cities values ${cities}`);
  const hostKey = `(case when i > ${upcoming} and i <= ${2 * upcoming} and (i - ${upcoming}) % 10 = 0 then i - ${upcoming} else i end)`;
  await execute(`create unlogged table bench_sessions as
    select i, h, (h % 10) as city, floor(${rnd('i', 'gym')} * 40)::int as gym,
      1 + floor(${rnd('i', 'places')} * 7)::int as places, i <= ${upcoming} as is_upcoming
    from generate_series(1, ${total}) as i,
      lateral (select 1 + floor(${rnd(hostKey, 'host')} * ${profiles})::int as h) host`);
  await execute(`insert into open_sessions (id, host_id, client_id, gym_name, gym_address, latitude, longitude,
      starts_at, duration_min, activity, level, places, note, visibility, approval, status, reminder_at,
      reminder_done_at, attendance_reminder_done_at, repeat_of, created_at, updated_at)
    select ${sessionIdSql('s.i')}, ${userIdSql('s.h')}, 'bench-session-' || s.i,
      'Gimnasio ' || c.name || ' ' || s.gym, 'Calle ' || s.gym || ', ' || c.name,
      round((c.lat + 0.12 * (${rnd('s.city * 100 + s.gym', 'glat')} - 0.5))::numeric, 2)::float8,
      round((c.lon + 0.16 * (${rnd('s.city * 100 + s.gym', 'glon')} - 0.5))::numeric, 2)::float8,
      date_trunc('hour', now()) + case when s.is_upcoming
        then make_interval(mins => 60 + 15 * floor(${rnd('s.i', 'start')} * 14 * 96)::int)
        else -make_interval(mins => 180 + 15 * floor(${rnd('s.i', 'start')} * ${pastDays} * 96)::int) end,
      (array[45, 60, 60, 90])[1 + floor(${rnd('s.i', 'dur')} * 4)::int],
      (${textArray(ACTIVITIES)})[1 + floor(${rnd('s.i', 'act')} * ${ACTIVITIES.length})::int],
      (${textArray(LEVELS)})[1 + floor(${rnd('s.i', 'lvl')} * ${LEVELS.length})::int],
      s.places, case when s.i % 3 = 0 then 'Buen ambiente, ven con ganas.' end,
      case when ${rnd('s.i', 'vis')} < 1.0 / 7 then 'matches' else 'nearby' end,
      case when ${rnd('s.i', 'appr')} < 0.5 then 'host' else 'first' end,
      case when not s.is_upcoming and s.i % 10 = 3 then 'cancelled' else 'open' end,
      null, now(), now(),
      case when s.is_upcoming and s.i % 10 = 0 and s.i + ${upcoming} <= ${total} then ${sessionIdSql(`(s.i + ${upcoming})`)} end,
      now(), now()
    from bench_sessions s join bench_session_cities c on c.idx = s.city`);
  // Members of the host's city (user numbers ≡ the host's mod 10), none of them the host.
  await execute(`insert into open_session_members (session_id, user_id, state, created_at, updated_at)
    select ${sessionIdSql('s.i')}, ${userIdSql('m.n')}, case when k <= a.approved then 'approved' else 'requested' end,
      now(), now()
    from bench_sessions s,
      lateral (select floor(${rnd('s.i', 'ap')} * (s.places + 1))::int as approved,
        case when s.is_upcoming then floor(${rnd('s.i', 'rq')} * 3)::int else 0 end as requested) a,
      generate_series(1, a.approved + a.requested) as k,
      lateral (select ((s.h - 1 + 10 * (k * 997 + floor(${rnd('s.i', 'm')} * 5000)::int)) % ${profiles}) + 1 as n) m
    where m.n <> s.h`);
  // Two matches per user with the next users of its city, each with its active conversation.
  await execute(`create unlogged table bench_pairs as
    select distinct least(x.a, x.b) as low, greatest(x.a, x.b) as high
    from generate_series(1, ${profiles}) as n, generate_series(1, 2) as k,
      lateral (select ${userIdSql('n')} as a, ${userIdSql(`(((n - 1 + 10 * k * 31) % ${profiles}) + 1)`)} as b) x`);
  await execute(`insert into matches (id, user_low, user_high, swipe_type)
    select md5('bench-match-' || low || high)::uuid, low, high, 'like' from bench_pairs`);
  await execute(`insert into conversations (match_id, user_a, user_b, swipe_type)
    select md5('bench-match-' || low || high)::uuid, low, high, 'like' from bench_pairs`);
  await execute(`insert into blocks (blocker_id, blocked_id)
    select ${userIdSql(`(1 + floor(${rnd('b', 'blocker')} * ${profiles})::int)`)},
      ${userIdSql(`(((floor(${rnd('b', 'blocker')} * ${profiles})::int + 10 * (1 + floor(${rnd('b', 'blocked')} * 9999)::int)) % ${profiles}) + 1)`)}
    from generate_series(1, ${Math.round(profiles / 50)}) as b
    on conflict do nothing`);
  await execute(
    `update profiles set visible = false where user_id in (select ${userIdSql('n')} from generate_series(50, ${profiles}, 50) as n)`,
  );
  await execute(
    `update profiles set active = false where user_id in (select ${userIdSql('n')} from generate_series(97, ${profiles}, 97) as n)`,
  );
  await execute('drop table bench_sessions');
  await execute('drop table bench_session_cities');
  await execute('drop table bench_pairs');
  await execute('vacuum analyze');
}
