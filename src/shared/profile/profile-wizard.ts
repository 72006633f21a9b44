/** The profile wizard's steps (spec 001 §5): per-step schemas, their field errors, the photo file check. */
import * as v from 'valibot';
import { MAX_PHOTO_BYTES, MAX_PHOTOS, MIN_PHOTOS, PHOTO_MIME_TYPES } from './options.ts';
import { PROFILE_MESSAGES } from './profile-messages.ts';
import { objectMessage } from './profile-field-rules.ts';
import {
  GymSchema,
  HealthSchema,
  PERSONAL_MISSING,
  personalEntries,
  PreferencesSchema,
  SocialSchema,
  TrainingSchema,
} from './profile-schema.ts';

// ---------------------------------------------------------------------------------------------
// Errors for forms, and the wizard's steps

/** One message per field, keyed by dotted path ("name", "gym.trainingSchedule", "preferences.age_range.min"). */
export type FieldErrors = Readonly<Record<string, string>>;

/** The first message of each field; issues about the whole value are under "". */
export function fieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldErrors {
  // A null prototype, so a hostile "__proto__" path is just a key.
  const errors: Record<string, string> = Object.create(null);
  for (const issue of issues) {
    const path = v.getDotPath(issue) ?? '';
    if (!Object.hasOwn(errors, path)) errors[path] = issue.message;
  }
  return errors;
}

export type WizardStep = 1 | 2 | 3 | 4;

/** Step 1, Datos Personales: name, lastName, birthDate, bio, gender. */
export function personalStepSchema(now: () => Date) {
  return v.object(personalEntries(now), objectMessage(PROFILE_MESSAGES.invalidProfile, PERSONAL_MISSING));
}

/** Step 2, Información del Gimnasio: gym name and training schedules. */
export const GymStepSchema = v.object(
  { gym: GymSchema },
  objectMessage(PROFILE_MESSAGES.invalidProfile, { gym: PROFILE_MESSAGES.gymName }),
);

/** Step 3, Preferencias de Entrenamiento: the training block and the partner preferences. */
export const TrainingStepSchema = v.object(
  { training: TrainingSchema, preferences: v.optional(PreferencesSchema, {}) },
  objectMessage(PROFILE_MESSAGES.invalidProfile, { training: PROFILE_MESSAGES.sportsRequired }),
);

/** Step 4, Información Adicional y Fotos: health, the social links and the photo files picked (1 to 6). */
export const AdditionalStepSchema = v.object(
  {
    health: v.optional(HealthSchema),
    social: v.optional(v.nullable(SocialSchema)),
    photos: v.pipe(
      v.array(v.unknown(), PROFILE_MESSAGES.photosRequired),
      v.minLength(MIN_PHOTOS, PROFILE_MESSAGES.photosRequired),
      v.maxLength(MAX_PHOTOS, PROFILE_MESSAGES.photosMax),
    ),
  },
  objectMessage(PROFILE_MESSAGES.invalidProfile, { photos: PROFILE_MESSAGES.photosRequired }),
);

function stepErrors(schema: v.GenericSchema, draft: unknown): FieldErrors {
  const result = v.safeParse(schema, draft);
  return result.success ? {} : fieldErrors(result.issues);
}

export function validatePersonalStep(draft: unknown, now: Date): FieldErrors {
  return stepErrors(
    personalStepSchema(() => now),
    draft,
  );
}

export function validateGymStep(draft: unknown): FieldErrors {
  return stepErrors(GymStepSchema, draft);
}

export function validateTrainingStep(draft: unknown): FieldErrors {
  return stepErrors(TrainingStepSchema, draft);
}

export function validateAdditionalStep(draft: unknown): FieldErrors {
  return stepErrors(AdditionalStepSchema, draft);
}

/**
 * The wizard's "next" check for one step; an empty object means the step is valid. The draft has
 * the create request's shape (photos being the picked files); the server checks the whole request
 * with ProfileCreateRequestSchema, built from the same field schemas.
 */
export function validateWizardStep(step: WizardStep, draft: unknown, now: Date): FieldErrors {
  switch (step) {
    case 1:
      return validatePersonalStep(draft, now);
    case 2:
      return validateGymStep(draft);
    case 3:
      return validateTrainingStep(draft);
    case 4:
      return validateAdditionalStep(draft);
  }
}

/** Why a picked photo file cannot be uploaded (spec 001 §5 and §8), or null when it can. */
export function photoFileError(file: { readonly type: string; readonly size: number }): string | null {
  if (!(PHOTO_MIME_TYPES as readonly string[]).includes(file.type)) return PROFILE_MESSAGES.photoFormat;
  if (!(file.size > 0)) return PROFILE_MESSAGES.photoInvalid;
  if (file.size > MAX_PHOTO_BYTES) return PROFILE_MESSAGES.photoTooLarge;
  return null;
}
