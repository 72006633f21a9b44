/**
 * One maximum distance (issue #20, docs/decisions/0027): Configuración → Preferencias de búsqueda
 * shows and changes the profile's `preferences.distance`, the value the deck uses and its
 * "Ajustar Preferencias" edits, instead of a second number of its own.
 */
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { OwnProfile } from '#shared/profile/profile-schema';
import { savePreferences } from '../features/discovery/index.ts';
import { loadOwnProfile, ownProfileState, setOwnProfile, useCurrentUserId } from '../features/profile/index.ts';
import type { SearchDistanceBinding } from '../features/settings/index.ts';
import { toast } from '../ui/toast-store.ts';

/** How long the slider must stay still before the distance is saved (as the settings' own slider). */
const SAVE_DELAY_MS = 400;
export const DISTANCE_SAVE_FAILED = 'Error al actualizar preferencias';

/** The deck's distance as a slider binding, or null while the person has no profile. */
export function useSearchDistance(): SearchDistanceBinding {
  const userId = useCurrentUserId();
  const own = useSnapshot(ownProfileState);
  const [shown, setShown] = useState<number | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (userId) void loadOwnProfile(userId);
  }, [userId]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const current = own.current;
  if (current.status !== 'ready') return null;
  const profile = current.profile as OwnProfile;
  const saved = profile.preferences.distance;
  return {
    value: shown ?? saved,
    onChange(km) {
      setShown(km);
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const preferences = { age_range: { ...profile.preferences.age_range }, distance: km };
        savePreferences(userId, preferences).then(
          (answer) => {
            const latest = ownProfileState.current;
            if (latest.status === 'ready') {
              setOwnProfile({ ...latest.profile, preferences: { ...latest.profile.preferences, ...answer } });
            }
            setShown(null);
          },
          () => {
            setShown(null);
            toast.error(DISTANCE_SAVE_FAILED);
          },
        );
      }, SAVE_DELAY_MS);
    },
  };
}
