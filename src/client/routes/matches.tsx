import { ProfileModalById } from '../features/discovery/index.ts';
import { MatchesScreen } from '../features/matches/index.ts';
import { useCurrentUserId } from '../features/profile/index.ts';

/** The user's matches, "entrenamientos" (spec 001 §2); the profile modal comes from discovery. */
export function MatchesPage() {
  const userId = useCurrentUserId();
  return (
    <MatchesScreen
      userId={userId}
      renderProfileModal={(profileUserId, onClose) => <ProfileModalById userId={profileUserId} onClose={onClose} />}
    />
  );
}
