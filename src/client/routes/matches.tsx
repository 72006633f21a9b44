import { ProfileModalById } from '../features/discovery/index.ts';
import { MatchesScreen } from '../features/matches/index.ts';
import { useCurrentUserId } from '../features/profile/index.ts';
import { QuedadaMatchLine, ReliabilityLine, UpcomingLink } from '../features/quedadas/index.ts';
import { SafetyButtons } from '../features/safety/index.ts';

/**
 * The user's matches, "entrenamientos" (spec 001 §2); the profile modal comes from discovery, its
 * block and report buttons from safety (a block refreshes this list through `matches-changed`);
 * the next quedada, pair streak, reliability line and "Próximos entrenos" from quedadas.
 */
export function MatchesPage() {
  const userId = useCurrentUserId();
  return (
    <MatchesScreen
      userId={userId}
      renderHeaderExtra={() => <UpcomingLink />}
      renderMatchExtra={(conversationId) => <QuedadaMatchLine conversationId={conversationId} />}
      renderProfileModal={(profileUserId, onClose) => (
        <ProfileModalById
          userId={profileUserId}
          onClose={onClose}
          renderActions={(profile) => (
            <>
              <ReliabilityLine userId={profile.userId} />
              <SafetyButtons target={{ userId: profile.userId, name: profile.name }} onBlocked={onClose} />
            </>
          )}
        />
      )}
    />
  );
}
