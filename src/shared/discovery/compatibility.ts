/**
 * The "% Entreno" of two profiles, from what both of them say, and the Spanish reasons behind it.
 * The spec leaves the formula to the server (spec 001 §9); this is ours.
 *
 * Each factor is a similarity in [0, 1] multiplied by its weight; the weights sum to 100, so the
 * score is a whole percentage. A factor one of the two profiles says nothing about contributes 0:
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
  SPORTS,
  TRAINING_SCHEDULES,
  WEEK_DAYS,
} from '../profile/options.ts';

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

export interface Compatibility {
  /** 0 to 100, whole. */
  readonly score: number;
  /** Up to 3 short Spanish phrases, the largest contributions first. */
  readonly reasons: readonly string[];
}

/**
 * Points per factor (sum 100). Sports weigh most: they are what two people would do together.
 * Then when they can meet (availability slots, schedules) and where (the same gym is a partner
 * within reach), then what they train for, then how alike they train.
 */
export const COMPATIBILITY_WEIGHTS = {
  sports: 22, // Jaccard of the sports
  availability: 14, // Jaccard of the "Lunes mañana"… slots
  sameGym: 12, // same gym name, ignoring case, accents and punctuation
  goals: 10, // Jaccard of the goals
  trainingSchedule: 10, // Jaccard of Mañana / Tarde / Noche
  experience: 8, // same level 1, next level 0.5, two apart 0
  frequency: 6, // 1 − |days a − days b| / 6
  commitment: 6, // same level 1, next level 0.5, two apart 0
  motivation: 6, // Jaccard of the motivations
  socialPreference: 6, // same 1, one of them "both" 0.75, training only vs social after 0
} as const;

export const MAX_COMPATIBILITY_REASONS = 3;

type Factor = keyof typeof COMPATIBILITY_WEIGHTS;

interface FactorResult {
  readonly similarity: number;
  readonly reason: string | null;
}

const NONE: FactorResult = { similarity: 0, reason: null };

// ---------------------------------------------------------------------------------------------
// Sets, ordered by the option lists so the shared items read the same from either side

function sharedItems(
  a: readonly string[] | null | undefined,
  b: readonly string[] | null | undefined,
  order: readonly string[],
) {
  const left = new Set(a ?? []);
  const right = new Set(b ?? []);
  const shared = [...left].filter((item) => right.has(item));
  const union = new Set([...left, ...right]).size;
  const rank = (item: string) => {
    const index = order.indexOf(item);
    return index === -1 ? order.length : index;
  };
  shared.sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  return { shared, jaccard: union === 0 ? 0 : shared.length / union };
}

/** "A", "A y B", "A, B y C"; "e" instead of "y" before an /i/ sound ("Yoga e Instructor"). */
export function spanishList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  const last = items[items.length - 1] ?? '';
  const conjunction = /^h?[ií](?![aeiouáéíóú])/i.test(last) ? 'e' : 'y';
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${last}`;
}

/** At most three items named, the rest counted: "A, B, C y 2 más". */
function shortList(items: readonly string[]): string {
  if (items.length <= 3) return spanishList(items);
  return `${items.slice(0, 3).join(', ')} y ${items.length - 3} más`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLocaleLowerCase('es-ES') + text.slice(1);
}

function ladder(levels: readonly string[], a: string | null | undefined, b: string | null | undefined): number | null {
  const i = a ? levels.indexOf(a) : -1;
  const j = b ? levels.indexOf(b) : -1;
  if (i === -1 || j === -1) return null;
  return Math.max(0, 1 - Math.abs(i - j) / (levels.length - 1));
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
// Factors

function sports(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const { shared, jaccard } = sharedItems(a.training?.sports, b.training?.sports, SPORTS);
  if (shared.length === 0) return NONE;
  const reason =
    shared.length === 1
      ? `Compartís un deporte: ${shared[0]}`
      : `Compartís ${shared.length} deportes: ${shortList(shared)}`;
  return { similarity: jaccard, reason };
}

function goals(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const { shared, jaccard } = sharedItems(a.training?.goals, b.training?.goals, GOALS);
  if (shared.length === 0) return NONE;
  const names = shared.map(lowerFirst);
  const reason =
    shared.length === 1
      ? `Tenéis el mismo objetivo: ${names[0]}`
      : `Compartís ${shared.length} objetivos: ${shortList(names)}`;
  return { similarity: jaccard, reason };
}

function motivation(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const { shared, jaccard } = sharedItems(a.training?.motivation, b.training?.motivation, MOTIVATIONS);
  if (shared.length === 0) return NONE;
  const names = shared.map((value) => optionLabel(MOTIVATION_OPTIONS, value).toLocaleLowerCase('es-ES'));
  return { similarity: jaccard, reason: `Os motiva lo mismo: ${shortList(names)}` };
}

const PART_OF_DAY: Readonly<Record<string, string>> = {
  Mañana: 'por la mañana',
  Tarde: 'por la tarde',
  Noche: 'por la noche',
  mañana: 'por la mañana',
  tarde: 'por la tarde',
};

function trainingSchedule(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const { shared, jaccard } = sharedItems(a.gym?.trainingSchedule, b.gym?.trainingSchedule, TRAINING_SCHEDULES);
  const parts = shared.map((schedule) => PART_OF_DAY[schedule]).filter((part) => part !== undefined);
  if (parts.length === 0) return NONE;
  return { similarity: jaccard, reason: `Los dos entrenáis ${spanishList(parts)}` };
}

/** "los martes", "los sábados". */
function weekdayPlural(day: string): string {
  const lower = day.toLocaleLowerCase('es-ES');
  return lower.endsWith('s') ? lower : `${lower}s`;
}

function availability(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const { shared, jaccard } = sharedItems(a.training?.availability, b.training?.availability, AVAILABILITY_SLOTS);
  if (shared.length === 0) return NONE;
  if (shared.length > 3) return { similarity: jaccard, reason: `Coincidís en ${shared.length} franjas de la semana` };
  // Slots are ordered by day then part; name the days of each part together: "los lunes y martes por la tarde".
  const byPart = new Map<string, string[]>();
  for (const slot of shared) {
    const [day = '', part = ''] = slot.split(' ');
    if (!WEEK_DAYS.includes(day as (typeof WEEK_DAYS)[number]) || !PART_OF_DAY[part]) continue;
    byPart.set(part, [...(byPart.get(part) ?? []), weekdayPlural(day)]);
  }
  const phrases = [...byPart].map(([part, days]) => `los ${spanishList(days)} ${PART_OF_DAY[part]}`);
  if (phrases.length === 0) return { similarity: jaccard, reason: null };
  return { similarity: jaccard, reason: `Coincidís ${phrases.join(' y ')}` };
}

function experience(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const similarity = ladder(EXPERIENCE_LEVELS, a.training?.experienceLevel, b.training?.experienceLevel);
  if (similarity === null || similarity === 0) return NONE;
  return { similarity, reason: similarity === 1 ? 'Mismo nivel de experiencia' : 'Nivel de experiencia parecido' };
}

function commitment(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const similarity = ladder(COMMITMENT_LEVELS, a.training?.commitment_level, b.training?.commitment_level);
  if (similarity === null || similarity === 0) return NONE;
  return { similarity, reason: similarity === 1 ? 'Mismo nivel de compromiso' : null };
}

function validFrequency(days: number | null | undefined): days is number {
  return typeof days === 'number' && Number.isFinite(days) && days >= FREQUENCY_MIN_DAYS && days <= FREQUENCY_MAX_DAYS;
}

function frequency(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const x = a.training?.frequency;
  const y = b.training?.frequency;
  if (!validFrequency(x) || !validFrequency(y)) return NONE;
  const gap = Math.abs(x - y);
  const similarity = 1 - gap / (FREQUENCY_MAX_DAYS - FREQUENCY_MIN_DAYS);
  if (gap === 0) {
    return { similarity, reason: `Los dos entrenáis ${x} ${x === 1 ? 'día' : 'días'} por semana` };
  }
  return { similarity, reason: gap <= 1 ? 'Entrenáis con una frecuencia parecida' : null };
}

const SAME_SOCIAL_PREFERENCE_REASON: Readonly<Record<string, string>> = {
  training_only: 'Los dos buscáis solo entrenar',
  social_after: 'A los dos os gusta socializar después de entrenar',
  both: 'Los dos os apuntáis a entrenar y a socializar',
};

function socialPreference(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const x = a.training?.socialPreference;
  const y = b.training?.socialPreference;
  if (
    !x ||
    !y ||
    !Object.hasOwn(SAME_SOCIAL_PREFERENCE_REASON, x) ||
    !Object.hasOwn(SAME_SOCIAL_PREFERENCE_REASON, y)
  ) {
    return NONE;
  }
  if (x === y) return { similarity: 1, reason: SAME_SOCIAL_PREFERENCE_REASON[x] ?? null };
  if (x === 'both' || y === 'both') return { similarity: 0.75, reason: null };
  return NONE;
}

function sameGym(a: CompatibilityProfile, b: CompatibilityProfile): FactorResult {
  const x = normalizeGymName(a.gym?.name ?? '');
  const y = normalizeGymName(b.gym?.name ?? '');
  return x !== '' && x === y ? { similarity: 1, reason: 'Entrenáis en el mismo gimnasio' } : NONE;
}

const FACTORS: Readonly<Record<Factor, (a: CompatibilityProfile, b: CompatibilityProfile) => FactorResult>> = {
  sports,
  availability,
  sameGym,
  goals,
  trainingSchedule,
  experience,
  frequency,
  commitment,
  motivation,
  socialPreference,
};

/** The compatibility of two profiles: symmetric, deterministic, 0-100. */
export function compatibility(a: CompatibilityProfile, b: CompatibilityProfile): Compatibility {
  const contributions = (Object.keys(COMPATIBILITY_WEIGHTS) as Factor[]).map((factor, order) => {
    const { similarity, reason } = FACTORS[factor](a, b);
    return { points: COMPATIBILITY_WEIGHTS[factor] * similarity, reason, order };
  });
  const total = contributions.reduce((sum, { points }) => sum + points, 0);
  const reasons = contributions
    .filter((contribution): contribution is typeof contribution & { reason: string } =>
      Boolean(contribution.reason && contribution.points > 0),
    )
    .sort((x, y) => y.points - x.points || x.order - y.order)
    .slice(0, MAX_COMPATIBILITY_REASONS)
    .map(({ reason }) => reason);
  return { score: Math.min(100, Math.max(0, Math.round(total))), reasons };
}
