/**
 * Configuración → Preferencias de búsqueda shows and changes the profile's own values where the
 * profile has them, so each control is the one value the deck uses: the maximum distance
 * (`preferences.distance`, also edited by the deck's "Ajustar Preferencias"; issue #20,
 * docs/decisions/0027) and «Mostrar» (`preferences.gender_preference`, docs/decisions/0050).
 */
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { GenderPreference } from '#shared/profile/options';
import type { OwnProfile } from '#shared/profile/profile-views';
import { saveGenderPreference, savePreferences } from '../features/discovery/index.ts';
import { loadOwnProfile, ownProfileState, setOwnProfile, useCurrentUserId } from '../features/profile/index.ts';
import type { SearchDistanceBinding, SearchGenderBinding } from '../features/settings/index.ts';
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

type ShownGender = NonNullable<SearchGenderBinding>['value'];
const SHOWN_OF: Record<GenderPreference, ShownGender> = { both: 'all', male: 'male', female: 'female' };
const PREFERENCE_OF: Record<ShownGender, GenderPreference> = { all: 'both', male: 'male', female: 'female' };
export const GENDER_SAVE_FAILED = 'Error al actualizar preferencias';

/**
 * «Mostrar» as the profile's gender preference («Todos» = «Ambos»), or null while the person has no
 * profile (the settings' own value is shown then). Saved at once; a refused save shows the stored
 * value again with "Error al actualizar preferencias".
 */
export function useSearchGender(): SearchGenderBinding {
  const userId = useCurrentUserId();
  const own = useSnapshot(ownProfileState);
  const [shown, setShown] = useState<ShownGender | null>(null);

  useEffect(() => {
    if (userId) void loadOwnProfile(userId);
  }, [userId]);

  const current = own.current;
  if (current.status !== 'ready') return null;
  const saved = SHOWN_OF[(current.profile as OwnProfile).preferences.gender_preference as GenderPreference] ?? 'all';
  return {
    value: shown ?? saved,
    onChange(value) {
      setShown(value);
      saveGenderPreference(userId, PREFERENCE_OF[value]).then(
        (answer) => {
          const latest = ownProfileState.current;
          if (latest.status === 'ready') {
            setOwnProfile({
              ...latest.profile,
              preferences: { ...latest.profile.preferences, gender_preference: answer },
            });
          }
          setShown(null);
        },
        () => {
          setShown(null);
          toast.error(GENDER_SAVE_FAILED);
        },
      );
    },
  };
}
