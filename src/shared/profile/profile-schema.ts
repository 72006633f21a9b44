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
  MAX_PHOTO_BYTES,
  MAX_PHOTOS,
  MEMBERSHIP_TYPES,
  MIN_AGE,
  MIN_BIRTH_DATE,
  MIN_PHOTOS,
  MOTIVATIONS,
  NAME_MAX,
  PHOTO_MIME_TYPES,
  SOCIAL_PREFERENCES,
  SPECIALTIES,
  SPORTS,
  SUPPLEMENTS,
  TRAINING_SCHEDULES,
  WEIGHT_MAX_KG,
  WEIGHT_MIN_KG,
} from './options.ts';
import { isIsoDay } from '../time/madrid-calendar.ts';

/** The longest handle each network allows (Instagram's own limit; Spotify user ids; Strava athlete numbers). */
export const SOCIAL_HANDLE_MAX = { instagram: 30, spotify: 30, strava: 12 } as const;
/** A pasted profile address is longer than the handle; anything beyond this is not one. */
const SOCIAL_ADDRESS_MAX = 200;

export type SocialNetwork = keyof typeof SOCIAL_HANDLE_MAX;

/** Per network: what a handle may hold, and the profile address it can be read from. */
const SOCIAL_NETWORKS: Readonly<Record<SocialNetwork, { pattern: RegExp; address: RegExp }>> = {
  instagram: {
    pattern: new RegExp(`^[A-Za-z0-9._]{1,${SOCIAL_HANDLE_MAX.instagram}}$`),
    address: /^(?:https?:\/\/)?(?:www\.)?instagram\.com\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
  spotify: {
    pattern: new RegExp(`^[A-Za-z0-9._-]{1,${SOCIAL_HANDLE_MAX.spotify}}$`),
    address:
      /^(?:(?:https?:\/\/)?open\.spotify\.com\/(?:intl-[a-z-]+\/)?user\/|spotify:user:)([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
  strava: {
    pattern: new RegExp(`^[0-9]{1,${SOCIAL_HANDLE_MAX.strava}}$`),
    address: /^(?:https?:\/\/)?(?:www\.)?strava\.com\/athletes\/([^/?#\s]+)\/?(?:[?#]\S*)?$/i,
  },
};

/** Every text a profile schema can answer with. Texts quoted by spec 001 §5 and §8 are verbatim. */
export const PROFILE_MESSAGES = {
  invalidProfile: 'Datos del perfil no válidos',
  unknownField: 'Datos del perfil no válidos: contiene campos no permitidos',
  userIdRequired: 'UserId es requerido',
  userIdInvalid: 'UserId no es válido',
  minAge: 'Debes tener al menos 18 años para crear un perfil',
  birthDateRequired: 'La fecha de nacimiento es obligatoria',
  birthDateInvalid: 'La fecha de nacimiento no es válida',
  birthDateTooEarly: 'La fecha de nacimiento no puede ser anterior a 1900',
  name: 'El nombre debe contener solo letras y espacios (1-20 caracteres)',
  lastName: 'El apellido debe contener solo letras y espacios (1-30 caracteres)',
  bio: 'La bio debe tener entre 10 y 500 caracteres',
  gender: 'Selecciona un género válido',
  gymName: 'El nombre del gimnasio debe tener entre 3 y 50 caracteres',
  gym: 'Datos del gimnasio no válidos',
  membershipType: 'Selecciona un tipo de membresía válido',
  trainingScheduleRequired: 'Selecciona al menos un horario de entrenamiento',
  trainingScheduleInvalid: 'Horario de entrenamiento no válido',
  training: 'Datos de entrenamiento no válidos',
  sportsRequired: 'Selecciona al menos un deporte',
  sportInvalid: 'Deporte no válido',
  goalsRequired: 'Selecciona al menos un objetivo',
  goalInvalid: 'Objetivo no válido',
  availabilityRequired: 'Selecciona al menos un horario de disponibilidad',
  availabilityInvalid: 'Horario de disponibilidad no válido',
  motivationInvalid: 'Motivación no válida',
  specialtyInvalid: 'Especialidad no válida',
  supplementInvalid: 'Suplemento no válido',
  experienceLevel: 'Selecciona un nivel de experiencia válido',
  commitmentLevel: 'Selecciona un nivel de compromiso válido',
  socialPreference: 'Selecciona una preferencia social válida',
  frequency: 'La frecuencia debe estar entre 1 y 7 días por semana',
  health: 'Datos de salud no válidos',
  injuryInvalid: 'Lesión no válida',
  dietaryPreferenceInvalid: 'Preferencia alimentaria no válida',
  height: 'La altura debe estar entre 100 y 250 cm',
  weight: 'El peso debe estar entre 30 y 250 kg',
  photosRequired: 'Debes subir al menos una foto',
  photosMax: 'Puedes subir un máximo de 6 fotos',
  photoInvalid: 'La foto no es válida',
  photoTooLarge: 'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
  photoFormat: 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
  preferences: 'Preferencias no válidas',
  genderPreference: 'Selecciona una preferencia de género válida',
  ageRange: 'El rango de edad no es válido',
  ageRangeMin: 'La edad mínima debe estar entre 18 y 99 años',
  ageRangeMax: 'La edad máxima debe estar entre 18 y 99 años',
  ageRangeOrder: 'La edad mínima no puede ser mayor que la máxima',
  distanceMin: 'La distancia debe ser de al menos 1 km',
  distanceMax: `La distancia no puede superar los ${DISTANCE_MAX_KM} km`,
  preferenceFlag: 'Preferencia no válida',
  locationRequired: 'No se pudo obtener tu ubicación. Por favor, habilita el acceso a la ubicación para continuar.',
  latitude: 'La latitud no es válida',
  locationNullIsland: 'La ubicación 0, 0 no es válida: no pudimos leer tu posición real. Inténtalo de nuevo.',
  locationTooOften: 'Has cambiado de ubicación demasiadas veces hoy. Podrás cambiarla de nuevo más tarde.',
  locationTooFar: 'Ese cambio de ubicación es demasiado grande para el tiempo transcurrido. Inténtalo más tarde.',
  longitude: 'La longitud no es válida',
  city: 'La ciudad no es válida',
  social: 'Redes sociales no válidas',
  instagram: `El usuario de Instagram debe contener solo letras, números, puntos y guiones bajos (1-${SOCIAL_HANDLE_MAX.instagram} caracteres)`,
  spotify: `El usuario de Spotify debe contener solo letras, números, puntos, guiones y guiones bajos (1-${SOCIAL_HANDLE_MAX.spotify} caracteres)`,
  strava: `El atleta de Strava debe ser el número de tu perfil (1-${SOCIAL_HANDLE_MAX.strava} dígitos)`,
} as const;

const M = PROFILE_MESSAGES;

/** Longest city name we keep. */
export const CITY_MAX = 100;
/** Longest photo key we accept. */
export const PHOTO_KEY_MAX = 512;
const USER_ID_MAX = 64;

/** No option list is longer; a longer array is junk and is refused before its items are read. */
const LIST_MAX = 64;

// ---------------------------------------------------------------------------------------------
// Building blocks

/** Code points, not UTF-16 units: an emoji is one character to the user. */
function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** A raw-length guard that runs before trimming or regexes, so huge strings cost nothing. */
function rawGuard(max: number): number {
  return max * 4 + 64;
}

/**
 * Whether a text holds C0 control characters or DEL (NUL in particular: PostgreSQL refuses it in
 * text). Multi-line texts may keep tab, line feed and carriage return.
 */
function hasControlCharacter(text: string, isMultiLine: boolean): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isMultiLine && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * The message of an object schema: `invalid` when the value is not an object, the per-key text
 * when a required key is missing (so a missing birthDate reads "La fecha de nacimiento es
 * obligatoria"), and the unknown-field text for a key the schema does not know.
 */
function objectMessage(invalid: string, missing: Readonly<Record<string, string>> = {}) {
  return (issue: v.BaseIssue<unknown>): string => {
    if (issue.expected === 'never') return M.unknownField;
    const key = issue.path?.[issue.path.length - 1]?.key;
    if (issue.expected?.startsWith('"') && typeof key === 'string' && Object.hasOwn(missing, key)) {
      return missing[key] ?? invalid;
    }
    return invalid;
  };
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

/** A list of values from one option list: bounded, each value known, duplicates dropped. */
function optionList<const V extends string>(values: readonly V[], invalid: string, typeMessage: string = invalid) {
  return v.pipe(
    v.array(v.unknown(), typeMessage),
    v.maxLength(LIST_MAX, invalid),
    v.array(v.picklist(values, invalid), invalid),
    v.transform(unique),
  );
}

/** The same, with at least one value (spec 001 §5 "Selecciona al menos…"). */
function requiredOptionList<const V extends string>(values: readonly V[], invalid: string, required: string) {
  return v.pipe(optionList(values, invalid, required), v.minLength(1, required));
}

function numberBetween(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.finite(message), v.minValue(min, message), v.maxValue(max, message));
}

function integerBetween(min: number, max: number, message: string) {
  return v.pipe(v.number(message), v.integer(message), v.minValue(min, message), v.maxValue(max, message));
}

// Letters of any script (accents, ñ, ü…) and single spaces; NFC first, so "é" typed as e + ´ is one letter.
const PERSON_NAME = /^\p{L}[\p{L}\p{M} ]*$/u;

function personName(max: number, message: string) {
  return v.pipe(
    v.string(message),
    v.maxLength(rawGuard(max), message),
    v.trim(),
    v.normalize('NFC'),
    v.transform((name: string) => name.replace(/ {2,}/g, ' ')),
    v.regex(PERSON_NAME, message),
    v.check((name: string) => characterCount(name) <= max, message),
  );
}

/** A trimmed line of text of `min`-`max` characters with no control characters. */
function singleLine(min: number, max: number, message: string) {
  return v.pipe(
    v.string(message),
    v.maxLength(rawGuard(max), message),
    v.trim(),
    v.normalize('NFC'),
    v.check((text: string) => !hasControlCharacter(text, false), message),
    v.check((text: string) => {
      const count = characterCount(text);
      return count >= min && count <= max;
    }, message),
  );
}

/**
 * A social handle: the handle itself, "@handle", or the address of the profile on that network
 * (what people copy from the app's "share profile"), reduced to the handle. "" or null clears it.
 */
function handle(network: SocialNetwork, message: string) {
  const { address, pattern } = SOCIAL_NETWORKS[network];
  return v.nullable(
    v.pipe(
      v.string(message),
      v.maxLength(rawGuard(SOCIAL_ADDRESS_MAX), message),
      v.trim(),
      v.transform((text: string) => text.match(address)?.[1] ?? text.replace(/^@/, '')),
      v.check((text: string) => text === '' || pattern.test(text), message),
      v.transform((text: string) => (text === '' ? null : text)),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Fields

export const UserIdSchema = v.pipe(
  v.string(M.userIdRequired),
  v.maxLength(rawGuard(USER_ID_MAX), M.userIdInvalid),
  v.trim(),
  v.nonEmpty(M.userIdRequired),
  v.maxLength(USER_ID_MAX, M.userIdInvalid),
  v.regex(/^[A-Za-z0-9_-]+$/, M.userIdInvalid),
);

export const NameSchema = personName(NAME_MAX, M.name);

/** Optional last name: "" or null means none (and clears it in an update). */
export const LastNameSchema = v.nullable(
  v.pipe(
    v.string(M.lastName),
    v.maxLength(rawGuard(LAST_NAME_MAX), M.lastName),
    v.trim(),
    v.normalize('NFC'),
    v.transform((name: string) => name.replace(/ {2,}/g, ' ')),
    v.check(
      (name: string) => name === '' || (PERSON_NAME.test(name) && characterCount(name) <= LAST_NAME_MAX),
      M.lastName,
    ),
    v.transform((name: string) => (name === '' ? null : name)),
  ),
);

export const BioSchema = v.pipe(
  v.string(M.bio),
  v.maxLength(rawGuard(BIO_MAX), M.bio),
  v.trim(),
  v.normalize('NFC'),
  v.check((bio: string) => !hasControlCharacter(bio, true), M.bio),
  v.check((bio: string) => {
    const count = characterCount(bio);
    return count >= BIO_MIN && count <= BIO_MAX;
  }, M.bio),
);

export const GenderSchema = v.nullable(v.picklist(GENDERS, M.gender));

/**
 * The birth date: a real "YYYY-MM-DD" day, not before 1900-01-01, of someone at least 18 on
 * `now()`'s Madrid calendar day (which also rules out future dates).
 */
export function birthDateSchema(now: () => Date) {
  return v.pipe(
    v.string(M.birthDateRequired),
    v.maxLength(rawGuard(10), M.birthDateInvalid),
    v.trim(),
    v.nonEmpty(M.birthDateRequired),
    v.check(isIsoDay, M.birthDateInvalid),
    v.check((day: string) => !isIsoDay(day) || day >= MIN_BIRTH_DATE, M.birthDateTooEarly),
    v.check(
      (day: string) => !isIsoDay(day) || day < MIN_BIRTH_DATE || ageFromBirthDate(day, now()) >= MIN_AGE,
      M.minAge,
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
  v.string(M.photoInvalid),
  v.maxLength(PHOTO_KEY_MAX, M.photoInvalid),
  v.regex(PHOTO_KEY, M.photoInvalid),
);

/**
 * The photos a profile request names (keys returned by the upload). Up to 6, and possibly none:
 * the wizard saves the profile first and the photos after (spec 001 §4); "at least one" is the
 * wizard's step-4 rule, checked on the files the user picked.
 */
export const PhotoListSchema = v.pipe(
  v.array(v.unknown(), M.photoInvalid),
  v.maxLength(MAX_PHOTOS, M.photosMax),
  v.array(PhotoKeySchema, M.photoInvalid),
  v.transform(unique),
);

/** 0, 0 (in the Gulf of Guinea) is what a failed position reading sends, not where anyone trains. */
export const LocationSchema = v.pipe(
  v.strictObject(
    {
      latitude: numberBetween(-90, 90, M.latitude),
      longitude: numberBetween(-180, 180, M.longitude),
      city: v.optional(v.nullable(singleLine(0, CITY_MAX, M.city))),
    },
    objectMessage(M.locationRequired, { latitude: M.latitude, longitude: M.longitude }),
  ),
  v.check((location) => location.latitude !== 0 || location.longitude !== 0, M.locationNullIsland),
);

export const GymSchema = v.strictObject(
  {
    name: singleLine(GYM_NAME_MIN, GYM_NAME_MAX, M.gymName),
    membershipType: v.optional(v.picklist(MEMBERSHIP_TYPES, M.membershipType), DEFAULT_MEMBERSHIP_TYPE),
    trainingSchedule: requiredOptionList(TRAINING_SCHEDULES, M.trainingScheduleInvalid, M.trainingScheduleRequired),
  },
  objectMessage(M.gym, { name: M.gymName, trainingSchedule: M.trainingScheduleRequired }),
);

export const TrainingSchema = v.strictObject(
  {
    sports: requiredOptionList(SPORTS, M.sportInvalid, M.sportsRequired),
    goals: requiredOptionList(GOALS, M.goalInvalid, M.goalsRequired),
    experienceLevel: v.optional(v.nullable(v.picklist(EXPERIENCE_LEVELS, M.experienceLevel))),
    frequency: v.optional(integerBetween(FREQUENCY_MIN_DAYS, FREQUENCY_MAX_DAYS, M.frequency), DEFAULT_FREQUENCY_DAYS),
    motivation: v.optional(optionList(MOTIVATIONS, M.motivationInvalid), []),
    specialties: v.optional(optionList(SPECIALTIES, M.specialtyInvalid), []),
    commitment_level: v.optional(v.nullable(v.picklist(COMMITMENT_LEVELS, M.commitmentLevel))),
    supplements: v.optional(optionList(SUPPLEMENTS, M.supplementInvalid), []),
    socialPreference: v.optional(v.nullable(v.picklist(SOCIAL_PREFERENCES, M.socialPreference))),
    availability: requiredOptionList(AVAILABILITY_SLOTS, M.availabilityInvalid, M.availabilityRequired),
  },
  objectMessage(M.training, {
    sports: M.sportsRequired,
    goals: M.goalsRequired,
    availability: M.availabilityRequired,
  }),
);

export const HealthSchema = v.strictObject(
  {
    injuries: v.optional(optionList(INJURIES, M.injuryInvalid), []),
    // Body data is the person's own only when they enter it: null (none) unless given (issue #20,
    // docs/decisions/0030); the spec's 170 cm / 70 kg are the fields' placeholders, never saved.
    height: v.optional(v.nullable(numberBetween(HEIGHT_MIN_CM, HEIGHT_MAX_CM, M.height)), null),
    weight: v.optional(v.nullable(numberBetween(WEIGHT_MIN_KG, WEIGHT_MAX_KG, M.weight)), null),
    dietaryPreferences: v.optional(optionList(DIETARY_PREFERENCES, M.dietaryPreferenceInvalid), []),
  },
  objectMessage(M.health),
);

/** Both ends are integers in 18-99 and min ≤ max; the pair is always set as a whole. */
export const AgeRangeSchema = v.pipe(
  v.strictObject(
    {
      min: v.optional(integerBetween(AGE_RANGE_MIN, AGE_RANGE_MAX, M.ageRangeMin), AGE_RANGE_MIN),
      max: v.optional(integerBetween(AGE_RANGE_MIN, AGE_RANGE_MAX, M.ageRangeMax), AGE_RANGE_MAX),
    },
    objectMessage(M.ageRange),
  ),
  v.forward(
    v.check((range: { min: number; max: number }) => range.min <= range.max, M.ageRangeOrder),
    ['min'],
  ),
);

export const PreferencesSchema = v.strictObject(
  {
    gender_preference: v.optional(v.picklist(GENDER_PREFERENCES, M.genderPreference), DEFAULT_GENDER_PREFERENCE),
    age_range: v.optional(AgeRangeSchema, {}),
    distance: v.optional(
      v.pipe(
        v.number(M.distanceMin),
        v.integer(M.distanceMin),
        v.minValue(DISTANCE_MIN_KM, M.distanceMin),
        v.maxValue(DISTANCE_MAX_KM, M.distanceMax),
      ),
      DEFAULT_DISTANCE_KM,
    ),
    // The spec names these preferences without their form; we read them as yes/no wishes.
    music: v.optional(v.boolean(M.preferenceFlag)),
    groupClasses: v.optional(v.boolean(M.preferenceFlag)),
    personalTraining: v.optional(v.boolean(M.preferenceFlag)),
  },
  objectMessage(M.preferences),
);

/** The social block (spec 001 §3): every handle optional; "" or null clears one. */
export const SocialSchema = v.strictObject(
  {
    instagram: v.optional(handle('instagram', M.instagram)),
    spotify: v.optional(handle('spotify', M.spotify)),
    strava: v.optional(handle('strava', M.strava)),
  },
  objectMessage(M.social),
);

// ---------------------------------------------------------------------------------------------
// Requests

const systemNow = () => new Date();

function personalEntries(now: () => Date) {
  return {
    name: NameSchema,
    lastName: v.optional(LastNameSchema),
    birthDate: birthDateSchema(now),
    bio: BioSchema,
    gender: v.optional(GenderSchema),
  };
}

const PERSONAL_MISSING = { name: M.name, birthDate: M.birthDateRequired, bio: M.bio } as const;

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
    objectMessage(M.invalidProfile, {
      userId: M.userIdRequired,
      ...PERSONAL_MISSING,
      location: M.locationRequired,
      gym: M.gymName,
      training: M.sportsRequired,
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
    objectMessage(M.invalidProfile, { userId: M.userIdRequired }),
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
  objectMessage(M.invalidProfile, { location: M.locationRequired }),
);
export type LocationUpdateRequest = v.InferOutput<typeof LocationUpdateRequestSchema>;

// ---------------------------------------------------------------------------------------------
// Responses. Lenient on purpose: an option this client does not know yet (added by a newer
// server) is dropped instead of failing the whole screen.

function knownValues<const V extends string>(values: readonly V[]) {
  const known = new Set<string>(values);
  return v.pipe(
    v.array(v.string()),
    v.transform((items: string[]) => items.filter((item): item is V => known.has(item))),
  );
}

function knownValue<const V extends string>(values: readonly V[]) {
  return v.optional(v.fallback(v.nullable(v.picklist(values)), null));
}

const GymViewSchema = v.object({
  name: v.string(),
  membershipType: v.fallback(v.picklist(MEMBERSHIP_TYPES), DEFAULT_MEMBERSHIP_TYPE),
  trainingSchedule: knownValues(TRAINING_SCHEDULES),
});

const TrainingViewSchema = v.object({
  sports: knownValues(SPORTS),
  goals: knownValues(GOALS),
  experienceLevel: knownValue(EXPERIENCE_LEVELS),
  frequency: v.number(),
  motivation: knownValues(MOTIVATIONS),
  specialties: knownValues(SPECIALTIES),
  commitment_level: knownValue(COMMITMENT_LEVELS),
  supplements: knownValues(SUPPLEMENTS),
  socialPreference: knownValue(SOCIAL_PREFERENCES),
  availability: knownValues(AVAILABILITY_SLOTS),
});

/**
 * Health as shown: height and weight only when entered; injuries and diet only to the owner and
 * to the people they matched with (absent otherwise: docs/decisions/0030).
 */
const HealthViewSchema = v.object({
  injuries: v.optional(knownValues(INJURIES)),
  height: v.optional(v.nullable(v.number()), null),
  weight: v.optional(v.nullable(v.number()), null),
  dietaryPreferences: v.optional(knownValues(DIETARY_PREFERENCES)),
});

const StatsViewSchema = v.object({
  matches_count: v.number(),
  streak: v.number(),
  last_active: v.optional(v.nullable(v.string())),
});

const SocialViewSchema = v.object({
  instagram: v.optional(v.nullable(v.string())),
  spotify: v.optional(v.nullable(v.string())),
  strava: v.optional(v.nullable(v.string())),
});

/** The profile as the server returns it to its owner (location already snapped). */
export const OwnProfileSchema = v.object({
  id: v.string(),
  userId: v.string(),
  name: v.string(),
  lastName: v.optional(v.nullable(v.string())),
  birthDate: v.string(),
  age: v.number(),
  gender: knownValue(GENDERS),
  bio: v.string(),
  photos: v.array(v.string()),
  location: v.object({ latitude: v.number(), longitude: v.number(), city: v.optional(v.nullable(v.string())) }),
  verified: v.boolean(),
  active: v.boolean(),
  gym: GymViewSchema,
  training: TrainingViewSchema,
  health: v.optional(v.nullable(HealthViewSchema)),
  preferences: v.object({
    gender_preference: v.fallback(v.picklist(GENDER_PREFERENCES), DEFAULT_GENDER_PREFERENCE),
    age_range: v.object({ min: v.number(), max: v.number() }),
    distance: v.number(),
    music: v.optional(v.boolean()),
    groupClasses: v.optional(v.boolean()),
    personalTraining: v.optional(v.boolean()),
  }),
  stats: v.optional(v.nullable(StatsViewSchema)),
  social: v.optional(v.nullable(SocialViewSchema)),
});
export type OwnProfile = v.InferOutput<typeof OwnProfileSchema>;

/**
 * Another user's profile as the deck, matches and the profile modal see it. No coordinates, no
 * birth date, no preferences, no phone or e-mail: only the city, a bucketed distance text and the
 * compatibility. Parsing anything through it drops every other key.
 */
export const PublicProfileSchema = v.object({
  id: v.string(),
  userId: v.string(),
  name: v.string(),
  lastName: v.optional(v.nullable(v.string())),
  /** null when the person turned "showAgeRange" off (docs/decisions/0025). */
  age: v.nullable(v.number()),
  gender: knownValue(GENDERS),
  bio: v.string(),
  photos: v.array(v.string()),
  verified: v.boolean(),
  /** city null when the person turned "shareLocation" off, like the distance fields. */
  location: v.object({ city: v.optional(v.nullable(v.string())) }),
  /** "A menos de 1 km", "A 1 km", "A N km" (discovery/distance.ts); '' when not shared. */
  distanceText: v.string(),
  /** The same bucket as a number of kilometres, floor 1 (spec 001 §3); null when the viewer has no position. */
  distance: v.nullable(v.number()),
  compatibilityScore: v.number(),
  compatibilityReasons: v.array(v.string()),
  gym: v.optional(v.nullable(GymViewSchema)),
  training: v.optional(v.nullable(TrainingViewSchema)),
  health: v.optional(v.nullable(HealthViewSchema)),
  stats: v.optional(v.nullable(StatsViewSchema)),
  social: v.optional(v.nullable(SocialViewSchema)),
});
export type PublicProfile = v.InferOutput<typeof PublicProfileSchema>;

/** Profile responses report success and include the profile (spec 001 §5). */
export const OwnProfileResponseSchema = v.object({ success: v.literal(true), profile: OwnProfileSchema });
export type OwnProfileResponse = v.InferOutput<typeof OwnProfileResponseSchema>;

export const PublicProfileResponseSchema = v.object({ success: v.literal(true), profile: PublicProfileSchema });
export type PublicProfileResponse = v.InferOutput<typeof PublicProfileResponseSchema>;

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
  return v.object(personalEntries(now), objectMessage(M.invalidProfile, PERSONAL_MISSING));
}

/** Step 2, Información del Gimnasio: gym name and training schedules. */
export const GymStepSchema = v.object({ gym: GymSchema }, objectMessage(M.invalidProfile, { gym: M.gymName }));

/** Step 3, Preferencias de Entrenamiento: the training block and the partner preferences. */
export const TrainingStepSchema = v.object(
  { training: TrainingSchema, preferences: v.optional(PreferencesSchema, {}) },
  objectMessage(M.invalidProfile, { training: M.sportsRequired }),
);

/** Step 4, Información Adicional y Fotos: health, the social links and the photo files picked (1 to 6). */
export const AdditionalStepSchema = v.object(
  {
    health: v.optional(HealthSchema),
    social: v.optional(v.nullable(SocialSchema)),
    photos: v.pipe(
      v.array(v.unknown(), M.photosRequired),
      v.minLength(MIN_PHOTOS, M.photosRequired),
      v.maxLength(MAX_PHOTOS, M.photosMax),
    ),
  },
  objectMessage(M.invalidProfile, { photos: M.photosRequired }),
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
  if (!(PHOTO_MIME_TYPES as readonly string[]).includes(file.type)) return M.photoFormat;
  if (!(file.size > 0)) return M.photoInvalid;
  if (file.size > MAX_PHOTO_BYTES) return M.photoTooLarge;
  return null;
}
