/**
 * The conversation list (spec 001 §2 /messages, §4): pages of 10 with infinite scroll, the
 * actions (pin and mute optimistic with rollback; archive and unmatch remove at once; the
 * super-entreno toggle) and the live updates from the socket.
 */
import { proxy, subscribe } from 'valtio';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import type { ChatMessage, ConversationSummary } from '#shared/chat/chat-schemas';
import { ApiRequestError } from '../../services/http.ts';
import {
  currentDb,
  readMeta,
  removeConversations,
  SAVED_AT,
  upsertConversations,
  watchLocal,
  writeMeta,
} from '../../services/local-db.ts';
import { onSignOut, session } from '../../services/session.ts';
import { connection, MAX_JOINED_ROOMS } from '../../services/socket.ts';
import { toast } from '../../ui/toast-store.ts';
import { chatApi } from './chat-api.ts';
import { registerChatOutbox } from './chat-outbox.ts';
import {
  applyConversationUpdate,
  applyNewMessage,
  applyUnreadCount,
  mergePage,
  patchConversation,
  removeConversation,
  sortConversations,
} from './conversation-list.ts';

/** Spec 001 §9: the list screen asks 10 per page. */
export const CONVERSATION_LIST_PAGE_SIZE = 10;
/** Spec 001 §9: the chat screen looks its conversation up in the first 100. */
export const CHAT_SCREEN_PAGE_SIZE = 100;

export type ConversationListView =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; page: number; hasMore: boolean; isLoadingMore: boolean };

export const conversationsState = proxy<{
  view: ConversationListView;
  conversations: ConversationSummary[];
  /** The conversation on screen: its new messages are not unread. */
  openConversationId: string | null;
}>({ view: { status: 'idle' }, conversations: [], openConversationId: null });

const ownUserId = () => session.current()?.user.userId ?? '';

/**
 * Shows a new list and keeps the store in step: changed conversations are written (the list on
 * screen follows the store, which also holds pages not loaded this time and other tabs' changes).
 */
function setList(answer: readonly ConversationSummary[]) {
  const before = conversationsState.conversations;
  const next = withToggles(answer);
  if (next === before) return;
  conversationsState.conversations = [...next];
  const db = currentDb();
  if (!db) return;
  const previous = new Map(before.map((item) => [item.conversationId, item]));
  const changed = next.filter((item) => {
    const old = previous.get(item.conversationId);
    return !old || JSON.stringify(old) !== JSON.stringify(item);
  });
  if (changed.length > 0) {
    void upsertConversations(db, changed).catch((error) => console.warn('[chat] the list was not saved here', error));
  }
}

/**
 * Pin and mute shown before the server answers (optimistic): a list that arrives meanwhile (a
 * refresh on reconnect, a live update, another tab's copy) keeps them, and so does the answer to a
 * request that left before the server took the change. One entry per conversation and field;
 * `settled` is the tick of the server's yes (null: still waiting).
 */
type ToggleField = 'isPinned' | 'isMuted';
type Toggle = { conversationId: string; field: ToggleField; value: boolean; settled: number | null };
const toggles = new Map<string, Toggle>();
let tick = 0;

function withToggles(list: readonly ConversationSummary[]): readonly ConversationSummary[] {
  if (toggles.size === 0) return list;
  let changed = false;
  const shown = list.map((item) => {
    let next = item;
    for (const toggle of toggles.values()) {
      if (toggle.conversationId === item.conversationId && next[toggle.field] !== toggle.value) {
        next = { ...next, [toggle.field]: toggle.value };
      }
    }
    changed ||= next !== item;
    return next;
  });
  // Pinned conversations lead the list: a pin shown here moves its conversation too.
  return changed ? sortConversations(shown) : list;
}

/** A list asked for at `askedAt` has arrived: the changes the server took before then are in it. */
function forgetTogglesBefore(askedAt: number) {
  for (const [key, toggle] of toggles) {
    if (toggle.settled !== null && toggle.settled < askedAt) toggles.delete(key);
  }
}

/** Gone from the list for good (archived, unmatched): gone from the store too. */
function dropFromStore(conversationId: string) {
  const db = currentDb();
  if (db) void removeConversations(db, [conversationId]);
}

/** Loads the first page (again); the list keeps showing while it refreshes. */
export async function loadConversations(): Promise<void> {
  const state = conversationsState;
  if (state.view.status !== 'ready') state.view = { status: 'loading' };
  const askedAt = ++tick;
  try {
    const answer = await chatApi.listConversations(1, CONVERSATION_LIST_PAGE_SIZE);
    forgetTogglesBefore(askedAt);
    const db = currentDb();
    if (db) {
      await upsertConversations(db, answer.conversations);
      await writeMeta(db, SAVED_AT.conversations, new Date().toISOString());
    }
    setList(mergePage(answer.conversations, conversationsState.conversations));
    state.view = { status: 'ready', page: 1, hasMore: answer.pagination.hasMore, isLoadingMore: false };
    acknowledgeDelivery(answer.conversations);
  } catch (error) {
    console.warn(`[chat] ${CHAT_MESSAGES.getConversationsFailed}`, error);
    if (state.view.status !== 'ready') state.view = { status: 'error', message: CHAT_MESSAGES.loadConversationsFailed };
  }
}

/** The next page, when the end of the list comes into view. */
export async function loadMoreConversations(): Promise<void> {
  const view = conversationsState.view;
  if (view.status !== 'ready' || !view.hasMore || view.isLoadingMore) return;
  conversationsState.view = { ...view, isLoadingMore: true };
  try {
    const answer = await chatApi.listConversations(view.page + 1, CONVERSATION_LIST_PAGE_SIZE);
    setList(mergePage(conversationsState.conversations, answer.conversations));
    conversationsState.view = {
      status: 'ready',
      page: view.page + 1,
      hasMore: answer.pagination.hasMore,
      isLoadingMore: false,
    };
    acknowledgeDelivery(answer.conversations);
  } catch (error) {
    console.warn(`[chat] ${CHAT_MESSAGES.getConversationsFailed}`, error);
    conversationsState.view = { ...view, isLoadingMore: false };
  }
}

/** Messages waiting for us have now reached this device: the senders see "Entregado". */
function acknowledgeDelivery(list: readonly ConversationSummary[]) {
  for (const item of list) {
    if (item.unreadCount > 0) connection.emitIfConnected('markAsDelivered', { conversationId: item.conversationId });
  }
}

/** One conversation, from the list or from the first 100 (the chat screen opened directly). */
export async function findConversation(conversationId: string): Promise<ConversationSummary | null> {
  const id = conversationId.toLowerCase();
  const known = conversationsState.conversations.find((item) => item.conversationId === id);
  if (known) return known;
  const answer = await chatApi.listConversations(1, CHAT_SCREEN_PAGE_SIZE);
  setList(mergePage(conversationsState.conversations, answer.conversations));
  return answer.conversations.find((item) => item.conversationId === id) ?? null;
}

function failureText(error: unknown): string {
  return error instanceof ApiRequestError && error.message ? error.message : CHAT_MESSAGES.actionFailed;
}

async function optimisticToggle(
  conversationId: string,
  field: ToggleField,
  call: (value: boolean) => Promise<unknown>,
) {
  const current = conversationsState.conversations.find((item) => item.conversationId === conversationId);
  if (!current) return;
  const value = !current[field];
  const key = `${conversationId}:${field}`;
  const toggle: Toggle = { conversationId, field, value, settled: null };
  toggles.set(key, toggle);
  setList(patchConversation(conversationsState.conversations, conversationId, { [field]: value }));
  try {
    await call(value);
    toggle.settled = ++tick;
  } catch (error) {
    // A later tap on the same field (its own entry now) decides what shows.
    if (toggles.get(key) !== toggle) return;
    toggles.delete(key);
    setList(patchConversation(conversationsState.conversations, conversationId, { [field]: !value }));
    toast.error(failureText(error));
  }
}

export function togglePinned(conversationId: string): Promise<void> {
  return optimisticToggle(conversationId, 'isPinned', (value) => chatApi.setPinned(conversationId, value));
}

export function toggleMuted(conversationId: string): Promise<void> {
  return optimisticToggle(conversationId, 'isMuted', (value) => chatApi.setMuted(conversationId, value));
}

async function removeThen(conversationId: string, call: () => Promise<unknown>, doneText: string) {
  const before = conversationsState.conversations;
  setList(removeConversation(before, conversationId));
  try {
    await call();
    dropFromStore(conversationId);
    toast.success(doneText);
  } catch (error) {
    // Put it back where it was: the server still lists it.
    setList(
      mergePage(
        conversationsState.conversations,
        before.filter((item) => item.conversationId === conversationId),
      ),
    );
    toast.error(failureText(error));
  }
}

export function archiveConversation(conversationId: string): Promise<void> {
  return removeThen(conversationId, () => chatApi.archive(conversationId), 'Conversación archivada');
}

export function unmatchConversation(conversationId: string): Promise<void> {
  return removeThen(conversationId, () => chatApi.unmatch(conversationId), 'Match deshecho');
}

/** Outcome of the super-entreno toggle: done, or the spec's alert text to show. */
export type SuperEntrenoOutcome = { status: 'done' } | { status: 'refused'; message: string };

/** Superlike becomes like, anything else superlike (only for conversations begun with a superlike). */
export async function toggleSuperEntreno(conversationId: string): Promise<SuperEntrenoOutcome> {
  const current = conversationsState.conversations.find((item) => item.conversationId === conversationId);
  if (!current) return { status: 'done' };
  const swipeType = current.swipeType === 'superlike' ? 'like' : 'superlike';
  try {
    const answer = await chatApi.setSwipeType(conversationId, swipeType);
    setList(
      patchConversation(conversationsState.conversations, conversationId, { swipeType: answer.conversation.swipeType }),
    );
    return { status: 'done' };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 400 && swipeType === 'superlike') {
      return { status: 'refused', message: CHAT_MESSAGES.superlikeOnly };
    }
    return { status: 'refused', message: failureText(error) };
  }
}

/** Our own message reached the server: the list shows it as the last one. */
export function noteOwnMessage(message: ChatMessage): void {
  setList(applyNewMessage(conversationsState.conversations, message, contextNow()));
}

export function setOpenConversation(conversationId: string | null): void {
  conversationsState.openConversationId = conversationId;
  if (conversationId) setList(applyUnreadCount(conversationsState.conversations, conversationId, 0));
}

function contextNow() {
  return { ownUserId: ownUserId(), openConversationId: conversationsState.openConversationId };
}

/** The live conversations among the first 20 listed: the rooms /messages holds. */
export function listRoomIds(list: readonly ConversationSummary[]): string[] {
  return list
    .filter((item) => item.status === 'active')
    .slice(0, MAX_JOINED_ROOMS)
    .map((item) => item.conversationId);
}

/**
 * While /messages is on screen it holds the rooms of its first 20 live conversations (the
 * connection joins them five at a time and rejoins them after a reconnect), following the list as
 * it changes; the returned function lets them go (docs/decisions/0013).
 */
export function holdListRooms(): () => void {
  let held: string[] = [];
  const follow = () => {
    const next = listRoomIds(conversationsState.conversations);
    const removed = held.filter((id) => !next.includes(id));
    const added = next.filter((id) => !held.includes(id));
    if (removed.length > 0) connection.leaveConversations(removed);
    if (added.length > 0) connection.joinConversations(added);
    held = next;
  };
  follow();
  const stop = subscribe(conversationsState, follow);
  return () => {
    stop();
    connection.leaveConversations(held);
    held = [];
  };
}

let isLive = false;

/** Keeps the list live from the socket (the server sends chat events to `user:<id>`); once per page load. */
export function startConversationUpdates(): void {
  if (isLive) return;
  isLive = true;
  connection.on('newMessage', (message) => {
    if (!message?.text?.trim()) return;
    if (message.senderId !== ownUserId()) {
      connection.emitIfConnected('markAsDelivered', {
        conversationId: message.conversationId,
        messageIds: [message._id],
      });
    }
    // A group's message (no receiver) is not this list's: group-list.tsx shows it.
    if (message.receiverId === null) return;
    const list = conversationsState.conversations;
    const next = applyNewMessage(list, message, contextNow());
    const isKnown = list.some((item) => item.conversationId === message.conversationId);
    if (isKnown) setList(next);
    else if (conversationsState.view.status === 'ready') void loadConversations();
  });
  connection.on('conversationUpdated', (event) => {
    if (event.archived === true || (event.status && event.status !== 'active')) {
      setList(removeConversation(conversationsState.conversations, event.conversationId));
      dropFromStore(event.conversationId);
      return;
    }
    setList(applyConversationUpdate(conversationsState.conversations, event, contextNow()));
  });
  connection.on('unreadCountUpdated', (event) => {
    if (event.kind !== 'messages' || !event.conversationId || event.conversationUnreadCount === undefined) return;
    const count = event.conversationId === conversationsState.openConversationId ? 0 : event.conversationUnreadCount;
    setList(applyUnreadCount(conversationsState.conversations, event.conversationId, count));
  });
  registerChatOutbox();
  // The store first: an offline start lists the last known conversations at once — or, when the
  // list was loaded here before and held none, shows it empty rather than an error (issue #22).
  watchLocal(
    async (db) => ({
      rows: await db.conversations.toArray(),
      isSaved: (await readMeta(db, SAVED_AT.conversations)) !== undefined,
    }),
    ({ rows, isSaved }) => {
      conversationsState.conversations = [
        ...withToggles(
          sortConversations(
            rows.map((row) =>
              row.conversationId === conversationsState.openConversationId ? { ...row, unreadCount: 0 } : row,
            ),
          ),
        ),
      ];
      if ((rows.length > 0 || isSaved) && conversationsState.view.status !== 'ready') {
        conversationsState.view = { status: 'ready', page: 0, hasMore: false, isLoadingMore: false };
      }
    },
  );
  onSignOut(() => {
    toggles.clear();
    conversationsState.view = { status: 'idle' };
    conversationsState.conversations = [];
    conversationsState.openConversationId = null;
  });
}
