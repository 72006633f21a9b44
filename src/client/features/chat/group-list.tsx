import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { GroupSummary } from '#shared/chat/chat-schemas';
import { useIsOnline } from '../../services/network.ts';
import { UsersIcon } from '../../ui/icons.tsx';
import { currentDb, readSavedGroups as readSavedGroupsIn, SAVED_AT, writeMeta } from '../../services/local-db.ts';
import { connection } from '../../services/socket.ts';
import { chatApi } from './chat-api.ts';
import { ListName, ListPreview, ListTime, UnreadBadge } from './list-row-parts.tsx';

/** The preview line of a group: who wrote last (first name, or «Tú») and what. */
function previewOf(group: GroupSummary, ownUserId: string): string {
  const last = group.lastMessage;
  if (!last) return 'Aún no hay mensajes';
  if (last.senderId === ownUserId) return `Tú: ${last.text}`;
  // No text: from someone the reader blocked (the server leaves it out).
  if (!last.text) return 'Mensaje oculto';
  const sender = group.members.find((member) => member.userId === last.senderId)?.name;
  return sender ? `${sender}: ${last.text}` : last.text;
}

/** The device's copy of the groups (null when this device never listed them). */
async function readSavedGroups(): Promise<GroupSummary[] | null> {
  const db = currentDb();
  return db ? readSavedGroupsIn(db) : null;
}

/**
 * The group chats of /messages: the device's copy at once, then the server's list when the screen
 * opens, when the connection returns, and on a group's message or change. `hasSettled` turns true
 * once the first of them has answered (or failed), so the screen can draw the section and the
 * conversations below it together instead of pushing the list down when the groups arrive.
 */
export function useGroups(): { groups: GroupSummary[]; hasSettled: boolean; hasReadCopy: boolean } {
  const [groups, setGroups] = useState<GroupSummary[]>([]);
  const [hasSettled, setHasSettled] = useState(false);
  // Until the device's copy is read, nothing is drawn below the title: a skeleton drawn first would
  // be pushed down by a section drawn from the copy a moment later (the sync keeps a copy).
  const [hasReadCopy, setHasReadCopy] = useState(false);
  const isOnline = useIsOnline();

  useEffect(() => {
    let isCurrent = true;
    void readSavedGroups().then((saved) => {
      if (!isCurrent) return;
      if (saved) setGroups((shown) => (shown.length > 0 ? shown : saved));
      // With a copy the section is drawn now; without one, once the server answers (or offline).
      if (saved || !navigator.onLine) setHasSettled(true);
      setHasReadCopy(true);
    });
    return () => {
      isCurrent = false;
    };
  }, []);

  useEffect(() => {
    if (!isOnline) {
      setHasSettled(true);
      return;
    }
    let isCurrent = true;
    let isLoading = false;
    let isAskedAgain = false;
    // One read at a time; news that arrives during a read asks for one more read after it.
    const load = async () => {
      if (isLoading) {
        isAskedAgain = true;
        return;
      }
      isLoading = true;
      try {
        const answer = await chatApi.groups();
        if (isCurrent) setGroups(answer.groups);
        const db = currentDb();
        if (db) await writeMeta(db, SAVED_AT.groups, JSON.stringify(answer.groups)).catch(() => undefined);
      } catch {
        // Offline or refused: the section keeps what it showed.
      } finally {
        isLoading = false;
        if (isCurrent) setHasSettled(true);
        if (isAskedAgain && isCurrent) {
          isAskedAgain = false;
          void load();
        }
      }
    };
    void load();
    // Live: a group's message (no receiver) or a change of a group (members, closed) reads the list again.
    const offMessage = connection.on('newMessage', (message) => {
      if (message.receiverId === null) void load();
    });
    const offUpdated = connection.on('groupUpdated', () => void load());
    return () => {
      isCurrent = false;
      offMessage();
      offUpdated();
    };
  }, [isOnline]);

  return { groups, hasSettled, hasReadCopy };
}

/**
 * «Grupos de entreno» above the conversations of /messages (docs/decisions/0056, amended in
 * sessions 10 and 11): the chats of the open sessions one takes part in, with their unread count.
 * They stay out of the spec's conversation list and its count; the section shows only when there
 * are groups, and says nothing when they cannot load (the conversations below are the screen's
 * subject).
 */
export function GroupList({ groups, ownUserId, now }: { groups: GroupSummary[]; ownUserId: string; now: number }) {
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="groups-title" className="flex flex-col gap-1">
      <h2 id="groups-title" className="px-1 text-sm font-semibold text-stone-600 dark:text-stone-400">
        Grupos de entreno
      </h2>
      <ul className="-mx-2 flex flex-col gap-0.5" aria-labelledby="groups-title">
        {groups.map((group) => {
          const hasUnread = group.unreadCount > 0;
          return (
            <li key={group.conversationId} data-testid="group-item" data-conversation-id={group.conversationId}>
              <Link
                to="/messages/$conversationId"
                params={{ conversationId: group.conversationId }}
                className="flex items-center gap-3 rounded-2xl p-3 transition-colors duration-150 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:hover:bg-white/5 dark:focus-visible:outline-brand-400"
              >
                <span
                  aria-hidden="true"
                  className="grid size-13 shrink-0 place-items-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-500/12 dark:text-brand-300"
                >
                  <UsersIcon className="size-6" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-center gap-1.5">
                    <ListName hasUnread={hasUnread}>{group.title}</ListName>
                    {group.status === 'closed' && (
                      <span className="shrink-0 rounded-full bg-stone-100 px-2 py-0.5 text-[0.6875rem] font-semibold text-stone-600 dark:bg-white/8 dark:text-stone-300">
                        Cerrado
                      </span>
                    )}
                    <ListTime timestamp={group.lastMessage?.timestamp} now={now} />
                  </span>
                  <span className="mt-0.5 flex items-center gap-2">
                    <ListPreview text={previewOf(group, ownUserId)} hasUnread={hasUnread} testId="group-preview" />
                    {hasUnread && <UnreadBadge count={group.unreadCount} testId="group-unread-badge" />}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
