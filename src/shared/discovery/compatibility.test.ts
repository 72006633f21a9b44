import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  EXPERIENCE_LEVELS,
  GOALS,
  MOTIVATIONS,
  SOCIAL_PREFERENCES,
  SPORTS,
  TRAINING_SCHEDULES,
} from '../profile/options.ts';
import {
  COMPATIBILITY_WEIGHTS,
  type Compatibility,
  SCHEDULE_WEIGHTS,
  type CompatibilityProfile,
  compatibility,
  compatibilityFeatures,
  compatibilityPoints,
  compatibilityScore,
  normalizeGymName,
  scoreOfPoints,
  spanishList,
} from './compatibility.ts';

/** The unrounded sum of the factors' points (the scale the weights are in; the score is its curve). */
const points = (a: CompatibilityProfile, b: CompatibilityProfile) =>
  compatibilityPoints(compatibilityFeatures(a), compatibilityFeatures(b));

const full: CompatibilityProfile = {
  gym: { name: 'Altafit Chamberí', trainingSchedule: ['Mañana', 'Tarde'] },
  training: {
    sports: ['Musculación', 'CrossFit', 'Running'],
    goals: ['Ganar músculo', 'Aumentar fuerza'],
    motivation: ['salud', 'rendimiento'],
    availability: ['Martes tarde', 'Jueves mañana'],
    experienceLevel: 'intermediate',
    frequency: 4,
    commitment_level: 'moderate',
    socialPreference: 'social_after',
  },
};

const disjoint: CompatibilityProfile = {
  gym: { name: 'Basic-Fit Sol', trainingSchedule: ['Noche'] },
  training: {
    sports: ['Yoga', 'Pilates'],
    goals: ['Flexibilidad'],
    motivation: ['estres'],
    // No slot: every slot is a morning or an afternoon, and "full" trains in both.
    availability: [],
    experienceLevel: 'advanced',
    frequency: 1,
    commitment_level: 'strict',
    socialPreference: 'training_only',
  },
};

const profileArbitrary: fc.Arbitrary<CompatibilityProfile> = fc.record(
  {
    gym: fc.record(
      {
        name: fc.constantFrom('Altafit Chamberí', 'ALTAFIT chamberi', 'McFit', '', 'Basic-Fit Sol'),
        trainingSchedule: fc.subarray([...TRAINING_SCHEDULES]),
      },
      { requiredKeys: [] },
    ),
    training: fc.record(
      {
        sports: fc.subarray([...SPORTS]),
        goals: fc.subarray([...GOALS]),
        motivation: fc.subarray([...MOTIVATIONS]),
        availability: fc.subarray([...AVAILABILITY_SLOTS]),
        experienceLevel: fc.option(fc.constantFrom(...EXPERIENCE_LEVELS)),
        frequency: fc.option(fc.integer({ min: 1, max: 7 })),
        commitment_level: fc.option(fc.constantFrom(...COMMITMENT_LEVELS)),
        socialPreference: fc.option(fc.constantFrom(...SOCIAL_PREFERENCES)),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

describe('compatibility', () => {
  it('has weights that sum to 100', () => {
    expect(Object.values(COMPATIBILITY_WEIGHTS).reduce((sum, weight) => sum + weight, 0)).toBe(100);
  });

  it('is symmetric, deterministic, whole and within 0-100', () => {
    fc.assert(
      fc.property(profileArbitrary, profileArbitrary, (a, b) => {
        const ab = compatibility(a, b);
        expect(compatibility(b, a)).toEqual(ab);
        expect(compatibility(a, b)).toEqual(ab);
        expect(Number.isInteger(ab.score)).toBe(true);
        expect(ab.score).toBeGreaterThanOrEqual(0);
        expect(ab.score).toBeLessThanOrEqual(100);
        expect(ab.reasons.length).toBeLessThanOrEqual(3);
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('returns every factor strongest first, whose points sum to the score and whose reasons are the strongest', () => {
    fc.assert(
      fc.property(profileArbitrary, profileArbitrary, (a, b) => {
        const result = compatibility(a, b);
        expect(result.score).toBe(compatibilityScore(compatibilityFeatures(a), compatibilityFeatures(b)));
        expect(result.factors.map((factor) => factor.factor).sort()).toEqual(Object.keys(COMPATIBILITY_WEIGHTS).sort());
        const points = result.factors.map((factor) => factor.points);
        expect(points).toEqual([...points].sort((x, y) => y - x));
        // The factors' points are the score's terms: they add up to the unrounded score (up to
        // float rounding — the schedule factor is two of compatibilityPoints' terms).
        const sum = points.reduce((total, value) => total + value, 0);
        expect(sum).toBeCloseTo(compatibilityPoints(compatibilityFeatures(a), compatibilityFeatures(b)), 9);
        for (const factor of result.factors) {
          expect(factor.max).toBe(COMPATIBILITY_WEIGHTS[factor.factor]);
          expect(factor.points).toBeGreaterThanOrEqual(0);
          expect(factor.points).toBeLessThanOrEqual(factor.max);
          if (factor.points === 0) expect(factor.reason).toBeNull();
        }
        const withReasons = result.factors.filter((factor) => factor.reason !== null);
        expect(result.reasons).toEqual(withReasons.slice(0, 3).map((factor) => factor.reason));
      }),
      { numRuns: 1000 },
    );
  }, 60_000);

  it('names the shared options of each list factor, in the list order', () => {
    const { factors } = compatibility(full, {
      training: { sports: ['Running', 'Musculación', 'Yoga'], goals: ['Aumentar fuerza'] },
    });
    const sports = factors.find((factor) => factor.factor === 'sports');
    expect(sports).toMatchObject({ shared: ['Musculación', 'Running'], max: COMPATIBILITY_WEIGHTS.sports });
    expect(sports?.points).toBeCloseTo((COMPATIBILITY_WEIGHTS.sports * 2) / 4);
    expect(factors[0]?.factor).toBe('sports');
    expect(factors.find((factor) => factor.factor === 'goals')?.shared).toEqual(['Aumentar fuerza']);
  });

  it('scores a profile against itself at 100', () => {
    expect(compatibility(full, full).score).toBe(100);
    expect(compatibility(full, structuredCloneOf(full)).score).toBe(100);
  });

  it('scores profiles with nothing in common low, and empty profiles at 0', () => {
    // Nothing shared; only the ladders (experience, frequency, commitment) are a step or so apart.
    expect(points(full, disjoint)).toBeLessThanOrEqual(10);
    expect(compatibility(full, disjoint).score).toBeLessThanOrEqual(scoreOfPoints(10));
    const opposite: CompatibilityProfile = {
      gym: full.gym,
      training: { ...full.training, experienceLevel: 'beginner', frequency: 7, commitment_level: 'flexible' },
    };
    expect(
      brief(compatibility({ ...opposite, gym: { name: 'McFit', trainingSchedule: ['Mañana'] } }, disjoint)),
    ).toEqual({
      score: 0,
      reasons: [],
    });
    expect(brief(compatibility({}, {}))).toEqual({ score: 0, reasons: [] });
    expect(brief(compatibility(full, {}))).toEqual({ score: 0, reasons: [] });
    expect(brief(compatibility({ gym: null, training: null }, full))).toEqual({ score: 0, reasons: [] });
  });

  it('grows with every sport shared, all else equal', () => {
    const base = ['Musculación', 'CrossFit', 'Calistenia', 'Yoga', 'Cardio', 'HIIT'];
    const others = ['Spinning', 'Pilates', 'Boxeo', 'Natación', 'Running', 'Zumba'];
    const scores = [0, 1, 2, 3, 4, 5, 6].map((shared) => {
      const b = [...base.slice(0, shared), ...others.slice(0, 6 - shared)];
      return points({ training: { sports: base } }, { training: { sports: b } });
    });
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeGreaterThan(scores[i - 1]!);
    expect(scores.at(-1)).toBe(COMPATIBILITY_WEIGHTS.sports);
  });

  it('treats the same gym the same however its name is written', () => {
    expect(normalizeGymName('  ALTAFIT   chamberi! ')).toBe(normalizeGymName('Altafit Chamberí'));
    const result = compatibility({ gym: { name: 'Altafit Chamberí' } }, { gym: { name: 'altafit-chamberi' } });
    expect(brief(result)).toEqual({
      score: scoreOfPoints(COMPATIBILITY_WEIGHTS.sameGym),
      reasons: ['Entrenáis en el mismo gimnasio'],
    });
    expect(compatibility({ gym: { name: '' } }, { gym: { name: '   ' } }).score).toBe(0);
  });

  it('explains itself with up to three Spanish reasons, the largest contributions first', () => {
    const { reasons } = compatibility(full, full);
    expect(reasons).toEqual([
      'Coincidís los martes por la tarde y los jueves por la mañana',
      'Compartís 3 deportes: Musculación, CrossFit y Running',
      'Entrenáis en el mismo gimnasio',
    ]);
  });

  it("meets one person's preferred schedule with the other's availability slots, both ways", () => {
    const evenings: CompatibilityProfile = { gym: { trainingSchedule: ['Tarde'] } };
    const slots: CompatibilityProfile = { training: { availability: ['Lunes tarde', 'Jueves tarde'] } };
    for (const [a, b] of [
      [evenings, slots],
      [slots, evenings],
    ] as const) {
      const result = compatibility(a, b);
      expect(points(a, b)).toBe(SCHEDULE_WEIGHTS.dayParts);
      expect(result.reasons).toEqual(['Los dos entrenáis por la tarde']);
      expect(result.factors[0]).toMatchObject({
        factor: 'schedule',
        points: SCHEDULE_WEIGHTS.dayParts,
        shared: ['Tarde'],
      });
    }
    // A morning person and an afternoon one: no part of the day in common, nothing to say.
    expect(compatibility({ gym: { trainingSchedule: ['Mañana'] } }, slots)).toMatchObject({ score: 0, reasons: [] });
    // Many slots in common are counted, with the parts of the day they fall in.
    const week = ['Lunes tarde', 'Martes tarde', 'Miércoles tarde', 'Jueves tarde', 'Viernes tarde'];
    expect(
      compatibility({ training: { availability: week } }, { training: { availability: [...week, 'Sábado mañana'] } })
        .reasons,
    ).toEqual(['Los dos entrenáis por la tarde (5 franjas en común)']);
    expect(COMPATIBILITY_WEIGHTS.schedule).toBe(SCHEDULE_WEIGHTS.slots + SCHEDULE_WEIGHTS.dayParts);
  });

  it('words each kind of reason', () => {
    const reasonsFor = (a: CompatibilityProfile['training'], b: CompatibilityProfile['training']) =>
      compatibility({ training: a }, { training: b }).reasons;
    expect(reasonsFor({ sports: ['Yoga', 'Boxeo'] }, { sports: ['Yoga'] })).toEqual(['Compartís un deporte: Yoga']);
    expect(reasonsFor({ availability: ['Martes tarde', 'Lunes tarde'] }, { availability: ['Martes tarde'] })).toEqual([
      'Coincidís los martes por la tarde',
    ]);
    expect(
      reasonsFor({ availability: ['Lunes tarde', 'Sábado tarde'] }, { availability: ['Sábado tarde', 'Lunes tarde'] }),
    ).toEqual(['Coincidís los lunes y sábados por la tarde']);
    expect(reasonsFor({ availability: [...AVAILABILITY_SLOTS] }, { availability: [...AVAILABILITY_SLOTS] })).toEqual([
      'Los dos entrenáis por la mañana y por la tarde (14 franjas en común)',
    ]);
    expect(reasonsFor({ experienceLevel: 'beginner' }, { experienceLevel: 'beginner' })).toEqual([
      'Mismo nivel de experiencia',
    ]);
    expect(reasonsFor({ experienceLevel: 'beginner' }, { experienceLevel: 'intermediate' })).toEqual([
      'Nivel de experiencia parecido',
    ]);
    expect(reasonsFor({ experienceLevel: 'beginner' }, { experienceLevel: 'advanced' })).toEqual([]);
    expect(
      reasonsFor({ motivation: ['rendimiento', 'salud'] }, { motivation: ['salud', 'rendimiento', 'estres'] }),
    ).toEqual(['Os motiva lo mismo: salud y rendimiento']);
    expect(reasonsFor({ goals: ['Perder peso'] }, { goals: ['Perder peso'] })).toEqual([
      'Tenéis el mismo objetivo: perder peso',
    ]);
    expect(reasonsFor({ frequency: 3 }, { frequency: 3 })).toEqual(['Los dos entrenáis 3 días por semana']);
    expect(reasonsFor({ frequency: 3 }, { frequency: 4 })).toEqual(['Entrenáis con una frecuencia parecida']);
    expect(reasonsFor({ commitment_level: 'strict' }, { commitment_level: 'strict' })).toEqual([
      'Mismo nivel de compromiso',
    ]);
    expect(reasonsFor({ socialPreference: 'training_only' }, { socialPreference: 'training_only' })).toEqual([
      'Los dos buscáis solo entrenar',
    ]);
    expect(
      compatibility(
        { gym: { trainingSchedule: ['Noche', 'Mañana'] } },
        { gym: { trainingSchedule: ['Mañana', 'Noche'] } },
      ).reasons,
    ).toEqual(['Los dos entrenáis por la mañana y por la noche']);
  });

  it('names at most three shared items and counts the rest', () => {
    const sports = ['Musculación', 'CrossFit', 'Calistenia', 'Yoga', 'Cardio'];
    expect(compatibility({ training: { sports } }, { training: { sports } }).reasons).toEqual([
      'Compartís 5 deportes: Musculación, CrossFit, Calistenia y 2 más',
    ]);
  });

  it('scores social preferences: same 1, "both" with either 0.75, opposite 0', () => {
    const score = (a: string, b: string) =>
      points({ training: { socialPreference: a } }, { training: { socialPreference: b } });
    expect(score('social_after', 'social_after')).toBe(COMPATIBILITY_WEIGHTS.socialPreference);
    expect(score('both', 'training_only')).toBe(COMPATIBILITY_WEIGHTS.socialPreference * 0.75);
    expect(score('training_only', 'social_after')).toBe(0);
  });

  it('ignores values it does not understand', () => {
    const odd: CompatibilityProfile = {
      training: { experienceLevel: 'guru', frequency: 42, commitment_level: 'x', socialPreference: '__proto__' },
    };
    expect(brief(compatibility(odd, odd))).toEqual({ score: 0, reasons: [] });
  });
});

/** Profiles spread like the demo population (src/server/db/seed.ts): what the percentage is calibrated on. */
const demoLikeProfile = fc.record({
  gym: fc.record({
    name: fc.constantFrom(
      'Altafit Chamberí',
      'McFit Bilbao',
      'Basic-Fit Deusto',
      'Anytime Gràcia',
      'GO fit Vallehermoso',
    ),
    trainingSchedule: fc.subarray([...TRAINING_SCHEDULES], { minLength: 1, maxLength: 2 }),
  }),
  training: fc.record({
    sports: fc.subarray([...SPORTS], { minLength: 1, maxLength: 3 }),
    goals: fc.subarray([...GOALS], { minLength: 1, maxLength: 3 }),
    availability: fc.subarray([...AVAILABILITY_SLOTS], { minLength: 2, maxLength: 6 }),
    motivation: fc.subarray([...MOTIVATIONS], { minLength: 1, maxLength: 2 }),
    experienceLevel: fc.constantFrom(...EXPERIENCE_LEVELS),
    commitment_level: fc.constantFrom(...COMMITMENT_LEVELS),
    socialPreference: fc.constantFrom(...SOCIAL_PREFERENCES),
    frequency: fc.integer({ min: 2, max: 6 }),
  }),
});

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number;

describe('the shown percentage (docs/decisions/0050)', () => {
  it('is a strictly increasing curve of the points, from 0 to 100', () => {
    expect(scoreOfPoints(0)).toBe(0);
    expect(scoreOfPoints(100)).toBe(100);
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        (x, y) => {
          const [low, high] = x <= y ? [x, y] : [y, x];
          expect(scoreOfPoints(low)).toBeLessThanOrEqual(scoreOfPoints(high));
          expect(Number.isInteger(scoreOfPoints(x))).toBe(true);
        },
      ),
    );
    // Above the rounded points everywhere but at the ends: it only lifts.
    for (let whole = 1; whole < 100; whole += 1) expect(scoreOfPoints(whole)).toBeGreaterThan(whole);
  });

  it('reads a pair sharing gym, a sport, a goal and a time slot as a strong fit', () => {
    const ana: CompatibilityProfile = {
      gym: { name: 'Altafit Chamberí', trainingSchedule: ['Tarde'] },
      training: {
        sports: ['Running', 'Musculación'],
        goals: ['Ganar músculo'],
        availability: ['Lunes tarde', 'Miércoles tarde', 'Viernes tarde'],
        experienceLevel: 'intermediate',
        frequency: 3,
      },
    };
    const bea: CompatibilityProfile = {
      gym: { name: 'ALTAFIT chamberi', trainingSchedule: ['Tarde', 'Mañana'] },
      training: {
        sports: ['Running'],
        goals: ['Ganar músculo', 'Tonificar'],
        availability: ['Miércoles tarde', 'Sábado mañana'],
        experienceLevel: 'advanced',
        frequency: 4,
      },
    };
    const result = compatibility(ana, bea);
    expect(result.reasons).toEqual([
      'Entrenáis en el mismo gimnasio',
      'Compartís un deporte: Running',
      'Coincidís los miércoles por la tarde',
    ]);
    // 45.5 points of 100: the old score said 46 %.
    expect(points(ana, bea)).toBeCloseTo(45.5, 9);
    expect(result.score).toBeGreaterThanOrEqual(70);
  });

  it('on a demo-like population: sharing gym, sport, goal and slot reads strong, sharing nothing reads weak', () => {
    const people = fc.sample(demoLikeProfile, { numRuns: 160, seed: 50 });
    const sharingAll: number[] = [];
    const sharingNothing: number[] = [];
    const everyone: number[] = [];
    for (let i = 0; i < people.length; i += 1) {
      for (let j = i + 1; j < people.length; j += 1) {
        const result = compatibility(people[i] as CompatibilityProfile, people[j] as CompatibilityProfile);
        const shared = (name: string) => (result.factors.find((factor) => factor.factor === name)?.points ?? 0) > 0;
        const slot = result.factors
          .find((factor) => factor.factor === 'schedule')
          ?.shared?.some((x) => x.includes(' '));
        everyone.push(result.score);
        if (shared('sameGym') && shared('sports') && shared('goals') && slot) sharingAll.push(result.score);
        if (!shared('sameGym') && !shared('sports') && !shared('goals') && !slot) sharingNothing.push(result.score);
      }
    }
    expect(sharingAll.length).toBeGreaterThan(100);
    expect(sharingNothing.length).toBeGreaterThan(100);
    // Before the curve: 51, 25 and 31 (the "most cards show 29–37 %").
    expect(median(sharingAll)).toBeGreaterThanOrEqual(72);
    expect(median(sharingNothing)).toBeLessThanOrEqual(45);
    expect(median(everyone)).toBeGreaterThanOrEqual(45);
    expect(median(everyone)).toBeLessThanOrEqual(60);
  });
});

describe('spanishList', () => {
  it('joins with commas and "y", or "e" before an /i/ sound', () => {
    expect(spanishList([])).toBe('');
    expect(spanishList(['Yoga'])).toBe('Yoga');
    expect(spanishList(['Yoga', 'Boxeo'])).toBe('Yoga y Boxeo');
    expect(spanishList(['Yoga', 'Boxeo', 'Running'])).toBe('Yoga, Boxeo y Running');
    expect(spanishList(['Yoga', 'Instructor de Pilates'])).toBe('Yoga e Instructor de Pilates');
    expect(spanishList(['Yoga', 'hielo'])).toBe('Yoga y hielo');
  });
});

/** The score and reasons only (the factors are checked on their own). */
function brief({ score, reasons }: Compatibility) {
  return { score, reasons };
}

function structuredCloneOf<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
