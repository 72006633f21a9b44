import { describe, expect, it } from 'vitest';
import type { ConversationSummary } from '#shared/chat/chat-schemas';
import { conversationSummary } from './conversation-fixture.ts';
import {
  applyConversationUpdate,
  applyNewMessage,
  applyUnreadCount,
  mergePage,
  sortConversations,
} from './conversation-list.ts';

const conv = conversationSummary;
const ids = (list: readonly ConversationSummary[]) => list.map((item) => item.conversationId);

describe('conversation ordering', () => {
  it('puts pinned first, then superlike, then the most recent', () => {
    const list = sortConversations([
      conv('old', { updatedAt: '2025-01-01T09:00:00.000Z' }),
      conv('recent', { updatedAt: '2025-01-02T09:00:00.000Z' }),
      conv('super', { swipeType: 'superlike', updatedAt: '2024-12-01T09:00:00.000Z' }),
      conv('pinned', { isPinned: true, updatedAt: '2024-01-01T09:00:00.000Z' }),
      conv('archived', { archived: true }),
    ]);
    expect(ids(list)).toEqual(['pinned', 'super', 'recent', 'old']);
  });

  it('merges pages without duplicates', () => {
    expect(ids(mergePage([conv('a'), conv('b')], [conv('b'), conv('c')])).sort()).toEqual(['a', 'b', 'c']);
  });
});

describe('new messages', () => {
  const list = sortConversations([conv('a', { updatedAt: '2025-01-02T00:00:00.000Z' }), conv('b')]);
  const message = { conversationId: 'b', senderId: 'u-b', text: 'Hola', timestamp: '2025-01-03T00:00:00.000Z' };

  it('moves the conversation to the top and counts it unread', () => {
    const next = applyNewMessage(list, message, { ownUserId: 'me', openConversationId: null });
    expect(ids(next)).toEqual(['b', 'a']);
    expect(next[0]?.unreadCount).toBe(1);
    expect(next[0]?.lastMessage?.text).toBe('Hola');
  });

  it('does not count it when the conversation is open or the message is ours', () => {
    expect(applyNewMessage(list, message, { ownUserId: 'me', openConversationId: 'b' })[0]?.unreadCount).toBe(0);
    expect(
      applyNewMessage(list, { ...message, senderId: 'me' }, { ownUserId: 'me', openConversationId: null })[0]
        ?.unreadCount,
    ).toBe(0);
  });

  it('ignores a repeat of the same message, empty text and unknown conversations', () => {
    const once = applyNewMessage(list, message, { ownUserId: 'me', openConversationId: null });
    expect(applyNewMessage(once, message, { ownUserId: 'me', openConversationId: null })).toBe(once);
    expect(applyNewMessage(list, { ...message, text: '  ' }, { ownUserId: 'me', openConversationId: null })).toBe(list);
    expect(
      applyNewMessage(list, { ...message, conversationId: 'x' }, { ownUserId: 'me', openConversationId: null }),
    ).toBe(list);
  });

  it('keeps a pinned conversation above a newer message elsewhere', () => {
    const pinned = sortConversations([conv('p', { isPinned: true }), conv('b')]);
    expect(ids(applyNewMessage(pinned, message, { ownUserId: 'me', openConversationId: null }))).toEqual(['p', 'b']);
  });
});

describe('server updates', () => {
  it('merges changed fields, adds complete new conversations and zeroes the open one', () => {
    const list = [conv('a', { unreadCount: 2 })];
    expect(
      applyConversationUpdate(list, { conversationId: 'a', isMuted: true }, { openConversationId: null })[0]?.isMuted,
    ).toBe(true);
    expect(
      applyConversationUpdate(list, { conversationId: 'a', unreadCount: 5 }, { openConversationId: 'a' })[0]
        ?.unreadCount,
    ).toBe(0);
    expect(ids(applyConversationUpdate(list, conv('new'), { openConversationId: null }))).toContain('new');
    expect(
      applyConversationUpdate(list, { conversationId: 'partial', isMuted: true }, { openConversationId: null }),
    ).toBe(list);
  });

  it('takes the per-conversation unread count', () => {
    expect(applyUnreadCount([conv('a')], 'a', 3)[0]?.unreadCount).toBe(3);
  });
});
