import { SYNC_MAX_PAGE_SIZE } from '#shared/chat/chat-schemas';
import type { Clock } from '../../infra/clock.ts';
import type { SqlExecutor } from '../sync/change-log-repository.ts';
import type { SyncSource } from '../sync/sync-service.ts';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import { hiddenCopy, toChatMessage, toSummary } from './chat-mapping.ts';
import type { ConversationRepository } from './conversation-repository.ts';
import { toGroupSummary } from './group-chat.ts';
import type { GroupRepository } from './group-repository.ts';
import type { MessageRepository } from './message-repository.ts';

/**
 * What the sync (docs/decisions/0041) reads from the chat: the caller's conversations changed at
 * or after the horizon (hidden ones as removed), in id order from the page's offset, and for each
 * the messages the caller may not hold (newest `SYNC_MAX_PAGE_SIZE` per conversation; older ones
 * are the conversation's own pages). A page takes whole conversations until it holds `limit`
 * items. Read and delivered state travel as the summaries' `readSeq` / `deliveredSeq` cursors.
 * The user's groups (decision 0056, amended in session 17) come whole on an answer's first page:
 * a person is in a handful of groups at a time, each with at most `SYNC_MAX_PAGE_SIZE` messages.
 */
export function createChatSyncSource(deps: {
  conversations: ConversationRepository;
  messages: MessageRepository;
  groups: GroupRepository;
  clock: Clock;
}): SyncSource {
  const { conversations, messages, groups } = deps;

  /** The changed groups, the ones the user is out of, and their messages as the user reads them. */
  const loadGroups = async (executor: SqlExecutor, userId: string, horizon: string) => {
    const changed = await groups.findChangedViews(executor, userId, horizon);
    const ids = changed.groups.map((group) => group.conversationId);
    const rows = await messages.findSince(executor, ids, horizon, SYNC_MAX_PAGE_SIZE);
    const people = new Map<string, { name: string; photo: string | null }>();
    for (const group of changed.groups) for (const member of group.members) people.set(member.userId, member);
    const senders = [...new Set(rows.map((row) => row.senderId))];
    const missing = senders.filter((id) => !people.has(id));
    for (const [id, person] of await conversations.findPeople(missing)) people.set(id, person);
    // A sender the user blocked reaches them without text, as in the group's pages.
    const blocked = await groups.blockedSenders(userId, senders);
    const groupMessages: ChatMessage[] = rows
      .sort((a, b) => a.conversationId.localeCompare(b.conversationId) || a.seq - b.seq)
      .map((row) => {
        const message = toChatMessage(row, people.get(row.senderId) ?? { name: '', photo: null });
        return blocked.has(row.senderId) ? hiddenCopy(message) : message;
      });
    return { groups: changed.groups.map(toGroupSummary), removedGroupIds: changed.removedIds, groupMessages };
  };

  return {
    prepare: (userId) => conversations.ensureParticipants(userId, deps.clock.now()),
    async load(executor, userId, { horizon, offset, limit }) {
      const views = (await conversations.findChangedViews(executor, userId, horizon)).sort((a, b) =>
        a.conversationId < b.conversationId ? -1 : a.conversationId > b.conversationId ? 1 : 0,
      );
      const rest = views.slice(offset);
      // A page takes at most `limit` conversations: only theirs are read.
      const shownIds = rest
        .slice(0, limit)
        .filter((view) => !view.isHidden)
        .map((view) => view.conversationId);
      const rows = await messages.findSince(executor, shownIds, horizon, SYNC_MAX_PAGE_SIZE);
      const counts = new Map<string, number>();
      for (const row of rows) counts.set(row.conversationId, (counts.get(row.conversationId) ?? 0) + 1);
      let taken = 0;
      let items = 0;
      while (taken < rest.length && (taken === 0 || items < limit)) {
        const view = rest[taken] as (typeof rest)[number];
        items += 1 + (view.isHidden ? 0 : (counts.get(view.conversationId) ?? 0));
        taken += 1;
      }
      const page = rest.slice(0, taken);
      const inPage = new Set(page.map((view) => view.conversationId));
      const people = new Map<string, { name: string; photo: string | null }>();
      for (const view of page) people.set(view.otherUserId, { name: view.otherName, photo: view.otherPhoto });
      for (const [id, person] of await conversations.findPeople([userId])) people.set(id, person);
      const grouped =
        offset === 0
          ? await loadGroups(executor, userId, horizon)
          : { groups: [], removedGroupIds: [], groupMessages: [] };
      return {
        next: taken < rest.length ? offset + taken : undefined,
        payload: {
          conversations: page.filter((view) => !view.isHidden).map(toSummary),
          removedConversationIds: page.filter((view) => view.isHidden).map((view) => view.conversationId),
          messages: rows
            .filter((row) => inPage.has(row.conversationId))
            .sort((a, b) =>
              a.conversationId === b.conversationId ? a.seq - b.seq : a.createdAt.getTime() - b.createdAt.getTime(),
            )
            .map((row) => toChatMessage(row, people.get(row.senderId) ?? { name: '', photo: null }))
            .concat(grouped.groupMessages),
          groups: grouped.groups,
          removedGroupIds: grouped.removedGroupIds,
        },
      };
    },
  };
}
