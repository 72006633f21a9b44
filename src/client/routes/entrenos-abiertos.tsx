import { useNavigate, useParams } from '@tanstack/react-router';
import { OpenSessionsScreen, PublishScreen, SessionScreen } from '../features/open-sessions/index.ts';
import { SharePanel } from '../features/quedadas/index.ts';
import { ReportSessionButton } from '../features/safety/index.ts';

/** «Entrenos abiertos cerca» and the viewer's own (issue #35). */
export function OpenSessionsPage() {
  return <OpenSessionsScreen />;
}

/** «Publicar entreno abierto». */
export function PublishOpenSessionPage() {
  return <PublishScreen />;
}

/** One open session; «Denunciar este entreno» comes from safety, «Compartir con alguien de confianza» from quedadas. */
export function OpenSessionPage() {
  const { sessionId } = useParams({ from: '/app/entrenos/abiertos/$sessionId' });
  const navigate = useNavigate();
  return (
    <SessionScreen
      sessionId={sessionId}
      renderReport={(session) => (
        <ReportSessionButton
          session={{ id: session._id, hostName: session.host.name }}
          // Blocking the host takes the person out of the session and hides it from them.
          onBlocked={() => void navigate({ to: '/entrenos/abiertos', replace: true })}
        />
      )}
      renderShare={(session, canCreate) => (
        <SharePanel
          target={{
            kind: 'openSession',
            id: session._id,
            startsAt: session.startsAt,
            durationMin: session.durationMin,
          }}
          canCreate={canCreate}
          isCard
        />
      )}
    />
  );
}
