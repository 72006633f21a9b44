import { useCallback, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import type { OwnProfile } from '#shared/profile/profile-views';
import { removeFromDeck } from '../features/discovery/deck-store.ts';
import { DeckOfflineNotice, DiscoveryDeck, DiscoveryDeckSkeleton } from '../features/discovery/index.ts';
import {
  loadOwnProfile,
  ownProfileState,
  ProfileWizard,
  setOwnProfile,
  useCurrentUserId,
} from '../features/profile/index.ts';
import { SafetyButtons } from '../features/safety/index.ts';
import { useIsOnline, useReloadWhenOnline } from '../services/network.ts';
import { Button } from '../ui/button.tsx';
import { AlertCircleIcon } from '../ui/icons.tsx';
import { OfflinePlaceholder } from '../ui/offline-placeholder.tsx';

function HomeTitle() {
  return <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 dark:text-white">Conectar</h1>;
}

/**
 * The suggestion deck, or the profile wizard for users without a profile (spec 001 §2); the profile
 * modal's block and report buttons come from the safety feature.
 */
export function HomePage() {
  const userId = useCurrentUserId();
  const own = useSnapshot(ownProfileState);

  useEffect(() => {
    if (userId) void loadOwnProfile(userId);
  }, [userId]);

  const onComplete = useCallback((profile: OwnProfile) => setOwnProfile(profile), []);
  const current = own.current;
  const isOnline = useIsOnline();
  useReloadWhenOnline(current.status === 'error', () => loadOwnProfile(userId));

  if (current.status === 'missing') return <ProfileWizard userId={userId} onComplete={onComplete} />;
  if (current.status === 'error' && !isOnline) {
    return (
      <div className="mx-auto flex w-full max-w-md flex-col gap-4">
        <HomeTitle />
        {/* The frame leaves «Sin conexión» to this page (the deck's notice): say it here too. */}
        <DeckOfflineNotice />
        <OfflinePlaceholder />
      </div>
    );
  }
  if (current.status === 'error') {
    return (
      <div className="mx-auto flex w-full max-w-md flex-col gap-4">
        <HomeTitle />
        <div className="flex flex-col items-center gap-4 rounded-3xl bg-white p-8 text-center ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
          <AlertCircleIcon className="size-8 text-red-700 dark:text-red-400" />
          <p role="alert" className="font-semibold text-stone-900 dark:text-white">
            {current.message}
          </p>
          <Button variant="secondary" onClick={() => void loadOwnProfile(userId)}>
            Reintentar
          </Button>
        </div>
      </div>
    );
  }
  if (current.status === 'loading') return <DiscoveryDeckSkeleton />;
  const profile = current.profile;
  return (
    <DiscoveryDeck
      userId={userId}
      ownPhoto={profile.photos[0] ?? null}
      preferences={{ age_range: { ...profile.preferences.age_range }, distance: profile.preferences.distance }}
      onPreferencesSaved={(saved) =>
        setOwnProfile({ ...(profile as OwnProfile), preferences: { ...profile.preferences, ...saved } } as OwnProfile)
      }
      renderProfileActions={(shown, close) => (
        <SafetyButtons
          target={{ userId: shown.userId, name: shown.name }}
          onBlocked={() => {
            close();
            removeFromDeck(shown.userId);
          }}
        />
      )}
    />
  );
}
