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
  DEFAULT_HEIGHT_CM,
  DEFAULT_MEMBERSHIP_TYPE,
  DEFAULT_WEIGHT_KG,
  type ExperienceLevel,
  type Gender,
  type GenderPreference,
  type MembershipType,
  type SocialPreference,
} from '#shared/profile/options';
import {
  type FieldErrors,
  type OwnProfile,
  type ProfileCreateInput,
  type ProfileUpdateInput,
  validateWizardStep,
  type WizardStep,
} from '#shared/profile/profile-schema';

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
  health: { injuries: string[]; height: number; weight: number; dietaryPreferences: string[] };
  preferences: {
    gender_preference: GenderPreference;
    age_range: { min: number; max: number };
    distance: number;
  };
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
    health: { injuries: [], height: DEFAULT_HEIGHT_CM, weight: DEFAULT_WEIGHT_KG, dietaryPreferences: [] },
    preferences: {
      gender_preference: DEFAULT_GENDER_PREFERENCE,
      age_range: { min: AGE_RANGE_MIN, max: AGE_RANGE_MAX },
      distance: DEFAULT_DISTANCE_KM,
    },
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
          injuries: [...profile.health.injuries],
          height: profile.health.height,
          weight: profile.health.weight,
          dietaryPreferences: [...profile.health.dietaryPreferences],
        }
      : base.health,
    preferences: {
      gender_preference: profile.preferences.gender_preference,
      age_range: { ...profile.preferences.age_range },
      distance: profile.preferences.distance,
    },
  };
}

/** The trimmed personal fields, with the optional ones left out when empty. */
function personal(draft: ProfileDraft) {
  const lastName = draft.lastName.trim();
  return {
    name: draft.name.trim(),
    ...(lastName ? { lastName } : {}),
    birthDate: draft.birthDate,
    bio: draft.bio.trim(),
    ...(draft.gender ? { gender: draft.gender } : {}),
  };
}

function training(draft: ProfileDraft) {
  const { experienceLevel, commitment_level, socialPreference, ...rest } = draft.training;
  return {
    ...rest,
    ...(experienceLevel ? { experienceLevel } : {}),
    ...(commitment_level ? { commitment_level } : {}),
    ...(socialPreference ? { socialPreference } : {}),
  };
}

function body(draft: ProfileDraft) {
  return {
    ...personal(draft),
    gym: { ...draft.gym, name: draft.gym.name.trim() },
    training: training(draft),
    health: draft.health,
    preferences: draft.preferences,
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
  return { userId, ...body(draft), location, photos } as ProfileCreateInput;
}

export function updateRequest(userId: string, draft: ProfileDraft): ProfileUpdateInput {
  return { userId, ...body(draft) } as ProfileUpdateInput;
}

/** Which step holds a field path ("gym.name" → 2), so a save error can send the user there. */
export function stepOfField(path: string): WizardStep {
  if (path.startsWith('gym')) return 2;
  if (path.startsWith('training') || path.startsWith('preferences')) return 3;
  if (path.startsWith('health') || path.startsWith('photos')) return 4;
  return 1;
}
