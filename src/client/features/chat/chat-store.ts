/**
 * The open conversation (spec 001 §2 /messages/{id}, §4 "Chat view", "Message status", §5):
 * loading → ready | error, the messages with their status, the other user's typing, sending with
 * the socket's acknowledgement (HTTP when the socket is down), receipts and read marks.
 */
import { proxy } from 'valtio';
import { CHAT_MESSAGES } from '#shared/chat/chat-messages';
import type { ConversationSummary, GroupSummary, MarkReadRequest } from '#shared/chat/chat-schemas';
import { markReadUpTo, showAsLastMessage } from './chat-outbox.ts';
import {
  currentDb,
  hasPendingOutboxItem,
  newestReceivedMessageId,
  type OutboxItem,
  readMessages,
  readSavedGroups,
  type StoredMessage,
  upsertMessages,
  watchLocal,
} from '../../services/local-db.ts';
import { noteMomentOfValue } from '../../services/install-prompt.ts';
import { outbox } from '../../services/offline.ts';
import { session } from '../../services/session.ts';
import { connection } from '../../services/socket.ts';
import { chatApi } from './chat-api.ts';
import { findConversation, setOpenConversation } from './conversations-store.ts';
import {
  addServerMessages,
  createPendingMessage,
  markFailed,
  markOthersRead,
  markRetrying,
  type ViewMessage,
} from './message-list.ts';
import { createTypingIndicator, createTypingSignal } from './typing-signal.ts';
import { messageOutboxItem } from './queued-message.ts';

export type ChatView = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready' };

export const chatState = proxy<{
  conversationId: string | null;
  view: ChatView;
  conversation: ConversationSummary | null;
  messages: ViewMessage[];
  isOtherTyping: boolean;
  /** A group conversation (docs/decisions/0056): its title, members and their read cursors. */
  group: GroupSummary | null;
  /** In a group: who is typing. */
  typingUserIds: string[];
  /** In a group: the user left or was removed (the thread is read-only and will not update). */
  isOutOfGroup: boolean;
}>(freshChat(null));

/** The state of a conversation just opened (nothing loaded yet). */
function freshChat(conversationId: string | null) {
  return {
    conversationId,
    view: { status: 'loading' } as ChatView,
    conversation: null,
    messages: [],
    isOtherTyping: false,
    group: null,
    typingUserIds: [],
    isOutOfGroup: false,
  };
}

const ownUserId = () => session.current()?.user.userId ?? '';
const isPageVisible = () => typeof document === 'undefined' || document.visibilityState === 'visible';

function setMessages(next: readonly ViewMessage[]) {
  if (next !== chatState.messages) chatState.messages = [...next];
}

function toViewMessage({ key: _key, ...message }: StoredMessage): ViewMessage {
  return message;
}

function isThisConversation(conversationId: string | undefined): boolean {
  return !!conversationId && conversationId.toLowerCase() === chatState.conversationId;
}

/** The other participant: from the conversation, else from a message of theirs or to them. */
function receiverId(): string | undefined {
  if (chatState.conversation) return chatState.conversation.otherUser.userId;
  // A group's messages name no receiver.
  if (chatState.group || chatState.messages.some((item) => item.seq !== null && item.receiverId === null)) {
    return undefined;
  }
  const own = ownUserId();
  const any = chatState.messages.find((item) => item.seq !== null);
  if (!any) return undefined;
  return any.senderId === own ? (any.receiverId ?? undefined) : any.senderId;
}

/** Network refresh: the newest page goes into the store; the screen follows the store. */
async function loadMessages(): Promise<void> {
  const conversationId = chatState.conversationId;
  if (!conversationId) return;
  try {
    const answer = await chatApi.listMessages(conversationId);
    const db = currentDb();
    if (db) await upsertMessages(db, answer.messages);
    if (chatState.conversationId !== conversationId) return;
    if (!db) setMessages(addServerMessages(chatState.messages, answer.messages));
    chatState.view = { status: 'ready' };
  } catch (error) {
    console.warn(`[chat] ${CHAT_MESSAGES.getMessagesFailed}`, error);
    if (chatState.conversationId === conversationId && chatState.view.status !== 'ready') {
      chatState.view = { status: 'error', message: CHAT_MESSAGES.loadMessagesFailed };
    }
  }
}

/**
 * Marks the conversation read, when on screen: at once in the store, and through the outbox (one
 * pending mark per conversation is enough), so a mark made offline reaches the server later.
 */
export async function markConversationRead(): Promise<void> {
  const conversationId = chatState.conversationId;
  if (!conversationId || !isPageVisible()) return;
  const own = ownUserId();
  setMessages(markOthersRead(chatState.messages, own));
  setOpenConversation(conversationId);
  const db = currentDb();
  if (!db) return;
  // Read up to the newest message shown, not whatever the server holds when the mark arrives: a
  // mark replayed late (offline, a slow outbox) must not read what came after (decision 0040).
  // The screen mirrors the local store, which may hold messages the view has not re-read yet.
  const upToMessageId = await newestReceivedMessageId(db, conversationId, own);
  const json: MarkReadRequest | undefined = upToMessageId ? { upToMessageId } : undefined;
  const isSameMark = (item: OutboxItem) => markReadUpTo(item) === upToMessageId;
  if (await hasPendingOutboxItem(db, conversationId, 'markRead', isSameMark)) return;
  await outbox.enqueue(
    {
      kind: 'markRead',
      scope: conversationId,
      clientId: crypto.randomUUID(),
      request: { method: 'PATCH', path: `messages/conversations/${encodeURIComponent(conversationId)}/read`, json },
    },
    async (tx) => {
      await tx.messages
        .where('conversationId')
        .equals(conversationId)
        .filter((row) => row.senderId !== own && !row.read)
        .modify({ read: true });
      await tx.conversations.update(conversationId, { unreadCount: 0 });
    },
  );
}

/**
 * Sends the trimmed text: the pending message ("Enviando...") and its outbox item are written in
 * one transaction; the outbox delivers it now or when the connection returns. Returns false (and
 * changes nothing) when it is blank or no chat is open.
 */
export function sendText(rawText: string): boolean {
  const text = rawText.trim();
  const conversationId = chatState.conversationId;
  const senderId = ownUserId();
  if (!text || !conversationId || !senderId) return false;
  const clientId = crypto.randomUUID();
  const to = receiverId() ?? '';
  const pending = createPendingMessage({
    clientId,
    conversationId,
    senderId,
    receiverId: to,
    text,
    timestamp: new Date().toISOString(),
  });
  setMessages([...chatState.messages, pending]);
  // A first message sent is the moment the install card may be offered (issue #22).
  noteMomentOfValue();
  void outbox
    .enqueue(messageOutboxItem({ conversationId, receiverId: to, text, clientId }), async (tx) => {
      await tx.messages.put({ ...pending, key: clientId });
      await showAsLastMessage(tx, pending);
    })
    .catch((error) => {
      console.warn(`[chat] ${CHAT_MESSAGES.sendFailed}`, error);
      setMessages(markFailed(chatState.messages, clientId));
    });
  return true;
}

/** "Error al enviar" → try again with the same clientId. */
export function retryMessage(clientId: string): void {
  setMessages(markRetrying(chatState.messages, clientId));
  void outbox.retry(clientId, async (tx) => {
    await tx.messages.update(clientId, { status: 'sending' });
  });
}

/** Our typing, to the other participant (volatile, repeated while typing: typing-signal.ts). */
const typingSignal = createTypingSignal({
  emit(isTyping) {
    const conversationId = chatState.conversationId;
    return !!conversationId && connection.emitVolatile('typing', { conversationId, isTyping });
  },
});

/** Called on every keystroke: typing true at once (and every 2 s more), false after 1000 ms without one. */
export function noteTyping(): void {
  if (chatState.conversationId) typingSignal.keystroke();
}

export function stopTyping(): void {
  typingSignal.stop();
}

/**
 * Opens a conversation: loads it, joins its room, marks it read and follows its events. Returns
 * the close function (the screen's effect cleanup).
 */
export function openChat(rawConversationId: string): () => void {
  const conversationId = rawConversationId.toLowerCase();
  Object.assign(chatState, freshChat(conversationId));
  setOpenConversation(conversationId);
  connection.joinConversation(conversationId);
  connection.emitIfConnected('markAsDelivered', { conversationId });

  // The store first (an offline start shows the last known messages), the network second.
  const stopWatching = watchLocal(
    (db) => Promise.all([readMessages(db, conversationId), db.conversations.get(conversationId)]),
    ([rows, conversation]) => {
      if (chatState.conversationId !== conversationId) return;
      setMessages(rows.map(toViewMessage));
      if (conversation && !chatState.conversation) chatState.conversation = conversation;
      // Messages kept here, or a conversation known to have none yet: shown at once, offline too.
      const isKnownEmpty = conversation !== undefined && !conversation.lastMessage;
      if ((rows.length > 0 || isKnownEmpty) && chatState.view.status !== 'ready') chatState.view = { status: 'ready' };
    },
  );
  void showSavedGroup(conversationId);
  findConversation(conversationId)
    .then((found) => {
      if (chatState.conversationId !== conversationId) return;
      if (found) chatState.conversation = found;
      else void loadGroup(conversationId);
    })
    .catch((error) => console.warn(`[chat] ${CHAT_MESSAGES.getConversationsFailed}`, error));
  void loadMessages().then(() => markConversationRead());

  const otherTyping = createTypingIndicator({
    onChange: (isTyping) => {
      chatState.isOtherTyping = isTyping;
      if (!isTyping) chatState.typingUserIds = [];
    },
  });
  // New messages and receipts reach the store (services/offline.ts) and come back through the watch.
  const stops = [
    stopWatching,
    connection.on('newMessage', (message) => {
      if (!isThisConversation(message?.conversationId)) return;
      if (message.senderId !== ownUserId() && !chatState.messages.some((item) => item._id === message._id)) {
        otherTyping.set(false);
        void markConversationRead();
      }
    }),
    connection.on('userTyping', (event) => {
      if (!isThisConversation(event.conversationId) || event.userId === ownUserId()) return;
      if (chatState.group) {
        const others = chatState.typingUserIds.filter((id) => id !== event.userId);
        chatState.typingUserIds = event.isTyping ? [...others, event.userId] : others;
        otherTyping.set(chatState.typingUserIds.length > 0);
        return;
      }
      otherTyping.set(event.isTyping);
    }),
    connection.on('groupReceipt', (event) => {
      const group = chatState.group;
      if (!group || !isThisConversation(event.conversationId)) return;
      chatState.group = {
        ...group,
        members: group.members.map((member) =>
          member.userId === event.userId ? { ...member, readSeq: Math.max(member.readSeq, event.readSeq) } : member,
        ),
      };
    }),
    connection.on('groupUpdated', (event) => {
      if (!isThisConversation(event.conversationId)) return;
      if (event.group) chatState.group = event.group;
      else if (event.userId === ownUserId()) chatState.isOutOfGroup = true;
    }),
    connection.on('conversationUpdated', (event) => {
      if (isThisConversation(event.conversationId) && chatState.conversation) {
        const { conversationId: _id, ...changed } = event;
        chatState.conversation = { ...chatState.conversation, ...stripUndefined(changed) };
      }
    }),
    // After a reconnect, catch up with what arrived while the socket was down.
    connection.subscribe(() => {
      if (connection.getSnapshot().status === 'connected' && chatState.conversationId === conversationId) {
        void loadMessages();
        // The members' read cursors moved while the socket was down (their receipts were lost).
        if (chatState.group) void loadGroup(conversationId);
      }
    }),
  ];
  const onVisibility = () => {
    if (isPageVisible()) void markConversationRead();
  };
  document.addEventListener('visibilitychange', onVisibility);

  return () => {
    for (const stop of stops) stop();
    otherTyping.dispose();
    stopTyping();
    document.removeEventListener('visibilitychange', onVisibility);
    // Out of the room: the server notifies a user only when no visible client of theirs is in it.
    connection.leaveConversation(conversationId);
    if (chatState.conversationId === conversationId) {
      chatState.conversationId = null;
      setOpenConversation(null);
    }
  };
}

/** The device's copy of the open group, if it is one (kept by the sync): its header at once, offline too. */
async function showSavedGroup(conversationId: string): Promise<void> {
  const db = currentDb();
  const saved = db ? await readSavedGroups(db).catch(() => null) : null;
  const group = saved?.find((item) => item.conversationId === conversationId);
  if (group && chatState.conversationId === conversationId && !chatState.group) chatState.group = group;
}

/** The open conversation as a group, when it is one (a match's id answers 404: nothing to do). */
async function loadGroup(conversationId: string): Promise<void> {
  try {
    const answer = await chatApi.group(conversationId);
    if (chatState.conversationId === conversationId) chatState.group = answer.group;
  } catch {
    // Not a group of ours (or offline): the thread shows what the store holds.
  }
}

type GroupWrite = { action: 'leave' | 'mute'; conversationId: string };

/** The outbox item of a group write (offline too; one scope per group keeps leave and mute in order). */
function enqueueGroupWrite(
  write: GroupWrite,
  request: { method: 'POST' | 'PATCH'; path: string; json: unknown },
  clientId: string,
): Promise<boolean> {
  registerGroupOutbox();
  return outbox.enqueue({
    kind: 'group',
    scope: `group:${write.conversationId}`,
    clientId,
    request,
    payload: write,
  });
}

let isGroupOutboxRegistered = false;

/**
 * How the open chat follows its group writes: the server's copy of the group after a mute, and on a
 * refusal the group as the server has it (the optimistic change undone). Items delivered while no
 * chat is open need nothing more (the default delivery sends them).
 */
function registerGroupOutbox(): void {
  if (isGroupOutboxRegistered) return;
  isGroupOutboxRegistered = true;
  outbox.register('group', {
    after(item, result) {
      const conversationId = (item.payload as GroupWrite | undefined)?.conversationId;
      const group = (result as { group?: GroupSummary } | undefined)?.group;
      if (group && chatState.conversationId === conversationId) chatState.group = group;
    },
    async fail(_db, item) {
      const write = item.payload as GroupWrite | undefined;
      if (!write || chatState.conversationId !== write.conversationId) return;
      // After the transaction: the server's copy replaces the optimistic one.
      setTimeout(() => {
        if (write.action === 'leave' && chatState.conversationId === write.conversationId)
          chatState.isOutOfGroup = false;
        void loadGroup(write.conversationId);
      }, 0);
    },
  });
}

/**
 * «Salir del grupo», through the outbox (offline too): the thread is read-only at once, and the
 * server takes the user out when it can (a replay of an applied leave answers as the first did).
 */
export async function leaveGroup(): Promise<boolean> {
  const conversationId = chatState.conversationId;
  if (!conversationId || !chatState.group) return false;
  const clientId = crypto.randomUUID();
  const isQueued = await enqueueGroupWrite(
    { action: 'leave', conversationId },
    { method: 'POST', path: `groups/${encodeURIComponent(conversationId)}/leave`, json: { clientId } },
    clientId,
  );
  if (isQueued && chatState.conversationId === conversationId) chatState.isOutOfGroup = true;
  return isQueued;
}

/** Mute (per member), through the outbox: no notifications or pushes for this group. Shown at once. */
export async function setGroupMuted(isMuted: boolean): Promise<void> {
  const conversationId = chatState.conversationId;
  if (!conversationId || !chatState.group) return;
  const isQueued = await enqueueGroupWrite(
    { action: 'mute', conversationId },
    { method: 'PATCH', path: `messages/conversations/${encodeURIComponent(conversationId)}/mute`, json: { isMuted } },
    crypto.randomUUID(),
  );
  const group = chatState.group;
  if (isQueued && group && chatState.conversationId === conversationId) chatState.group = { ...group, isMuted };
}

/** "Reintentar" after a failed load. */
export function reloadChat(): void {
  chatState.view = { status: 'loading' };
  void loadMessages().then(() => markConversationRead());
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}
