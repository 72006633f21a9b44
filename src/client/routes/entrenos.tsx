import { UpcomingScreen } from '../features/quedadas/index.ts';

/** "Próximos entrenos" (issue #21), reachable from /matches and the chat header. */
export function EntrenosPage() {
  return <UpcomingScreen />;
}
