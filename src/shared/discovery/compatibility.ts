/**
 * The "% Entreno" of two profiles, from what both of them say, and the Spanish reasons behind it.
 * The spec leaves the formula to the server (spec 001 §9); this is ours.
 *
 * Each factor is a similarity in [0, 1] multiplied by its weight; the weights sum to 100, and the
 * shown percentage is a strictly increasing curve of that sum (`scoreOfPoints`). A factor one of the two profiles says nothing about contributes 0:
 * silence is not agreement, so sparse profiles do not float to the top. Every factor is
 * symmetric, so compatibility(a, b) equals compatibility(b, a), reasons included.
 */
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  EXPERIENCE_LEVELS,
  FREQUENCY_MAX_DAYS,
  FREQUENCY_MIN_DAYS,
  GOALS,
  MOTIVATION_OPTIONS,
  MOTIVATIONS,
  optionLabel,
  SOCIAL_PREFERENCES,
  SPORTS,
  TRAINING_SCHEDULES,
} from '../profile/options.ts';
import { lowerFirst, PART_OF_DAY, shortList, slotPhrase, spanishList } from './compatibility-wording.ts';

export { spanishList } from './compatibility-wording.ts';

/** What the score reads from a profile; every part may be missing. */
export interface CompatibilityProfile {
  readonly gym?: {
    readonly name?: string | null;
    readonly trainingSchedule?: readonly string[] | null;
  } | null;
  readonly training?: {
    readonly sports?: readonly string[] | null;
    readonly goals?: readonly string[] | null;
    readonly motivation?: readonly string[] | null;
    readonly availability?: readonly string[] | null;
    readonly experienceLevel?: string | null;
    readonly frequency?: number | null;
    readonly commitment_level?: string | null;
    readonly socialPreference?: string | null;
  } | null;
}

/** One factor of the score: what it adds, out of how much, and the Spanish sentence that explains it. */
export interface CompatibilityFactor {
  readonly factor: CompatibilityFactorName;
  /** weight × similarity, unrounded; 0 when the factor did not contribute. */
  readonly points: number;
  /** The factor's weight: the points of a perfect match. */
  readonly max: number;
  /** For the option-list factors: the options both chose, in the option list's order. */
  readonly shared?: readonly string[];
  /** A short Spanish sentence, or null when the factor is not worth saying (or adds nothing). */
  readonly reason: string | null;
}

export interface Compatibility {
  /** 0 to 100, whole: scoreOfPoints of the sum of the factors' points (the calibrated percentage). */
  readonly score: number;
  /** Every factor, strongest first (points descending, then the order of COMPATIBILITY_WEIGHTS). */
  readonly factors: readonly CompatibilityFactor[];
  /** Up to 3 short Spanish phrases: the reasons of the strongest contributing factors. */
  readonly reasons: readonly string[];
}

/**
 * Points per factor (sum 100; the reasoning is in docs/decisions/0023). When two people can meet
 * weighs most: a partner whose week never crosses yours is no partner. Then what they would do
 * together (sports), where (the same gym is a partner within reach), what they train for, and how
 * alike they train.
 */
export const COMPATIBILITY_WEIGHTS = {
  schedule: 24, // SCHEDULE_WEIGHTS: the week's slots both can do, and the parts of the day both train in
  sports: 22, // Jaccard of the sports
  sameGym: 12, // same gym name, ignoring case, accents and punctuation
  goals: 10, // Jaccard of the goals
  experience: 8, // same level 1, next level 0.5, two apart 0
  frequency: 6, // 1 − |days a − days b| / 6
  commitment: 6, // same level 1, next level 0.5, two apart 0
  motivation: 6, // Jaccard of the motivations
  socialPreference: 6, // same 1, one of them "both" 0.75, training only vs social after 0
} as const;

/**
 * The schedule factor's two terms (sum COMPATIBILITY_WEIGHTS.schedule). `slots`: Jaccard of the
 * "Lunes mañana"… availability slots. `dayParts`: Jaccard of the parts of the day each one trains
 * in — their preferred schedule (Mañana / Tarde / Noche) together with the parts of their
 * availability slots — so one person's preferred schedule meets the other's slots, both ways.
 */
export const SCHEDULE_WEIGHTS = { slots: 14, dayParts: 10 } as const;

export const MAX_COMPATIBILITY_REASONS = 3;

export type CompatibilityFactorName = keyof typeof COMPATIBILITY_WEIGHTS;

const FACTOR_NAMES = Object.keys(COMPATIBILITY_WEIGHTS) as CompatibilityFactorName[];

// ---------------------------------------------------------------------------------------------
// Features: what the score reads, as numbers (the same values the deck index and the SQL columns keep)

/**
 * A profile as the score sees it: each option list as a bitmask over its option list (bit i =
 * option i; values outside the list are ignored), each ladder as its rank (-1 unknown), the
 * frequency in days (0 unknown), the social preference as its index in SOCIAL_PREFERENCES
 * (-1 unknown) and the normalized gym name ('' none).
 */
export interface CompatibilityFeatures {
  sports: number;
  availability: number;
  goals: number;
  schedule: number;
  motivation: number;
  experience: number;
  commitment: number;
  frequency: number;
  social: number;
  gym: string;
}

/** Bit i is set when the list holds option i (every list has at most 14 options: an int is enough). */
export function optionMask(values: readonly string[] | null | undefined, options: readonly string[]): number {
  let mask = 0;
  for (const value of values ?? []) {
    const index = options.indexOf(value);
    if (index >= 0) mask |= 1 << index;
  }
  return mask;
}

function rankOf(levels: readonly string[], value: string | null | undefined): number {
  return value ? levels.indexOf(value) : -1;
}

function validFrequency(days: number | null | undefined): days is number {
  return typeof days === 'number' && Number.isInteger(days) && days >= FREQUENCY_MIN_DAYS && days <= FREQUENCY_MAX_DAYS;
}

/**
 * The features of each profile object already scored (a deck page scores one viewer against ten
 * candidates). Profiles are read-only values here: an edited profile is a new object.
 */
const featuresCache = new WeakMap<CompatibilityProfile, CompatibilityFeatures>();

export function compatibilityFeatures(profile: CompatibilityProfile): CompatibilityFeatures {
  let features = featuresCache.get(profile);
  if (!features) {
    features = featuresOf(profile);
    featuresCache.set(profile, features);
  }
  return features;
}

function featuresOf(profile: CompatibilityProfile): CompatibilityFeatures {
  const training = profile.training;
  const frequency = training?.frequency;
  return {
    sports: optionMask(training?.sports, SPORTS),
    availability: optionMask(training?.availability, AVAILABILITY_SLOTS),
    goals: optionMask(training?.goals, GOALS),
    schedule: optionMask(profile.gym?.trainingSchedule, TRAINING_SCHEDULES),
    motivation: optionMask(training?.motivation, MOTIVATIONS),
    experience: rankOf(EXPERIENCE_LEVELS, training?.experienceLevel),
    commitment: rankOf(COMMITMENT_LEVELS, training?.commitment_level),
    frequency: validFrequency(frequency) ? frequency : 0,
    social: rankOf(SOCIAL_PREFERENCES, training?.socialPreference),
    gym: normalizeGymName(profile.gym?.name ?? ''),
  };
}

/** Set bits of a 32-bit integer. */
export function bitCount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Jaccard similarity of two option bitmasks (0 when both are empty). */
export function maskJaccard(a: number, b: number): number {
  const union = a | b;
  return union === 0 ? 0 : bitCount(a & b) / bitCount(union);
}

/** Three-step ladders: 1 for the same level, 0.5 next to it, 0 two apart or unknown. */
export function ladderSimilarity(a: number, b: number): number {
  if (a < 0 || b < 0) return 0;
  return Math.max(0, 1 - Math.abs(a - b) / 2);
}

export function frequencySimilarity(a: number, b: number): number {
  if (a === 0 || b === 0) return 0;
  return 1 - Math.abs(a - b) / (FREQUENCY_MAX_DAYS - FREQUENCY_MIN_DAYS);
}

const SOCIAL_BOTH = SOCIAL_PREFERENCES.indexOf('both');

export function socialSimilarity(a: number, b: number): number {
  if (a < 0 || b < 0) return 0;
  if (a === b) return 1;
  return a === SOCIAL_BOTH || b === SOCIAL_BOTH ? 0.75 : 0;
}

export function sameGymSimilarity(a: string, b: string): number {
  return a !== '' && a === b ? 1 : 0;
}

/** Availability slots in the morning and in the afternoon (bit i = AVAILABILITY_SLOTS[i]). */
export const MORNING_SLOTS_MASK = optionMask(
  AVAILABILITY_SLOTS.filter((slot) => slot.endsWith(' mañana')),
  AVAILABILITY_SLOTS,
);
export const AFTERNOON_SLOTS_MASK = optionMask(
  AVAILABILITY_SLOTS.filter((slot) => slot.endsWith(' tarde')),
  AVAILABILITY_SLOTS,
);
const MORNING_BIT = 1 << TRAINING_SCHEDULES.indexOf('Mañana');
const AFTERNOON_BIT = 1 << TRAINING_SCHEDULES.indexOf('Tarde');

/**
 * The parts of the day someone trains in, as a TRAINING_SCHEDULES mask: the preferred schedule
 * plus the part of every availability slot ("Lunes tarde" counts as Tarde).
 */
export function dayPartsMask(schedule: number, availability: number): number {
  return (
    schedule |
    ((availability & MORNING_SLOTS_MASK) !== 0 ? MORNING_BIT : 0) |
    ((availability & AFTERNOON_SLOTS_MASK) !== 0 ? AFTERNOON_BIT : 0)
  );
}

/**
 * The unrounded score: each factor's weight × similarity, summed. No allocation: the deck index calls it for every candidate in reach, and
 * compatibility() takes its score from it, so the ranking and the shown "% Entreno" are one
 * computation.
 */
export function compatibilityPoints(a: CompatibilityFeatures, b: CompatibilityFeatures): number {
  const w = COMPATIBILITY_WEIGHTS;
  // The terms' order is the SQL deck query's (float addition is not associative: the two must
  // round alike), not the weights' order.
  let total = 0;
  total += w.sports * maskJaccard(a.sports, b.sports);
  total += SCHEDULE_WEIGHTS.slots * maskJaccard(a.availability, b.availability);
  total += w.sameGym * sameGymSimilarity(a.gym, b.gym);
  total += w.goals * maskJaccard(a.goals, b.goals);
  total +=
    SCHEDULE_WEIGHTS.dayParts *
    maskJaccard(dayPartsMask(a.schedule, a.availability), dayPartsMask(b.schedule, b.availability));
  total += w.experience * ladderSimilarity(a.experience, b.experience);
  total += w.frequency * frequencySimilarity(a.frequency, b.frequency);
  total += w.commitment * ladderSimilarity(a.commitment, b.commitment);
  total += w.motivation * maskJaccard(a.motivation, b.motivation);
  total += w.socialPreference * socialSimilarity(a.social, b.social);
  return total;
}

/**
 * The shown "% Entreno" of a sum of points: 100 · (1 − (1 − points/100)²), rounded, 0-100
 * (docs/decisions/0050). The points are a scale where a perfect match of every factor is 100,
 * which two real people almost never reach (Jaccard of two lists of three sports sharing one is
 * 0.2): on the demo population a pair sharing gym, a sport, a goal and a time slot summed ~51
 * points, and 51 % read as a poor match beside four reasons. The curve lifts the middle (51 → 76,
 * 36 → 59) and keeps the ends (0 → 0, 100 → 100); it is strictly increasing, so the deck's order is
 * the order of the points. The SQL fallback computes the same expression in the same float8 steps
 * (sql-ranking-repository.ts): products, a quotient and differences are exactly rounded in both.
 */
export function scoreOfPoints(points: number): number {
  const missing = 100 - points;
  return Math.min(100, Math.max(0, Math.round(100 - (missing * missing) / 100)));
}

/** The "% Entreno" of two feature sets: whole, 0-100. */
export function compatibilityScore(a: CompatibilityFeatures, b: CompatibilityFeatures): number {
  return scoreOfPoints(compatibilityPoints(a, b));
}

// ---------------------------------------------------------------------------------------------
// Reasons

/** The options whose bit is set in `mask`, in the list's order. */
function optionsIn(mask: number, options: readonly string[]): string[] {
  return options.filter((_, index) => (mask & (1 << index)) !== 0);
}

/** Lower case, no accents, no punctuation, single spaces: "Gimnasio  Altafit-Chamberí" = "gimnasio altafit chamberi". */
export function normalizeGymName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('es-ES')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// ---------------------------------------------------------------------------------------------
// Factors: the similarity (the same primitive compatibilityPoints uses) and the sentence

type Side = CompatibilityFeatures;

interface FactorResult {
  readonly similarity: number;
  readonly shared?: readonly string[];
  readonly reason: string | null;
}

function sports(a: Side, b: Side): FactorResult {
  const shared = optionsIn(a.sports & b.sports, SPORTS);
  const similarity = maskJaccard(a.sports, b.sports);
  if (shared.length === 0) return { similarity, shared, reason: null };
  const reason =
    shared.length === 1
      ? `Compartís un deporte: ${shared[0]}`
      : `Compartís ${shared.length} deportes: ${shortList(shared)}`;
  return { similarity, shared, reason };
}

function goals(a: Side, b: Side): FactorResult {
  const shared = optionsIn(a.goals & b.goals, GOALS);
  const similarity = maskJaccard(a.goals, b.goals);
  if (shared.length === 0) return { similarity, shared, reason: null };
  const names = shared.map(lowerFirst);
  const reason =
    shared.length === 1
      ? `Tenéis el mismo objetivo: ${names[0]}`
      : `Compartís ${shared.length} objetivos: ${shortList(names)}`;
  return { similarity, shared, reason };
}

function motivation(a: Side, b: Side): FactorResult {
  const shared = optionsIn(a.motivation & b.motivation, MOTIVATIONS);
  const similarity = maskJaccard(a.motivation, b.motivation);
  if (shared.length === 0) return { similarity, shared, reason: null };
  const names = shared.map((value) => optionLabel(MOTIVATION_OPTIONS, value).toLocaleLowerCase('es-ES'));
  return { similarity, shared, reason: `Os motiva lo mismo: ${shortList(names)}` };
}

/** Up to this many shared slots are named day by day; more are counted. */
const NAMED_SLOTS_MAX = 3;

function schedule(a: Side, b: Side): FactorResult {
  const sharedSlots = optionsIn(a.availability & b.availability, AVAILABILITY_SLOTS);
  const sharedParts = optionsIn(
    dayPartsMask(a.schedule, a.availability) & dayPartsMask(b.schedule, b.availability),
    TRAINING_SCHEDULES,
  );
  const { slots, dayParts } = SCHEDULE_WEIGHTS;
  const similarity =
    (slots * maskJaccard(a.availability, b.availability) +
      dayParts * maskJaccard(dayPartsMask(a.schedule, a.availability), dayPartsMask(b.schedule, b.availability))) /
    COMPATIBILITY_WEIGHTS.schedule;
  const shared = [...sharedSlots, ...sharedParts];
  if (sharedSlots.length > 0 && sharedSlots.length <= NAMED_SLOTS_MAX) {
    const named = slotPhrase(sharedSlots);
    if (named) return { similarity, shared, reason: `Coincidís ${named}` };
  }
  const parts = sharedParts.map((part) => PART_OF_DAY[part]).filter((part) => part !== undefined);
  if (parts.length === 0) return { similarity, shared, reason: null };
  const count = sharedSlots.length;
  const slotCount = count === 0 ? '' : ` (${count} ${count === 1 ? 'franja' : 'franjas'} en común)`;
  return { similarity, shared, reason: `Los dos entrenáis ${spanishList(parts)}${slotCount}` };
}

function experience(a: Side, b: Side): FactorResult {
  const similarity = ladderSimilarity(a.experience, b.experience);
  if (similarity === 0) return { similarity, reason: null };
  return { similarity, reason: similarity === 1 ? 'Mismo nivel de experiencia' : 'Nivel de experiencia parecido' };
}

function commitment(a: Side, b: Side): FactorResult {
  const similarity = ladderSimilarity(a.commitment, b.commitment);
  return { similarity, reason: similarity === 1 ? 'Mismo nivel de compromiso' : null };
}

function frequency(a: Side, b: Side): FactorResult {
  const x = a.frequency;
  const y = b.frequency;
  const similarity = frequencySimilarity(x, y);
  if (similarity === 0) return { similarity, reason: null };
  if (x === y) return { similarity, reason: `Los dos entrenáis ${x} ${x === 1 ? 'día' : 'días'} por semana` };
  return { similarity, reason: Math.abs(x - y) <= 1 ? 'Entrenáis con una frecuencia parecida' : null };
}

const SAME_SOCIAL_PREFERENCE_REASON: Readonly<Record<string, string>> = {
  training_only: 'Los dos buscáis solo entrenar',
  social_after: 'A los dos os gusta socializar después de entrenar',
  both: 'Los dos os apuntáis a entrenar y a socializar',
};

function socialPreference(a: Side, b: Side): FactorResult {
  const similarity = socialSimilarity(a.social, b.social);
  const same = similarity === 1 ? SOCIAL_PREFERENCES[a.social] : undefined;
  return { similarity, reason: same ? (SAME_SOCIAL_PREFERENCE_REASON[same] ?? null) : null };
}

function sameGym(a: Side, b: Side): FactorResult {
  const similarity = sameGymSimilarity(a.gym, b.gym);
  return { similarity, reason: similarity === 1 ? 'Entrenáis en el mismo gimnasio' : null };
}

const FACTORS: Readonly<Record<CompatibilityFactorName, (a: Side, b: Side) => FactorResult>> = {
  schedule,
  sports,
  sameGym,
  goals,
  experience,
  frequency,
  commitment,
  motivation,
  socialPreference,
};

/**
 * The compatibility of two profiles: symmetric, deterministic, 0-100, with every factor's
 * contribution strongest first and the Spanish reasons of the strongest ones. The score is
 * compatibilityScore of the two feature sets — the same function the deck ranks with — and
 * equals scoreOfPoints of the sum of the factors' points.
 */
export function compatibility(a: CompatibilityProfile, b: CompatibilityProfile): Compatibility {
  const left = compatibilityFeatures(a);
  const right = compatibilityFeatures(b);
  const factors = FACTOR_NAMES.map((factor, order) => {
    const { similarity, shared, reason } = FACTORS[factor](left, right);
    const max = COMPATIBILITY_WEIGHTS[factor];
    const points = max * similarity;
    const result: CompatibilityFactor = {
      factor,
      points,
      max,
      ...(shared ? { shared } : {}),
      reason: points > 0 ? reason : null,
    };
    return { result, order };
  })
    .sort((x, y) => y.result.points - x.result.points || x.order - y.order)
    .map(({ result }) => result);
  const reasons = factors
    .flatMap((factor) => (factor.reason ? [factor.reason] : []))
    .slice(0, MAX_COMPATIBILITY_REASONS);
  return { score: compatibilityScore(left, right), factors, reasons };
}
