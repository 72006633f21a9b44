import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_OPTIONS,
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVEL_OPTIONS,
  DIETARY_PREFERENCE_OPTIONS,
  EXPERIENCE_LEVEL_OPTIONS,
  GENDER_OPTIONS,
  GENDER_PREFERENCE_OPTIONS,
  GOAL_OPTIONS,
  INJURY_OPTIONS,
  MAX_PHOTO_BYTES,
  MEMBERSHIP_TYPE_OPTIONS,
  MOTIVATION_OPTIONS,
  type Option,
  optionLabel,
  SOCIAL_PREFERENCE_OPTIONS,
  SPECIALTY_OPTIONS,
  SPORT_OPTIONS,
  SUPPLEMENT_OPTIONS,
  TRAINING_SCHEDULE_OPTIONS,
} from './options.ts';

const values = (options: readonly Option[]) => options.map((option) => option.value);
const labels = (options: readonly Option[]) => options.map((option) => option.label);

describe('option lists (spec 001 §3)', () => {
  it('has the lists the spec gives in full, in its order', () => {
    expect(values(SPORT_OPTIONS)).toEqual([
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
    ]);
    expect(GOAL_OPTIONS).toHaveLength(10);
    expect(values(GOAL_OPTIONS)).toContain('Rendimiento deportivo');
    expect(MOTIVATION_OPTIONS).toEqual([
      { value: 'salud', label: 'Salud' },
      { value: 'estetica', label: 'Estética' },
      { value: 'estres', label: 'Estrés' },
      { value: 'rendimiento', label: 'Rendimiento' },
      { value: 'social', label: 'Social' },
      { value: 'superacion', label: 'Superación' },
    ]);
    expect(values(TRAINING_SCHEDULE_OPTIONS)).toEqual(['Mañana', 'Tarde', 'Noche']);
    expect(MEMBERSHIP_TYPE_OPTIONS).toEqual([
      { value: 'free', label: 'Gratuita' },
      { value: 'monthly', label: 'Mensual' },
      { value: 'annual', label: 'Anual' },
      { value: 'premium', label: 'Premium' },
    ]);
    expect(labels(EXPERIENCE_LEVEL_OPTIONS)).toEqual(['Principiante', 'Intermedio', 'Avanzado']);
    expect(values(EXPERIENCE_LEVEL_OPTIONS)).toEqual(['beginner', 'intermediate', 'advanced']);
    expect(values(COMMITMENT_LEVEL_OPTIONS)).toEqual(['flexible', 'moderate', 'strict']);
    expect(values(SOCIAL_PREFERENCE_OPTIONS)).toEqual(['training_only', 'social_after', 'both']);
    expect(values(GENDER_OPTIONS)).toEqual(['male', 'female', 'non-binary']);
    expect(GENDER_PREFERENCE_OPTIONS).toEqual([
      { value: 'male', label: 'Hombres' },
      { value: 'female', label: 'Mujeres' },
      { value: 'both', label: 'Ambos' },
    ]);
  });

  it('completes the partial lists to the sizes the spec states, its examples first', () => {
    expect(values(SPECIALTY_OPTIONS).slice(0, 5)).toEqual([
      'Personal Trainer',
      'CrossFit Coach',
      'Instructor de Yoga',
      'Nutrición deportiva',
      'Rehabilitación física',
    ]);
    expect(SPECIALTY_OPTIONS).toHaveLength(8);
    expect(values(SUPPLEMENT_OPTIONS).slice(0, 5)).toEqual(['Proteína', 'Creatina', 'BCAAs', 'Omega 3', 'ZMA']);
    expect(SUPPLEMENT_OPTIONS).toHaveLength(12);
    expect(values(INJURY_OPTIONS).slice(0, 3)).toEqual(['Lesión de rodilla', 'Hernia discal', 'Post operatorio']);
    expect(INJURY_OPTIONS).toHaveLength(10);
    expect(values(DIETARY_PREFERENCE_OPTIONS).slice(0, 3)).toEqual(['Vegano', 'Keto', 'Sin gluten']);
    expect(DIETARY_PREFERENCE_OPTIONS).toHaveLength(10);
  });

  it('offers 7 days × mañana/tarde of availability', () => {
    expect(AVAILABILITY_SLOTS).toHaveLength(14);
    expect(AVAILABILITY_SLOTS[0]).toBe('Lunes mañana');
    expect(AVAILABILITY_SLOTS[1]).toBe('Lunes tarde');
    expect(AVAILABILITY_SLOTS).toContain('Miércoles tarde');
    expect(AVAILABILITY_SLOTS.at(-1)).toBe('Domingo tarde');
    expect(values(AVAILABILITY_OPTIONS)).toEqual(AVAILABILITY_SLOTS);
  });

  it('has no duplicate value or label, and no empty label, in any list', () => {
    const lists = [
      SPORT_OPTIONS,
      GOAL_OPTIONS,
      MOTIVATION_OPTIONS,
      SPECIALTY_OPTIONS,
      SUPPLEMENT_OPTIONS,
      INJURY_OPTIONS,
      DIETARY_PREFERENCE_OPTIONS,
      AVAILABILITY_OPTIONS,
      TRAINING_SCHEDULE_OPTIONS,
      MEMBERSHIP_TYPE_OPTIONS,
      EXPERIENCE_LEVEL_OPTIONS,
      COMMITMENT_LEVEL_OPTIONS,
      SOCIAL_PREFERENCE_OPTIONS,
      GENDER_OPTIONS,
      GENDER_PREFERENCE_OPTIONS,
    ];
    for (const list of lists) {
      expect(new Set(values(list)).size).toBe(list.length);
      expect(new Set(labels(list)).size).toBe(list.length);
      for (const label of labels(list)) expect(label.trim()).not.toBe('');
    }
  });

  it('finds labels, and falls back to the value itself', () => {
    expect(optionLabel(MOTIVATION_OPTIONS, 'estres')).toBe('Estrés');
    expect(optionLabel(GENDER_OPTIONS, 'non-binary')).toBe('No binario');
    expect(optionLabel(MOTIVATION_OPTIONS, 'desconocida')).toBe('desconocida');
  });

  it('keeps the photo size limit at 5 MB', () => {
    expect(MAX_PHOTO_BYTES).toBe(5_242_880);
  });
});
