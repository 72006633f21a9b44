import type { Logger } from '../../logger.ts';
import type { MemberWriteOutcome } from './open-session-member-repository.ts';
import type { OpenSessionRecord, OpenSessionRepository } from './open-session-repository.ts';

/**
 * The chat's group conversations (decision 0041's `kind = 'group'`), as open sessions use them:
 * the chat module's `groups` (each call runs its own transaction and tells the members).
 */
export type OpenSessionGroupChat = {
  createGroupConversation(input: { ownerId: string; title: string }): Promise<{ conversationId: string }>;
  addGroupMember(conversationId: string, userId: string): Promise<unknown>;
  removeGroupMember(conversationId: string, userId: string, reason: 'left' | 'removed'): Promise<unknown>;
  closeGroupConversation(conversationId: string): Promise<unknown>;
  /** «Salir» in a session's chat is decided here (`leaveChat`): it leaves the session. */
  onLeave?(handler: (userId: string, conversationId: string, clientId: string | undefined) => Promise<boolean>): void;
};

/**
 * A session's group chat kept in step with the session (docs/decisions/0056), after each write
 * has committed: made on publish, members in and out as places change, closed when it ends.
 * Without a `groupChat` every step does nothing (sessions then have no chat).
 */
export function createOpenSessionGroupSync(deps: {
  sessions: Pick<OpenSessionRepository, 'findById' | 'setConversation'>;
  groupChat?: OpenSessionGroupChat;
  logger: Logger;
}) {
  const { sessions, logger } = deps;

  /**
   * Keeps the group chat in step after a write has committed: best effort, logged on failure
   * (the session stays right; the chat's membership is what a later change repairs).
   */
  const inGroup = (sessionId: string, work: (chat: OpenSessionGroupChat) => Promise<unknown>) => {
    const chat = deps.groupChat;
    if (!chat) return Promise.resolve();
    return work(chat).then(
      () => undefined,
      (error: unknown) => logger.warn({ err: error, sessionId }, 'open sessions: group chat change failed'),
    );
  };

  return {
    /** The member writes' effect on the group: in when approved, out when an approved one goes. */
    followMembership(record: OpenSessionRecord, userId: string, outcome: MemberWriteOutcome) {
      const conversationId = record.conversationId;
      if (outcome.kind !== 'applied' || !conversationId || outcome.state === outcome.previous) return Promise.resolve();
      if (outcome.state === 'approved') {
        return inGroup(record.id, (chat) => chat.addGroupMember(conversationId, userId));
      }
      if (outcome.previous !== 'approved') return Promise.resolve();
      const reason = outcome.state === 'left' ? 'left' : 'removed';
      return inGroup(record.id, (chat) => chat.removeGroupMember(conversationId, userId, reason));
    },

    closeGroup(record: OpenSessionRecord) {
      const conversationId = record.conversationId;
      return conversationId
        ? inGroup(record.id, (chat) => chat.closeGroupConversation(conversationId))
        : Promise.resolve();
    },

    /** A session's group: made once, owned by the host (a replay whose first try failed makes it then). */
    async ensureGroup(sessionId: string, hostId: string, title: string) {
      const found = await sessions.findById(sessionId);
      if (!found || found.conversationId || found.status !== 'open') return;
      await inGroup(sessionId, async (chat) => {
        const { conversationId } = await chat.createGroupConversation({ ownerId: hostId, title });
        // Another try linked one first: this one is closed again, so no orphan stays open.
        if (!(await sessions.setConversation(sessionId, conversationId)))
          await chat.closeGroupConversation(conversationId);
      });
    },
  };
}
