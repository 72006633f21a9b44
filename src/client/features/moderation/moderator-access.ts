import { useEffect, useState } from 'react';
import type { ModeratorMe } from '#shared/moderation/moderation-schemas';
import { tokenStorage } from '../../services/token-storage.ts';
import { moderationApi } from './moderation-api.ts';

let cached: { token: string; answer: Promise<ModeratorMe | null> } | undefined;

/**
 * Whether the signed-in person may open the console: the server's `GET /api/moderation/me`
 * (404 for everyone else), asked once per token. Null when signed out, not a moderator, or offline.
 */
export function checkModeratorAccess(): Promise<ModeratorMe | null> {
  const token = tokenStorage.readToken()?.token;
  if (!token) return Promise.resolve(null);
  if (cached?.token !== token) {
    const answer = moderationApi.me().catch(() => null);
    cached = { token, answer };
    // A failure (offline) is not remembered: the next look asks again.
    void answer.then((me) => {
      if (!me && cached?.answer === answer) cached = undefined;
    });
  }
  return cached.answer;
}

/** The moderator's identity for links that only moderators see; null until known and for everyone else. */
export function useModeratorAccess(): ModeratorMe | null {
  const [me, setMe] = useState<ModeratorMe | null>(null);
  useEffect(() => {
    let isCurrent = true;
    void checkModeratorAccess().then((answer) => {
      if (isCurrent) setMe(answer);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  return me;
}
