import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { isDeletedAccount } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows.ts';

export type ReportRow = {
  id: string;
  reporter_id: string | null;
  reporter_name: string | null;
  reported_id: string | null;
  reason: string;
  details: string | null;
  conversation_id: string | null;
  open_session_id: string | null;
  message_id: string | null;
  message_text: string | null;
  /** The conversation is a group's (null: none, or gone). */
  is_group: boolean | null;
  status: string;
  resolution: string | null;
  created_at: Date;
};

export type RestrictionRow = {
  id: string;
  user_id: string;
  kind: string;
  reason: string;
  created_at: Date;
  ends_at: Date | null;
  lifted_at: Date | null;
  appeal_id: string | null;
  appeal_text: string | null;
  appeal_status: string | null;
  appeal_created_at: Date | null;
};

const REPORT_COLUMNS = sql`r.id, r.reporter_id, reporter.name as reporter_name, r.reported_id, r.reason, r.details,
  r.conversation_id, r.open_session_id, r.message_id, r.message_text,
  (select rc.kind = 'group' from conversations rc where rc.id = r.conversation_id) as is_group,
  r.status, r.resolution, r.created_at`;

const RESTRICTION_COLUMNS = sql`x.id, x.user_id, x.kind, x.reason, x.created_at, x.ends_at, x.lifted_at,
  a.id as appeal_id, a.text as appeal_text, a.status as appeal_status, a.created_at as appeal_created_at`;

export type ModerationRepository = ReturnType<typeof createModerationRepository>;

/** What the console reads: the queue, one report with its evidence, a person's history. */
export function createModerationRepository(db: Database) {
  return {
    /** Open reports, oldest first, with the reported person and how many open reports they have. */
    async openReports(limit: number) {
      return rowsOf<
        ReportRow & {
          reported_name: string | null;
          reported_photo: string | null;
          open_about: number;
          is_held: boolean;
        }
      >(
        await db.execute(sql`select ${REPORT_COLUMNS}, reported.name as reported_name,
            (select p.photos->>0 from profiles p where p.user_id = r.reported_id) as reported_photo,
            (select count(*)::int from reports o where o.reported_id = r.reported_id and o.status = 'open') as open_about,
            exists (select 1 from account_restrictions h where h.user_id = r.reported_id and h.kind = 'review_hold'
              and h.lifted_at is null) as is_held
          from reports r
          left join users reporter on reporter.id = r.reporter_id
          left join users reported on reported.id = r.reported_id
          where r.status = 'open'
          order by r.created_at asc limit ${limit}`),
      );
    },

    /** Open appeals, oldest first, with their restriction. */
    async openAppeals(limit: number) {
      return rowsOf<RestrictionRow & { person_name: string }>(
        await db.execute(sql`select ${RESTRICTION_COLUMNS}, u.name as person_name
          from moderation_appeals a
          join account_restrictions x on x.id = a.restriction_id
          join users u on u.id = a.user_id
          where a.status = 'open'
          order by a.created_at asc limit ${limit}`),
      );
    },

    async report(reportId: string): Promise<ReportRow | undefined> {
      const [row] = rowsOf<ReportRow>(
        await db.execute(sql`select ${REPORT_COLUMNS} from reports r
          left join users reporter on reporter.id = r.reporter_id where r.id = ${reportId}::uuid`),
      );
      return row;
    },

    /** The person as moderators see them: account, profile, whether deleted and whether in decks now. */
    async person(userId: string) {
      const [row] = rowsOf<{
        id: string;
        name: string;
        last_name: string;
        email: string;
        birth_date: string | null;
        city: string | null;
        bio: string | null;
        photos: string[] | null;
        in_decks: boolean | null;
      }>(
        await db.execute(sql`select u.id, u.name, u.last_name, u.email, p.birth_date, p.city, p.bio, p.photos,
            (p.active and p.visible) as in_decks
          from users u left join profiles p on p.user_id = u.id where u.id = ${userId}::uuid`),
      );
      return row && { ...row, isDeleted: isDeletedAccount(row) };
    },

    /** The open session a report is about, as it stands now. */
    async openSession(sessionId: string) {
      const [row] = rowsOf<{
        id: string;
        activity: string;
        gym_name: string;
        gym_address: string | null;
        starts_at: Date | string;
        duration_min: number;
        note: string | null;
        status: string;
        places: number;
        taken: number;
      }>(
        await db.execute(sql`select s.id, s.activity, s.gym_name, s.gym_address, s.starts_at, s.duration_min,
            s.note, s.status, s.places,
            (select count(*)::int from open_session_members m where m.session_id = s.id and m.state = 'approved') as taken
          from open_sessions s where s.id = ${sessionId}::uuid`),
      );
      return row;
    },

    /**
     * The conversation's last messages up to the moment of the report (the evidence the reporter
     * saw), only when the reported person is one of its two participants, or was ever a member of
     * the group it is.
     */
    async reportedMessages(conversationId: string, reportedId: string, until: Date, limit: number) {
      const rows = rowsOf<{ id: string; sender_id: string; sender_name: string; text: string; created_at: Date }>(
        await db.execute(sql`select m.id, m.sender_id, u.name as sender_name, m.text, m.created_at
          from messages m
          join conversations c on c.id = m.conversation_id
          join users u on u.id = m.sender_id
          where m.conversation_id = ${conversationId}::uuid
            and (${reportedId}::uuid in (c.user_a, c.user_b) or (c.kind = 'group' and exists (select 1
              from conversation_participants p where p.conversation_id = c.id and p.user_id = ${reportedId}::uuid)))
            and m.created_at <= ${until}
          order by m.seq desc limit ${limit}`),
      );
      return rows.reverse();
    },

    /** Every other report about the person, newest first. */
    async reportsAbout(userId: string, exceptId: string, limit: number) {
      return rowsOf<ReportRow>(
        await db.execute(sql`select ${REPORT_COLUMNS} from reports r
          left join users reporter on reporter.id = r.reporter_id
          where r.reported_id = ${userId}::uuid and r.id <> ${exceptId}::uuid
          order by r.created_at desc limit ${limit}`),
      );
    },

    /** The person's restrictions (with their appeal), newest first. */
    async restrictionsOf(userId: string) {
      return rowsOf<RestrictionRow>(
        await db.execute(sql`select ${RESTRICTION_COLUMNS} from account_restrictions x
          left join moderation_appeals a on a.restriction_id = x.id
          where x.user_id = ${userId}::uuid order by x.created_at desc`),
      );
    },

    async restriction(restrictionId: string) {
      const [row] = rowsOf<RestrictionRow>(
        await db.execute(sql`select ${RESTRICTION_COLUMNS} from account_restrictions x
          left join moderation_appeals a on a.restriction_id = x.id where x.id = ${restrictionId}::uuid`),
      );
      return row;
    },

    async appeal(appealId: string) {
      const [row] = rowsOf<{ id: string; restriction_id: string; user_id: string; status: string }>(
        await db.execute(
          sql`select id, restriction_id, user_id, status from moderation_appeals where id = ${appealId}::uuid`,
        ),
      );
      return row;
    },
  };
}
