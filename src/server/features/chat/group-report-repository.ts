import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../sync/change-log-repository.ts';

/** What a report from a group's chat needs to know about the group, the person and the message. */
export type GroupReportFacts = {
  isGroup: boolean;
  /** The reporter is one of the group's current members. */
  isCallerMember: boolean;
  /** The person reported was ever a member (someone who left after writing stays reportable). */
  wasTargetMember: boolean;
  /** The message, when one was named and it is this group's. */
  message: { senderId: string; text: string } | null;
};

/** The reads behind a report made from a group chat (docs/decisions/0056, amendment of session 17). */
export function createGroupReportRepository(db: Database) {
  return {
    /** Undefined for an unknown conversation. */
    async facts(
      conversationId: string,
      callerId: string,
      targetId: string | null,
      messageId: string | null,
    ): Promise<GroupReportFacts | undefined> {
      const [row] = rowsOf<{
        kind: string;
        is_caller_member: boolean;
        was_target_member: boolean;
        sender_id: string | null;
        text: string | null;
      }>(
        await db.execute(sql`select c.kind,
            coalesce(${callerId}::uuid = any(c.group_members), false) as is_caller_member,
            exists (select 1 from conversation_participants p
              where p.conversation_id = c.id and p.user_id = ${targetId}::uuid) as was_target_member,
            m.sender_id, m.text
          from conversations c
          left join messages m on m.id = ${messageId}::uuid and m.conversation_id = c.id
          where c.id = ${conversationId}::uuid`),
      );
      if (!row) return undefined;
      return {
        isGroup: row.kind === 'group',
        isCallerMember: row.is_caller_member === true,
        wasTargetMember: row.was_target_member === true,
        message: row.sender_id && row.text !== null ? { senderId: row.sender_id, text: row.text } : null,
      };
    },
  };
}

export type GroupReportRepository = ReturnType<typeof createGroupReportRepository>;
