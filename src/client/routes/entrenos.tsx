import { useEffect } from 'react';
import { loadMatches } from '../features/matches/index.ts';
import { useCurrentUserId } from '../features/profile/index.ts';
import { UpcomingScreen } from '../features/quedadas/index.ts';

/**
 * "Próximos entrenos" (issue #21), reachable from /matches and the chat header. Opened directly
 * (a reminder, a new device), the matches are fetched too: each entry names the partner (#34).
 */
export function EntrenosPage() {
  const userId = useCurrentUserId();
  useEffect(() => {
    if (userId) void loadMatches(userId);
  }, [userId]);
  return <UpcomingScreen />;
}
