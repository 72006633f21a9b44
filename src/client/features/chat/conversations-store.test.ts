import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConversationSummary } from '#shared/chat/chat-schemas';
import { conversationSummary } from './conversation-fixture.ts';

/** The server as the store sees it: each call waits until the test answers it. */
const server = vi.hoisted(() => {
  type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };
  const lists: Pending[] = [];
  const pins: Pending[] = [];
  const mutes: Pending[] = [];
  const held = (queue: Pending[]) => new Promise((resolve, reject) => queue.push({ resolve, reject }));
  return { lists, pins, mutes, held };
});

vi.mock('./chat-api.ts', () => ({
  chatApi: {
    listConversations: () => server.held(server.lists),
    setPinned: () => server.held(server.pins),
    setMuted: () => server.held(server.mutes),
  },
}));
vi.mock('../../ui/toast-store.ts', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const { conversationsState, loadConversations, toggleMuted, togglePinned } = await import('./conversations-store.ts');
const { toast } = await import('../../ui/toast-store.ts');

/** `b` changed last: it leads the list unless `a` is pinned. */
const conv = (id: string, patch: Partial<ConversationSummary> = {}) =>
  conversationSummary(id, { updatedAt: `2025-01-01T10:00:0${id === 'a' ? 0 : 1}.000Z`, ...patch });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const page = (...conversations: ConversationSummary[]) => ({
  conversations,
  pagination: { page: 1, limit: 10, total: conversations.length, hasMore: false },
});
/** Answers the oldest list request still waiting. */
async function answerList(...conversations: ConversationSummary[]) {
  server.lists.shift()?.resolve(page(...conversations));
  await flush();
}
const shown = () =>
  conversationsState.conversations.map(
    (item) => `${item.conversationId}${item.isPinned ? '📌' : ''}${item.isMuted ? '🔇' : ''}`,
  );

describe('pin and mute stay as shown while the server decides (optimistic, spec 001 §2)', () => {
  afterEach(() => {
    conversationsState.conversations = [];
    conversationsState.view = { status: 'idle' };
    vi.mocked(toast.error).mockClear();
  });

  it('a list that arrives before the server’s yes (or left before it) keeps the pin; a later one decides', async () => {
    const first = loadConversations();
    await answerList(conv('a'), conv('b'));
    await first;
    expect(shown()).toEqual(['b', 'a']);

    const pin = togglePinned('a');
    expect(shown()).toEqual(['a📌', 'b']);
    // A refresh asked before the server took the pin: its answer does not have it.
    const early = loadConversations();
    await answerList(conv('a'), conv('b'));
    await early;
    expect(shown()).toEqual(['a📌', 'b']);

    const inFlight = loadConversations(); // leaves before the yes…
    server.pins.shift()?.resolve({ success: true });
    await pin;
    await answerList(conv('a'), conv('b')); // …and arrives after it, still without the pin
    await inFlight;
    expect(shown()).toEqual(['a📌', 'b']);

    // Asked after the yes: the server's word stands, even when someone unpinned it elsewhere since.
    const later = loadConversations();
    await answerList(conv('a'), conv('b'));
    await later;
    expect(shown()).toEqual(['b', 'a']);
  });

  it('a refusal rolls back only its own field and says so, whatever list arrived meanwhile', async () => {
    const first = loadConversations();
    await answerList(conv('a'), conv('b'));
    await first;
    const mute = toggleMuted('b');
    const pin = togglePinned('b');
    expect(shown()).toEqual(['b📌🔇', 'a']);
    const refresh = loadConversations();
    await answerList(conv('a'), conv('b'));
    await refresh;
    expect(shown()).toEqual(['b📌🔇', 'a']);

    server.mutes.shift()?.reject(new Error('refused'));
    await mute;
    expect(shown()).toEqual(['b📌', 'a']);
    expect(toast.error).toHaveBeenCalledTimes(1);
    server.pins.shift()?.resolve({ success: true });
    await pin;
    expect(shown()).toEqual(['b📌', 'a']);
  });
});

describe('the first conversation load (spec 001 §9 "initial conversation load delayed 100 ms"; decision 0048)', () => {
  afterEach(() => {
    conversationsState.conversations = [];
    conversationsState.view = { status: 'idle' };
  });

  it('asks the server at once, with no 100 ms wait', async () => {
    const waiting = server.lists.length;
    const loading = loadConversations();
    // Asked in the same turn: no timer stands between the screen and the server.
    expect(server.lists.length).toBe(waiting + 1);
    await answerList(conv('a'));
    await loading;
    expect(shown()).toEqual(['a']);
  });
});
