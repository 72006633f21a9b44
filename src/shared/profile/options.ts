/**
 * The option lists and limits of a profile (spec 001 §3 and §9).
 *
 * Where the spec names an option only by its Spanish text (sports, goals, schedules, availability…),
 * that text is also the stored value, exactly as the spec's payloads carry it ("Lunes mañana").
 * Where the spec gives a code (motivation `salud`, experience `beginner`…), the code is the value
 * and the Spanish text is its label. Lists the spec leaves incomplete are completed by us and marked.
 */

/** One choice of a select, chip group or checkbox list. */
export interface Option<V extends string = string> {
  readonly value: V;
  readonly label: string;
}

function selfLabelled<const V extends string>(values: readonly V[]): readonly Option<V>[] {
  return values.map((value) => ({ value, label: value }));
}

function labelled<const V extends string>(labels: Readonly<Record<V, string>>): readonly Option<V>[] {
  return (Object.keys(labels) as V[]).map((value) => ({ value, label: labels[value] }));
}

/** The Spanish label of a value, or the value itself when it is not in the list. */
export function optionLabel<V extends string>(options: readonly Option<V>[], value: string): string {
  return options.find((option) => option.value === value)?.label ?? value;
}

// ---------------------------------------------------------------------------------------------
// Lists given in full by the spec

export const SPORTS = [
  'Musculación',
  'CrossFit',
  'Calistenia',
  'Yoga',
  'Cardio',
  'HIIT',
  'Spinning',
  'Pilates',
  'Boxeo',
  'Natación',
  'Running',
  'Zumba',
] as const;
export type Sport = (typeof SPORTS)[number];
export const SPORT_OPTIONS = selfLabelled(SPORTS);

export const GOALS = [
  'Ganar músculo',
  'Perder peso',
  'Tonificar',
  'Mejorar resistencia',
  'Aumentar fuerza',
  'Flexibilidad',
  'Preparar competición',
  'Salud general',
  'Rehabilitación',
  'Rendimiento deportivo',
] as const;
export type Goal = (typeof GOALS)[number];
export const GOAL_OPTIONS = selfLabelled(GOALS);

export const MOTIVATION_LABELS = {
  salud: 'Salud',
  estetica: 'Estética',
  estres: 'Estrés',
  rendimiento: 'Rendimiento',
  social: 'Social',
  superacion: 'Superación',
} as const;
export type Motivation = keyof typeof MOTIVATION_LABELS;
export const MOTIVATIONS = Object.keys(MOTIVATION_LABELS) as readonly Motivation[];
export const MOTIVATION_OPTIONS = labelled(MOTIVATION_LABELS);

export const TRAINING_SCHEDULES = ['Mañana', 'Tarde', 'Noche'] as const;
export type TrainingSchedule = (typeof TRAINING_SCHEDULES)[number];
export const TRAINING_SCHEDULE_OPTIONS = selfLabelled(TRAINING_SCHEDULES);

export const WEEK_DAYS = ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export const DAY_PARTS = ['mañana', 'tarde'] as const;
export type DayPart = (typeof DAY_PARTS)[number];
/** An availability slot: a day plus "mañana" or "tarde", for example "Lunes mañana". */
export type AvailabilitySlot = `${WeekDay} ${DayPart}`;
export const AVAILABILITY_SLOTS: readonly AvailabilitySlot[] = WEEK_DAYS.flatMap((day) =>
  DAY_PARTS.map((part): AvailabilitySlot => `${day} ${part}`),
);
export const AVAILABILITY_OPTIONS = selfLabelled(AVAILABILITY_SLOTS);

export const MEMBERSHIP_TYPE_LABELS = {
  free: 'Gratuita',
  monthly: 'Mensual',
  annual: 'Anual',
  premium: 'Premium',
} as const;
export type MembershipType = keyof typeof MEMBERSHIP_TYPE_LABELS;
export const MEMBERSHIP_TYPES = Object.keys(MEMBERSHIP_TYPE_LABELS) as readonly MembershipType[];
export const MEMBERSHIP_TYPE_OPTIONS = labelled(MEMBERSHIP_TYPE_LABELS);
export const DEFAULT_MEMBERSHIP_TYPE: MembershipType = 'free';

export const EXPERIENCE_LEVEL_LABELS = {
  beginner: 'Principiante',
  intermediate: 'Intermedio',
  advanced: 'Avanzado',
} as const;
export type ExperienceLevel = keyof typeof EXPERIENCE_LEVEL_LABELS;
/** Ordered from least to most experienced: the compatibility score uses the order. */
export const EXPERIENCE_LEVELS = Object.keys(EXPERIENCE_LEVEL_LABELS) as readonly ExperienceLevel[];
export const EXPERIENCE_LEVEL_OPTIONS = labelled(EXPERIENCE_LEVEL_LABELS);

export const COMMITMENT_LEVEL_LABELS = {
  flexible: 'Flexible',
  moderate: 'Moderado',
  strict: 'Estricto',
} as const;
export type CommitmentLevel = keyof typeof COMMITMENT_LEVEL_LABELS;
/** Ordered from least to most committed: the compatibility score uses the order. */
export const COMMITMENT_LEVELS = Object.keys(COMMITMENT_LEVEL_LABELS) as readonly CommitmentLevel[];
export const COMMITMENT_LEVEL_OPTIONS = labelled(COMMITMENT_LEVEL_LABELS);

export const SOCIAL_PREFERENCE_LABELS = {
  training_only: 'Solo entrenar',
  social_after: 'Entrenar y socializar después',
  both: 'Ambas opciones',
} as const;
export type SocialPreference = keyof typeof SOCIAL_PREFERENCE_LABELS;
export const SOCIAL_PREFERENCES = Object.keys(SOCIAL_PREFERENCE_LABELS) as readonly SocialPreference[];
export const SOCIAL_PREFERENCE_OPTIONS = labelled(SOCIAL_PREFERENCE_LABELS);

export const GENDER_LABELS = {
  male: 'Hombre',
  female: 'Mujer',
  'non-binary': 'No binario',
} as const;
export type Gender = keyof typeof GENDER_LABELS;
export const GENDERS = Object.keys(GENDER_LABELS) as readonly Gender[];
export const GENDER_OPTIONS = labelled(GENDER_LABELS);

export const GENDER_PREFERENCE_LABELS = {
  male: 'Hombres',
  female: 'Mujeres',
  both: 'Ambos',
} as const;
export type GenderPreference = keyof typeof GENDER_PREFERENCE_LABELS;
export const GENDER_PREFERENCES = Object.keys(GENDER_PREFERENCE_LABELS) as readonly GenderPreference[];
export const GENDER_PREFERENCE_OPTIONS = labelled(GENDER_PREFERENCE_LABELS);
/** The spec gives no default; "Ambos" hides nobody until the user narrows it. */
export const DEFAULT_GENDER_PREFERENCE: GenderPreference = 'both';

// ---------------------------------------------------------------------------------------------
// Lists the spec shows only in part ("full list not shown"): its examples first, then ours.

export const SPECIALTIES = [
  'Personal Trainer',
  'CrossFit Coach',
  'Instructor de Yoga',
  'Nutrición deportiva',
  'Rehabilitación física',
  // ours
  'Instructor de Pilates',
  'Preparación física',
  'Entrenamiento funcional',
] as const;
export type Specialty = (typeof SPECIALTIES)[number];
export const SPECIALTY_OPTIONS = selfLabelled(SPECIALTIES);

export const SUPPLEMENTS = [
  'Proteína',
  'Creatina',
  'BCAAs',
  'Omega 3',
  'ZMA',
  // ours
  'Multivitamínico',
  'Cafeína',
  'Beta-alanina',
  'Glutamina',
  'Pre-entreno',
  'Magnesio',
  'Vitamina D',
] as const;
export type Supplement = (typeof SUPPLEMENTS)[number];
export const SUPPLEMENT_OPTIONS = selfLabelled(SUPPLEMENTS);

export const INJURIES = [
  'Lesión de rodilla',
  'Hernia discal',
  'Post operatorio',
  // ours
  'Lesión de hombro',
  'Lesión de tobillo',
  'Lesión de muñeca',
  'Lesión de cadera',
  'Dolor lumbar',
  'Tendinitis',
  'Lesión muscular',
] as const;
export type Injury = (typeof INJURIES)[number];
export const INJURY_OPTIONS = selfLabelled(INJURIES);

export const DIETARY_PREFERENCES = [
  'Vegano',
  'Keto',
  'Sin gluten',
  // ours
  'Vegetariano',
  'Flexitariano',
  'Paleo',
  'Sin lactosa',
  'Dieta mediterránea',
  'Ayuno intermitente',
  'Bajo en carbohidratos',
] as const;
export type DietaryPreference = (typeof DIETARY_PREFERENCES)[number];
export const DIETARY_PREFERENCE_OPTIONS = selfLabelled(DIETARY_PREFERENCES);

// ---------------------------------------------------------------------------------------------
// Limits and defaults (spec 001 §5 and §9)

export const MAX_PHOTOS = 6;
export const MIN_PHOTOS = 1;
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;
export const PHOTO_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;

export const NAME_MIN = 1;
export const NAME_MAX = 20;
export const LAST_NAME_MIN = 1;
export const LAST_NAME_MAX = 30;
export const BIO_MIN = 10;
export const BIO_MAX = 500;
export const GYM_NAME_MIN = 3;
export const GYM_NAME_MAX = 50;
/** The gym search asks for suggestions from this many characters on. */
export const GYM_SEARCH_MIN_CHARS = 3;

export const MIN_AGE = 18;
/** The spec's Profile.age default; the server always derives age from birthDate. */
export const DEFAULT_AGE = 18;
/** The birth-date picker allows nothing earlier. */
export const MIN_BIRTH_DATE = '1900-01-01';

export const AGE_RANGE_MIN = 18;
export const AGE_RANGE_MAX = 99;
export const DEFAULT_DISTANCE_KM = 50;
export const DISTANCE_MIN_KM = 1;
/** Ours: the spec sets only a minimum; the upper bound keeps the input sane (mainland Spain is ~1,000 km across). */
export const DISTANCE_MAX_KM = 1000;

export const HEIGHT_MIN_CM = 100;
export const HEIGHT_MAX_CM = 250;
export const DEFAULT_HEIGHT_CM = 170;
export const WEIGHT_MIN_KG = 30;
export const WEIGHT_MAX_KG = 250;
export const DEFAULT_WEIGHT_KG = 70;
export const FREQUENCY_MIN_DAYS = 1;
export const FREQUENCY_MAX_DAYS = 7;
export const DEFAULT_FREQUENCY_DAYS = 3;

/** Settings → search preferences slider (local settings, spec 001 §3). */
export const SEARCH_DISTANCE_SLIDER_MIN_KM = 1;
export const SEARCH_DISTANCE_SLIDER_MAX_KM = 100;
export const SEARCH_DISTANCE_SLIDER_DEFAULT_KM = 25;

export const SWIPE_THRESHOLD_PX = 50;
/** Fetch the next page of suggestions when this many or fewer remain in the deck. */
export const PREFETCH_THRESHOLD = 3;
export const RECOMMENDED_PAGE_SIZE = 10;
export const RECENT_MATCH_DAYS = 7;

/** Where the wizard places a user whose browser gives no position (spec 001 §4: about 40.42, -3.70). */
export const DEFAULT_LOCATION = { latitude: 40.42, longitude: -3.7, city: 'Madrid' } as const;

/** The longest handle each network allows (Instagram's own limit; Spotify user ids; Strava athlete numbers). */
export const SOCIAL_HANDLE_MAX = { instagram: 30, spotify: 30, strava: 12 } as const;
