/**
 * Whether a candidate fits what a viewer asks for, in one direction only. The server shows two
 * people to each other only when each fits the other's preferences, so it applies this both ways.
 */
import {
  AGE_RANGE_MAX,
  AGE_RANGE_MIN,
  DEFAULT_GENDER_PREFERENCE,
  type Gender,
  type GenderPreference,
} from '../profile/options.ts';

export interface PreferenceViewer {
  readonly preferences?: {
    readonly gender_preference?: GenderPreference | null;
    readonly age_range?: { readonly min?: number | null; readonly max?: number | null } | null;
  } | null;
}

export interface PreferenceCandidate {
  /** Missing when the candidate chose not to say. */
  readonly gender?: Gender | null;
  readonly age: number;
}

/**
 * "Ambos" accepts everyone, non-binary people and those who did not state a gender included;
 * "Hombres" and "Mujeres" accept only that gender. The age must be within the range, both ends
 * included. Missing preferences mean the defaults: both genders, 18 to 99.
 */
export function matchesPreferences(viewer: PreferenceViewer, candidate: PreferenceCandidate): boolean {
  const genderPreference = viewer.preferences?.gender_preference ?? DEFAULT_GENDER_PREFERENCE;
  if (genderPreference !== 'both' && candidate.gender !== genderPreference) return false;
  const min = viewer.preferences?.age_range?.min ?? AGE_RANGE_MIN;
  const max = viewer.preferences?.age_range?.max ?? AGE_RANGE_MAX;
  return Number.isFinite(candidate.age) && candidate.age >= min && candidate.age <= max;
}
