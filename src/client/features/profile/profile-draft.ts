/**
 * The form's working copy of a profile, in the create request's shape (so the shared step
 * validators read it as it is), and its conversions to requests and from a stored profile.
 */
import {
  AGE_RANGE_MAX,
  AGE_RANGE_MIN,
  type CommitmentLevel,
  DEFAULT_DISTANCE_KM,
  DEFAULT_FREQUENCY_DAYS,
  DEFAULT_GENDER_PREFERENCE,
  DEFAULT_MEMBERSHIP_TYPE,
  type ExperienceLevel,
  type Gender,
  type GenderPreference,
  type MembershipType,
  type SocialPreference,
} from '#shared/profile/options';
import type { ProfileCreateInput, ProfileUpdateInput } from '#shared/profile/profile-schema';
import type { OwnProfile } from '#shared/profile/profile-views';
import { type FieldErrors, validateWizardStep, type WizardStep } from '#shared/profile/profile-wizard';

export type ProfileDraft = {
  name: string;
  lastName: string;
  birthDate: string;
  bio: string;
  gender: Gender | '';
  gym: { name: string; membershipType: MembershipType; trainingSchedule: string[] };
  training: {
    sports: string[];
    goals: string[];
    experienceLevel: ExperienceLevel | null;
    frequency: number;
    motivation: string[];
    specialties: string[];
    commitment_level: CommitmentLevel | null;
    supplements: string[];
    socialPreference: SocialPreference | null;
    availability: string[];
  };
  /** Height and weight NaN while empty (the number fields' convention): saved as null, not 170/70. */
  health: { injuries: string[]; height: number; weight: number; dietaryPreferences: string[] };
  preferences: {
    gender_preference: GenderPreference;
    age_range: { min: number; max: number };
    distance: number;
  };
  /** The profile's town, from the gym picked in the suggestions (empty when typed by hand). */
  city: string;
  /** The social links as typed (a handle, "@handle" or the profile's address); "" is none. */
  social: { instagram: string; spotify: string; strava: string };
};

export function emptyDraft(): ProfileDraft {
  return {
    name: '',
    lastName: '',
    birthDate: '',
    bio: '',
    gender: '',
    gym: { name: '', membershipType: DEFAULT_MEMBERSHIP_TYPE, trainingSchedule: [] },
    training: {
      sports: [],
      goals: [],
      experienceLevel: null,
      frequency: DEFAULT_FREQUENCY_DAYS,
      motivation: [],
      specialties: [],
      commitment_level: null,
      supplements: [],
      socialPreference: null,
      availability: [],
    },
    health: { injuries: [], height: Number.NaN, weight: Number.NaN, dietaryPreferences: [] },
    preferences: {
      gender_preference: DEFAULT_GENDER_PREFERENCE,
      age_range: { min: AGE_RANGE_MIN, max: AGE_RANGE_MAX },
      distance: DEFAULT_DISTANCE_KM,
    },
    social: { instagram: '', spotify: '', strava: '' },
    city: '',
  };
}

export function draftFromProfile(profile: OwnProfile): ProfileDraft {
  const base = emptyDraft();
  return {
    name: profile.name,
    lastName: profile.lastName ?? '',
    birthDate: profile.birthDate.slice(0, 10),
    bio: profile.bio,
    gender: profile.gender ?? '',
    gym: { ...profile.gym, trainingSchedule: [...profile.gym.trainingSchedule] },
    training: {
      ...profile.training,
      sports: [...profile.training.sports],
      goals: [...profile.training.goals],
      motivation: [...profile.training.motivation],
      specialties: [...profile.training.specialties],
      supplements: [...profile.training.supplements],
      availability: [...profile.training.availability],
      experienceLevel: profile.training.experienceLevel ?? null,
      commitment_level: profile.training.commitment_level ?? null,
      socialPreference: profile.training.socialPreference ?? null,
    },
    health: profile.health
      ? {
          injuries: [...(profile.health.injuries ?? [])],
          height: profile.health.height ?? Number.NaN,
          weight: profile.health.weight ?? Number.NaN,
          dietaryPreferences: [...(profile.health.dietaryPreferences ?? [])],
        }
      : base.health,
    preferences: {
      gender_preference: profile.preferences.gender_preference,
      age_range: { ...profile.preferences.age_range },
      distance: profile.preferences.distance,
    },
    social: {
      instagram: profile.social?.instagram ?? '',
      spotify: profile.social?.spotify ?? '',
      strava: profile.social?.strava ?? '',
    },
    city: profile.location.city ?? '',
  };
}

/**
 * The request body. An empty optional field is null (docs/decisions/0014): a create ignores it,
 * an update clears what was stored — leaving it out would keep the old value.
 */
function body(draft: ProfileDraft) {
  const { experienceLevel, commitment_level, socialPreference, ...lists } = draft.training;
  const lastName = draft.lastName.trim();
  return {
    name: draft.name.trim(),
    lastName: lastName || null,
    birthDate: draft.birthDate,
    bio: draft.bio.trim(),
    gender: draft.gender || null,
    gym: { ...draft.gym, name: draft.gym.name.trim() },
    training: {
      ...lists,
      experienceLevel: experienceLevel ?? null,
      commitment_level: commitment_level ?? null,
      socialPreference: socialPreference ?? null,
    },
    health: {
      ...draft.health,
      height: emptyAsNull(draft.health.height),
      weight: emptyAsNull(draft.health.weight),
    },
    preferences: draft.preferences,
    social: socialLinks(draft),
  };
}

/** An empty number field (NaN) is "not given"; anything else is sent as typed, to be checked. */
function emptyAsNull(value: number): number | null {
  return value === null || Number.isNaN(value) ? null : value;
}

/**
 * A draft kept on the device (JSON, so empty numbers came back as null), over today's empty draft:
 * fields a newer version added get their defaults, a damaged one cannot break the wizard.
 */
export function draftFromStored(stored: unknown): ProfileDraft {
  const base = emptyDraft();
  if (typeof stored !== 'object' || stored === null) return base;
  const value = stored as Partial<ProfileDraft>;
  const section = <K extends 'gym' | 'training' | 'health' | 'preferences' | 'social'>(key: K): ProfileDraft[K] => {
    const kept = value[key];
    return (typeof kept === 'object' && kept !== null ? { ...base[key], ...kept } : base[key]) as ProfileDraft[K];
  };
  const text = (key: 'name' | 'lastName' | 'birthDate' | 'bio') =>
    typeof value[key] === 'string' ? (value[key] as string) : base[key];
  const health = section('health');
  const preferences = section('preferences');
  const training = section('training');
  const number = (kept: unknown, fallback: number) => (typeof kept === 'number' ? kept : fallback);
  return {
    name: text('name'),
    lastName: text('lastName'),
    birthDate: text('birthDate'),
    bio: text('bio'),
    gender: typeof value.gender === 'string' ? value.gender : base.gender,
    gym: section('gym'),
    training: { ...training, frequency: number(training.frequency, Number.NaN) },
    health: { ...health, height: number(health.height, Number.NaN), weight: number(health.weight, Number.NaN) },
    preferences: {
      ...preferences,
      age_range: { ...base.preferences.age_range, ...preferences.age_range },
      distance: number(preferences.distance, Number.NaN),
    },
    social: section('social'),
    city: typeof value.city === 'string' ? value.city : '',
  };
}

/** The typed handles, each null when empty (the shared schema reduces "@x" and addresses to x). */
function socialLinks(draft: ProfileDraft) {
  const handle = (text: string) => text.trim() || null;
  return {
    instagram: handle(draft.social.instagram),
    spotify: handle(draft.social.spotify),
    strava: handle(draft.social.strava),
  };
}

/** What a step validator reads: the request's shape plus the photos picked so far. */
export function validationShape(draft: ProfileDraft, photos: readonly unknown[]) {
  return { ...body(draft), photos };
}

/** The errors of one step (empty when it may advance). */
export function stepErrors(step: WizardStep, draft: ProfileDraft, photos: readonly unknown[], now: Date): FieldErrors {
  return validateWizardStep(step, validationShape(draft, photos), now);
}

export function createRequest(
  userId: string,
  draft: ProfileDraft,
  location: { latitude: number; longitude: number },
  photos: string[] = [],
): ProfileCreateInput {
  const { social, ...rest } = body(draft);
  const hasSocial = Object.values(social).some(Boolean);
  const place = draft.city.trim() ? { ...location, city: draft.city.trim() } : location;
  return { userId, ...rest, ...(hasSocial ? { social } : {}), location: place, photos } as ProfileCreateInput;
}

/** Every field of the form, the emptied optional ones as null, so they are cleared on the server. */
export function updateRequest(userId: string, draft: ProfileDraft): ProfileUpdateInput {
  return { userId, ...body(draft) } as ProfileUpdateInput;
}

/**
 * The errors to show after an edit: those already shown that still apply, with their current
 * text. A fixed field loses its message at once; a field not yet checked gets none while typing.
 */
export function stillShownErrors(shown: FieldErrors, current: FieldErrors): FieldErrors {
  const kept: Record<string, string> = Object.create(null);
  for (const key of Object.keys(shown)) {
    const message = current[key];
    if (message !== undefined) kept[key] = message;
  }
  return kept;
}

/** Which step holds a field path ("gym.name" → 2), so a save error can send the user there. */
export function stepOfField(path: string): WizardStep {
  if (path.startsWith('gym')) return 2;
  if (path.startsWith('training') || path.startsWith('preferences')) return 3;
  if (path.startsWith('health') || path.startsWith('photos') || path.startsWith('social')) return 4;
  return 1;
}
