import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const signOutListeners: Array<() => void> = [];
vi.mock('./session.ts', () => ({
  onSignOut: (listener: () => void) => {
    signOutListeners.push(listener);
    return () => undefined;
  },
}));

/** A Storage over a Map (node has no sessionStorage). */
function memoryStorage(): Storage {
  const entries = new Map<string, string>();
  return {
    get length() {
      return entries.size;
    },
    key: (index) => [...entries.keys()][index] ?? null,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, String(value)),
    removeItem: (key) => void entries.delete(key),
    clear: () => entries.clear(),
  };
}

describe('chat drafts', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = memoryStorage();
    vi.stubGlobal('window', { sessionStorage: storage });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('keeps a draft per user and conversation, and forgets a blank one', async () => {
    const { readDraft, writeDraft } = await import('./drafts.ts');
    writeDraft('u1', 'c1', '¿Entrenamos mañana a las 7?');
    writeDraft('u1', 'c2', 'Otra');
    expect(readDraft('u1', 'c1')).toBe('¿Entrenamos mañana a las 7?');
    expect(readDraft('u2', 'c1')).toBe('');
    writeDraft('u1', 'c1', '   ');
    expect(readDraft('u1', 'c1')).toBe('');
    expect(storage.length).toBe(1);
  });

  it('clears every draft and nothing else', async () => {
    const { clearDrafts, readDraft, writeDraft } = await import('./drafts.ts');
    storage.setItem('entreno:notification-sound', 'on');
    writeDraft('u1', 'c1', 'uno');
    writeDraft('u2', 'c9', 'dos');
    clearDrafts();
    expect(readDraft('u1', 'c1')).toBe('');
    expect(readDraft('u2', 'c9')).toBe('');
    expect(storage.getItem('entreno:notification-sound')).toBe('on');
  });

  it('clears the drafts at sign-out once started, even if the chat was never opened', async () => {
    const { readDraft, startDraftCleanup, writeDraft } = await import('./drafts.ts');
    writeDraft('u1', 'c1', 'borrador');
    expect(signOutListeners).toHaveLength(0);
    startDraftCleanup();
    startDraftCleanup();
    expect(signOutListeners).toHaveLength(1);
    for (const listener of signOutListeners) listener();
    expect(readDraft('u1', 'c1')).toBe('');
  });
});
