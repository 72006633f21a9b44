/**
 * Unsent chat drafts, per user and conversation, in session storage: they survive a reload (a new
 * version applied with "Actualizar", QUALITY 21) and navigation, end with the tab, and are wiped at
 * sign-out like every other private data.
 */
import { onSignOut } from './session.ts';

const PREFIX = 'entreno:draft:';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

const keyFor = (userId: string, conversationId: string) => `${PREFIX}${userId}:${conversationId}`;

export function readDraft(userId: string, conversationId: string): string {
  try {
    return storage()?.getItem(keyFor(userId, conversationId)) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the text; an empty (or blank) draft is removed. */
export function writeDraft(userId: string, conversationId: string, text: string): void {
  try {
    const target = storage();
    if (text.trim() === '') target?.removeItem(keyFor(userId, conversationId));
    else target?.setItem(keyFor(userId, conversationId), text);
  } catch {
    // Storage full or blocked: the draft lives only in the input.
  }
}

export function clearDrafts(): void {
  const target = storage();
  if (!target) return;
  const keys = Array.from({ length: target.length }, (_, index) => target.key(index)).filter(
    (key): key is string => key?.startsWith(PREFIX) === true,
  );
  for (const key of keys) target.removeItem(key);
}

let isStarted = false;

/**
 * Wipes the drafts at every sign-out. Started with the signed-in runtime (not when the chat screen
 * is first imported): a draft kept across a reload must go even if the chat is never opened again.
 */
export function startDraftCleanup(): void {
  if (isStarted) return;
  isStarted = true;
  onSignOut(() => clearDrafts());
}
