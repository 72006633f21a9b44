import { useParams } from '@tanstack/react-router';
import { OpenSessionsScreen, PublishScreen, SessionScreen } from '../features/open-sessions/index.ts';

/** «Entrenos abiertos cerca» and the viewer's own (issue #35). */
export function OpenSessionsPage() {
  return <OpenSessionsScreen />;
}

/** «Publicar entreno abierto». */
export function PublishOpenSessionPage() {
  return <PublishScreen />;
}

/** One open session. */
export function OpenSessionPage() {
  const { sessionId } = useParams({ from: '/app/entrenos/abiertos/$sessionId' });
  return <SessionScreen sessionId={sessionId} />;
}
