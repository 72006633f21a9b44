import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import { SAFETY_MESSAGES } from '#shared/safety/safety-schemas';
import { badRequest, notFound } from '../../errors.ts';
import type { GroupReportRepository } from './group-report-repository.ts';

/**
 * Who a report made from a group chat is about (docs/decisions/0056, amendment of session 17), for
 * the safety feature's report: only a current member may report in a group (anyone else gets the
 * 404 of an unknown conversation); the person must have been a member, the message must be this
 * group's; a message's author is the person reported. Undefined for a conversation that is no
 * group (a match's chat: reported as before).
 */
export function createGroupReports(deps: { repository: GroupReportRepository }) {
  return {
    async groupReport(
      callerId: string,
      conversationId: string,
      target: { userId?: string; messageId?: string },
    ): Promise<{ reportedId: string; messageText: string | null } | undefined> {
      const facts = await deps.repository.facts(
        conversationId,
        callerId,
        target.userId ?? null,
        target.messageId ?? null,
      );
      if (!facts?.isGroup) return undefined;
      if (!facts.isCallerMember) throw notFound(CHAT_MESSAGES.conversationNotFound);
      if (target.messageId) {
        if (!facts.message) throw notFound(SAFETY_MESSAGES.messageNotFound);
        if (target.userId && target.userId !== facts.message.senderId)
          throw badRequest(SAFETY_MESSAGES.invalidMessage, 'VALIDATION');
        return { reportedId: facts.message.senderId, messageText: facts.message.text };
      }
      if (!target.userId) throw badRequest(SAFETY_MESSAGES.reportTargetRequired, 'VALIDATION');
      if (!facts.wasTargetMember) throw badRequest(SAFETY_MESSAGES.notInGroup, 'VALIDATION');
      return { reportedId: target.userId, messageText: null };
    },
  };
}

export type GroupReports = ReturnType<typeof createGroupReports>;
