/**
 * The Profile of spec 001 §3 as valibot schemas, with the validation rules and Spanish texts of §5.
 *
 * Requests (create, update, update location) are strict: an unknown key — `__proto__` included —
 * is refused with a Spanish message, and every string and list is bounded. Responses are lenient
 * (`v.object` drops keys it does not know), which is also how the server makes sure nothing
 * private leaves it: it parses what it sends with the response schema.
 *
 * Server-owned fields (id, age, verified, active, stats, compatibility, distance) are never
 * accepted from a client: age is derived from birthDate, the rest is the server's to say.
 */
import * as v from 'valibot';
import { ageFromBirthDate } from './age.ts';
import {
  AGE_RANGE_MAX,
  AGE_RANGE_MIN,
  AVAILABILITY_SLOTS,
  BIO_MAX,
  BIO_MIN,
  COMMITMENT_LEVELS,
  DEFAULT_DISTANCE_KM,
  DEFAULT_FREQUENCY_DAYS,
  DEFAULT_GENDER_PREFERENCE,
  DEFAULT_MEMBERSHIP_TYPE,
  DIETARY_PREFERENCES,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  EXPERIENCE_LEVELS,
  FREQUENCY_MAX_DAYS,
  FREQUENCY_MIN_DAYS,
  GENDER_PREFERENCES,
  GENDERS,
  GOALS,
  GYM_NAME_MAX,
  GYM_NAME_MIN,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  INJURIES,
  LAST_NAME_MAX,
  MAX_PHOTOS,
  MEMBERSHIP_TYPES,
  MIN_AGE,
  MIN_BIRTH_DATE,
  MOTIVATIONS,
  NAME_MAX,
  SOCIAL_PREFERENCES,
  SPECIALTIES,
  SPORTS,
  SUPPLEMENTS,
  TRAINING_SCHEDULES,
  WEIGHT_MAX_KG,
  WEIGHT_MIN_KG,
} from './options.ts';
import { isIsoDay } from '../time/madrid-calendar.ts';
import { PROFILE_MESSAGES } from './profile-messages.ts';
import {
  CITY_MAX,
  PERSON_NAME,
  PHOTO_KEY_MAX,
  USER_ID_MAX,
  characterCount,
  handle,
  hasControlCharacter,
  integerBetween,
  numberBetween,
  objectMessage,
  optionList,
  personName,
  rawGuard,
  requiredOptionList,
  singleLine,
  unique,
} from './profile-field-rules.ts';

// ---------------------------------------------------------------------------------------------
// Fields

export const UserIdSchema = v.pipe(
  v.string(PROFILE_MESSAGES.userIdRequired),
  v.maxLength(rawGuard(USER_ID_MAX), PROFILE_MESSAGES.userIdInvalid),
  v.trim(),
  v.nonEmpty(PROFILE_MESSAGES.userIdRequired),
  v.maxLength(USER_ID_MAX, PROFILE_MESSAGES.userIdInvalid),
  v.regex(/^[A-Za-z0-9_-]+$/, PROFILE_MESSAGES.userIdInvalid),
);

export const NameSchema = personName(NAME_MAX, PROFILE_MESSAGES.name);

/** Optional last name: "" or null means none (and clears it in an update). */
export const LastNameSchema = v.nullable(
  v.pipe(
    v.string(PROFILE_MESSAGES.lastName),
    v.maxLength(rawGuard(LAST_NAME_MAX), PROFILE_MESSAGES.lastName),
    v.trim(),
    v.normalize('NFC'),
    v.transform((name: string) => name.replace(/ {2,}/g, ' ')),
    v.check(
      (name: string) => name === '' || (PERSON_NAME.test(name) && characterCount(name) <= LAST_NAME_MAX),
      PROFILE_MESSAGES.lastName,
    ),
    v.transform((name: string) => (name === '' ? null : name)),
  ),
);

export const BioSchema = v.pipe(
  v.string(PROFILE_MESSAGES.bio),
  v.maxLength(rawGuard(BIO_MAX), PROFILE_MESSAGES.bio),
  v.trim(),
  v.normalize('NFC'),
  v.check((bio: string) => !hasControlCharacter(bio, true), PROFILE_MESSAGES.bio),
  v.check((bio: string) => {
    const count = characterCount(bio);
    return count >= BIO_MIN && count <= BIO_MAX;
  }, PROFILE_MESSAGES.bio),
);

export const GenderSchema = v.nullable(v.picklist(GENDERS, PROFILE_MESSAGES.gender));

/**
 * The birth date: a real "YYYY-MM-DD" day, not before 1900-01-01, of someone at least 18 on
 * `now()`'s Madrid calendar day (which also rules out future dates).
 */
export function birthDateSchema(now: () => Date) {
  return v.pipe(
    v.string(PROFILE_MESSAGES.birthDateRequired),
    v.maxLength(rawGuard(10), PROFILE_MESSAGES.birthDateInvalid),
    v.trim(),
    v.nonEmpty(PROFILE_MESSAGES.birthDateRequired),
    v.check(isIsoDay, PROFILE_MESSAGES.birthDateInvalid),
    v.check((day: string) => !isIsoDay(day) || day >= MIN_BIRTH_DATE, PROFILE_MESSAGES.birthDateTooEarly),
    v.check(
      (day: string) => !isIsoDay(day) || day < MIN_BIRTH_DATE || ageFromBirthDate(day, now()) >= MIN_AGE,
      PROFILE_MESSAGES.minAge,
    ),
  );
}

/**
 * A photo key as the upload returns it ("photos/<user>/<id>.webp"): letters, digits and . _ - /,
 * never "..". Requests take keys only, never addresses: a profile pointing at someone else's
 * server would make every viewer's browser call it, handing that server their IP addresses.
 */
const PHOTO_KEY = /^(?!.*\.\.)(?!.*\/\/)[A-Za-z0-9][A-Za-z0-9._/-]*$/;

export const PhotoKeySchema = v.pipe(
  v.string(PROFILE_MESSAGES.photoInvalid),
  v.maxLength(PHOTO_KEY_MAX, PROFILE_MESSAGES.photoInvalid),
  v.regex(PHOTO_KEY, PROFILE_MESSAGES.photoInvalid),
);

/**
 * The photos a profile request names (keys returned by the upload). Up to 6, and possibly none:
 * the wizard saves the profile first and the photos after (spec 001 §4); "at least one" is the
 * wizard's step-4 rule, checked on the files the user picked.
 */
export const PhotoListSchema = v.pipe(
  v.array(v.unknown(), PROFILE_MESSAGES.photoInvalid),
  v.maxLength(MAX_PHOTOS, PROFILE_MESSAGES.photosMax),
  v.array(PhotoKeySchema, PROFILE_MESSAGES.photoInvalid),
  v.transform(unique),
);

/** 0, 0 (in the Gulf of Guinea) is what a failed position reading sends, not where anyone trains. */
export const LocationSchema = v.pipe(
  v.strictObject(
    {
      latitude: numberBetween(-90, 90, PROFILE_MESSAGES.latitude),
      longitude: numberBetween(-180, 180, PROFILE_MESSAGES.longitude),
      city: v.optional(v.nullable(singleLine(0, CITY_MAX, PROFILE_MESSAGES.city))),
    },
    objectMessage(PROFILE_MESSAGES.locationRequired, {
      latitude: PROFILE_MESSAGES.latitude,
      longitude: PROFILE_MESSAGES.longitude,
    }),
  ),
  v.check((location) => location.latitude !== 0 || location.longitude !== 0, PROFILE_MESSAGES.locationNullIsland),
);

export const GymSchema = v.strictObject(
  {
    name: singleLine(GYM_NAME_MIN, GYM_NAME_MAX, PROFILE_MESSAGES.gymName),
    membershipType: v.optional(v.picklist(MEMBERSHIP_TYPES, PROFILE_MESSAGES.membershipType), DEFAULT_MEMBERSHIP_TYPE),
    trainingSchedule: requiredOptionList(
      TRAINING_SCHEDULES,
      PROFILE_MESSAGES.trainingScheduleInvalid,
      PROFILE_MESSAGES.trainingScheduleRequired,
    ),
  },
  objectMessage(PROFILE_MESSAGES.gym, {
    name: PROFILE_MESSAGES.gymName,
    trainingSchedule: PROFILE_MESSAGES.trainingScheduleRequired,
  }),
);

export const TrainingSchema = v.strictObject(
  {
    sports: requiredOptionList(SPORTS, PROFILE_MESSAGES.sportInvalid, PROFILE_MESSAGES.sportsRequired),
    goals: requiredOptionList(GOALS, PROFILE_MESSAGES.goalInvalid, PROFILE_MESSAGES.goalsRequired),
    experienceLevel: v.optional(v.nullable(v.picklist(EXPERIENCE_LEVELS, PROFILE_MESSAGES.experienceLevel))),
    frequency: v.optional(
      integerBetween(FREQUENCY_MIN_DAYS, FREQUENCY_MAX_DAYS, PROFILE_MESSAGES.frequency),
      DEFAULT_FREQUENCY_DAYS,
    ),
    motivation: v.optional(optionList(MOTIVATIONS, PROFILE_MESSAGES.motivationInvalid), []),
    specialties: v.optional(optionList(SPECIALTIES, PROFILE_MESSAGES.specialtyInvalid), []),
    commitment_level: v.optional(v.nullable(v.picklist(COMMITMENT_LEVELS, PROFILE_MESSAGES.commitmentLevel))),
    supplements: v.optional(optionList(SUPPLEMENTS, PROFILE_MESSAGES.supplementInvalid), []),
    socialPreference: v.optional(v.nullable(v.picklist(SOCIAL_PREFERENCES, PROFILE_MESSAGES.socialPreference))),
    availability: requiredOptionList(
      AVAILABILITY_SLOTS,
      PROFILE_MESSAGES.availabilityInvalid,
      PROFILE_MESSAGES.availabilityRequired,
    ),
  },
  objectMessage(PROFILE_MESSAGES.training, {
    sports: PROFILE_MESSAGES.sportsRequired,
    goals: PROFILE_MESSAGES.goalsRequired,
    availability: PROFILE_MESSAGES.availabilityRequired,
  }),
);

export const HealthSchema = v.strictObject(
  {
    injuries: v.optional(optionList(INJURIES, PROFILE_MESSAGES.injuryInvalid), []),
    // Body data is the person's own only when they enter it: null (none) unless given (issue #20,
    // docs/decisions/0030); the spec's 170 cm / 70 kg are the fields' placeholders, never saved.
    height: v.optional(v.nullable(numberBetween(HEIGHT_MIN_CM, HEIGHT_MAX_CM, PROFILE_MESSAGES.height)), null),
    weight: v.optional(v.nullable(numberBetween(WEIGHT_MIN_KG, WEIGHT_MAX_KG, PROFILE_MESSAGES.weight)), null),
    dietaryPreferences: v.optional(optionList(DIETARY_PREFERENCES, PROFILE_MESSAGES.dietaryPreferenceInvalid), []),
  },
  objectMessage(PROFILE_MESSAGES.health),
);

/** Both ends are integers in 18-99 and min ≤ max; the pair is always set as a whole. */
export const AgeRangeSchema = v.pipe(
  v.strictObject(
    {
      min: v.optional(integerBetween(AGE_RANGE_MIN, AGE_RANGE_MAX, PROFILE_MESSAGES.ageRangeMin), AGE_RANGE_MIN),
      max: v.optional(integerBetween(AGE_RANGE_MIN, AGE_RANGE_MAX, PROFILE_MESSAGES.ageRangeMax), AGE_RANGE_MAX),
    },
    objectMessage(PROFILE_MESSAGES.ageRange),
  ),
  v.forward(
    v.check((range: { min: number; max: number }) => range.min <= range.max, PROFILE_MESSAGES.ageRangeOrder),
    ['min'],
  ),
);

export const PreferencesSchema = v.strictObject(
  {
    gender_preference: v.optional(
      v.picklist(GENDER_PREFERENCES, PROFILE_MESSAGES.genderPreference),
      DEFAULT_GENDER_PREFERENCE,
    ),
    age_range: v.optional(AgeRangeSchema, {}),
    distance: v.optional(
      v.pipe(
        v.number(PROFILE_MESSAGES.distanceMin),
        v.integer(PROFILE_MESSAGES.distanceMin),
        v.minValue(DISTANCE_MIN_KM, PROFILE_MESSAGES.distanceMin),
        v.maxValue(DISTANCE_MAX_KM, PROFILE_MESSAGES.distanceMax),
      ),
      DEFAULT_DISTANCE_KM,
    ),
    // The spec names these preferences without their form; we read them as yes/no wishes.
    music: v.optional(v.boolean(PROFILE_MESSAGES.preferenceFlag)),
    groupClasses: v.optional(v.boolean(PROFILE_MESSAGES.preferenceFlag)),
    personalTraining: v.optional(v.boolean(PROFILE_MESSAGES.preferenceFlag)),
  },
  objectMessage(PROFILE_MESSAGES.preferences),
);

/** The social block (spec 001 §3): every handle optional; "" or null clears one. */
export const SocialSchema = v.strictObject(
  {
    instagram: v.optional(handle('instagram', PROFILE_MESSAGES.instagram)),
    spotify: v.optional(handle('spotify', PROFILE_MESSAGES.spotify)),
    strava: v.optional(handle('strava', PROFILE_MESSAGES.strava)),
  },
  objectMessage(PROFILE_MESSAGES.social),
);

// ---------------------------------------------------------------------------------------------
// Requests

const systemNow = () => new Date();

export function personalEntries(now: () => Date) {
  return {
    name: NameSchema,
    lastName: v.optional(LastNameSchema),
    birthDate: birthDateSchema(now),
    bio: BioSchema,
    gender: v.optional(GenderSchema),
  };
}

export const PERSONAL_MISSING = {
  name: PROFILE_MESSAGES.name,
  birthDate: PROFILE_MESSAGES.birthDateRequired,
  bio: PROFILE_MESSAGES.bio,
} as const;

/**
 * `POST /api/profiles`: the whole profile with its userId. Optional blocks get the spec's
 * defaults (membership free, frequency 3, age range 18-99, distance 50…); `health` and `social`
 * stay absent when not given. `now` is the clock of the age rule (tests pass a fixed one).
 */
export function profileCreateRequestSchema(now: () => Date = systemNow) {
  return v.strictObject(
    {
      userId: UserIdSchema,
      ...personalEntries(now),
      photos: v.optional(PhotoListSchema, []),
      location: LocationSchema,
      gym: GymSchema,
      training: TrainingSchema,
      health: v.optional(HealthSchema),
      preferences: v.optional(PreferencesSchema, {}),
      social: v.optional(v.nullable(SocialSchema)),
    },
    objectMessage(PROFILE_MESSAGES.invalidProfile, {
      userId: PROFILE_MESSAGES.userIdRequired,
      ...PERSONAL_MISSING,
      location: PROFILE_MESSAGES.locationRequired,
      gym: PROFILE_MESSAGES.gymName,
      training: PROFILE_MESSAGES.sportsRequired,
    }),
  );
}

/**
 * `PUT /api/profiles/{userId}`: userId plus the fields that changed. A block (gym, training,
 * health, preferences, social) may carry only its changed fields; an absent field stays as it
 * is, and no default is filled in. `age_range` and `location` are replaced as a whole.
 * An optional field is cleared with null — and a text one also with "", what an emptied input
 * holds: lastName, gender, the training's experienceLevel, commitment_level and
 * socialPreference, each social handle, and `social: null` for the whole block
 * (docs/decisions/0014-profile-updates-and-social-links.md).
 */
export function profileUpdateRequestSchema(now: () => Date = systemNow) {
  return v.strictObject(
    {
      userId: UserIdSchema,
      ...v.partial(v.object(personalEntries(now))).entries,
      photos: v.optional(PhotoListSchema),
      location: v.optional(LocationSchema),
      gym: v.optional(v.partial(GymSchema)),
      training: v.optional(v.partial(TrainingSchema)),
      health: v.optional(v.partial(HealthSchema)),
      preferences: v.optional(v.partial(PreferencesSchema)),
      social: v.optional(v.nullable(SocialSchema)),
    },
    objectMessage(PROFILE_MESSAGES.invalidProfile, { userId: PROFILE_MESSAGES.userIdRequired }),
  );
}

export const ProfileCreateRequestSchema = profileCreateRequestSchema();
export type ProfileCreateRequest = v.InferOutput<typeof ProfileCreateRequestSchema>;
export type ProfileCreateInput = v.InferInput<typeof ProfileCreateRequestSchema>;

export const ProfileUpdateRequestSchema = profileUpdateRequestSchema();
export type ProfileUpdateRequest = v.InferOutput<typeof ProfileUpdateRequestSchema>;
export type ProfileUpdateInput = v.InferInput<typeof ProfileUpdateRequestSchema>;

/** `PUT /api/profiles/{userId}/location`. The server snaps the position before storing it. */
export const LocationUpdateRequestSchema = v.strictObject(
  { location: LocationSchema },
  objectMessage(PROFILE_MESSAGES.invalidProfile, { location: PROFILE_MESSAGES.locationRequired }),
);
export type LocationUpdateRequest = v.InferOutput<typeof LocationUpdateRequestSchema>;
