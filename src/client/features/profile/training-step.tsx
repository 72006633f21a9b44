/**
 * Profile step 3, «Preferencias de Entrenamiento» (spec 001 §2): what the spec requires and the deck
 * uses first, the optional rest folded under «Más sobre ti (opcional)» (issue #34).
 */
import {
  AGE_RANGE_MAX,
  AGE_RANGE_MIN,
  DAY_PARTS,
  COMMITMENT_LEVEL_OPTIONS,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  EXPERIENCE_LEVEL_OPTIONS,
  FREQUENCY_MAX_DAYS,
  FREQUENCY_MIN_DAYS,
  GENDER_PREFERENCE_OPTIONS,
  GOAL_OPTIONS,
  MOTIVATION_OPTIONS,
  SOCIAL_PREFERENCE_OPTIONS,
  SPECIALTY_OPTIONS,
  SPORT_OPTIONS,
  SUPPLEMENT_OPTIONS,
  WEEK_DAYS,
} from '#shared/profile/options';
import { AvailabilityGrid, ChipGroup, ChoiceGroup, NumberField, StepHeading, SubSection } from './form-parts.tsx';
import { ChevronRightIcon } from '../../ui/icons.tsx';
import { type StepProps, STEP_TITLES } from './step-props.ts';

export function TrainingStep({ draft, errors, onChange, hasHeading = true }: StepProps & { hasHeading?: boolean }) {
  const t = draft.training;
  const p = draft.preferences;
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && (
        <StepHeading title={STEP_TITLES[3]} description="Así encontraremos compañeros que encajen contigo." />
      )}
      <SubSection title="Tu entrenamiento">
        <ChipGroup
          legend="Deportes"
          isRequired
          options={SPORT_OPTIONS}
          value={t.sports}
          onChange={(next) =>
            onChange((d) => {
              d.training.sports = next;
            })
          }
          error={errors['training.sports']}
        />
        <ChipGroup
          legend="Objetivos"
          isRequired
          options={GOAL_OPTIONS}
          value={t.goals}
          onChange={(next) =>
            onChange((d) => {
              d.training.goals = next;
            })
          }
          error={errors['training.goals']}
        />
        <ChoiceGroup
          legend="Nivel de experiencia"
          options={EXPERIENCE_LEVEL_OPTIONS}
          value={t.experienceLevel}
          onChange={(value) =>
            onChange((d) => {
              d.training.experienceLevel = value;
            })
          }
        />
        <NumberField
          label="Frecuencia semanal (días)"
          value={t.frequency}
          min={FREQUENCY_MIN_DAYS}
          max={FREQUENCY_MAX_DAYS}
          error={errors['training.frequency']}
          onChange={(value) =>
            onChange((d) => {
              d.training.frequency = value;
            })
          }
        />
      </SubSection>
      <SubSection title="Disponibilidad">
        <AvailabilityGrid
          legend="¿Cuándo puedes entrenar?"
          days={WEEK_DAYS}
          parts={DAY_PARTS}
          value={t.availability}
          onChange={(next) =>
            onChange((d) => {
              d.training.availability = next;
            })
          }
          error={errors['training.availability']}
        />
      </SubSection>
      <SubSection title="Tu compañero ideal">
        <ChoiceGroup
          legend="Prefiero entrenar con"
          options={GENDER_PREFERENCE_OPTIONS}
          value={p.gender_preference}
          allowNone={false}
          onChange={(value) =>
            onChange((d) => {
              d.preferences.gender_preference = value ?? 'both';
            })
          }
        />
        <div className="grid grid-cols-2 gap-4">
          <NumberField
            label="Edad mínima"
            value={p.age_range.min}
            min={AGE_RANGE_MIN}
            max={AGE_RANGE_MAX}
            error={errors['preferences.age_range.min'] ?? errors['preferences.age_range']}
            onChange={(value) =>
              onChange((d) => {
                d.preferences.age_range.min = value;
              })
            }
          />
          <NumberField
            label="Edad máxima"
            value={p.age_range.max}
            min={AGE_RANGE_MIN}
            max={AGE_RANGE_MAX}
            error={errors['preferences.age_range.max']}
            onChange={(value) =>
              onChange((d) => {
                d.preferences.age_range.max = value;
              })
            }
          />
        </div>
        <NumberField
          label="Distancia máxima (km)"
          value={p.distance}
          min={DISTANCE_MIN_KM}
          max={DISTANCE_MAX_KM}
          error={errors['preferences.distance']}
          onChange={(value) =>
            onChange((d) => {
              d.preferences.distance = value;
            })
          }
        />
      </SubSection>
      {/* Step 3 was four screens of chips right after registration (issue #34): what the spec
          requires and the deck uses stays open above; the rest is one tap away, closed. */}
      <details className="group rounded-2xl bg-stone-50 ring-1 ring-stone-900/5 dark:bg-stone-950/40 dark:ring-white/6">
        <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-3 rounded-2xl p-4 focus-visible:outline-2 focus-visible:outline-brand-600 sm:px-5 [&::-webkit-details-marker]:hidden">
          <span className="flex flex-col">
            <span className="text-sm font-bold uppercase tracking-wide text-stone-600 dark:text-stone-400">
              Más sobre ti (opcional)
            </span>
            <span className="text-sm text-stone-600 dark:text-stone-400">
              Motivación, especialidades, suplementos, compromiso y plan después de entrenar
            </span>
          </span>
          <ChevronRightIcon className="size-5 shrink-0 text-stone-500 transition-transform group-open:rotate-90 motion-reduce:transition-none" />
        </summary>
        <div className="flex flex-col gap-5 px-4 pb-4 sm:px-5 sm:pb-5">
          <ChipGroup
            legend="Motivación"
            options={MOTIVATION_OPTIONS}
            value={t.motivation}
            onChange={(next) =>
              onChange((d) => {
                d.training.motivation = next;
              })
            }
          />
          <ChipGroup
            legend="Especialidades"
            options={SPECIALTY_OPTIONS}
            value={t.specialties}
            onChange={(next) =>
              onChange((d) => {
                d.training.specialties = next;
              })
            }
          />
          <ChipGroup
            legend="Suplementos"
            options={SUPPLEMENT_OPTIONS}
            value={t.supplements}
            onChange={(next) =>
              onChange((d) => {
                d.training.supplements = next;
              })
            }
          />
          <ChoiceGroup
            legend="Nivel de compromiso"
            options={COMMITMENT_LEVEL_OPTIONS}
            value={t.commitment_level}
            onChange={(value) =>
              onChange((d) => {
                d.training.commitment_level = value;
              })
            }
          />
          <ChoiceGroup
            legend="Preferencia social"
            options={SOCIAL_PREFERENCE_OPTIONS}
            value={t.socialPreference}
            onChange={(value) =>
              onChange((d) => {
                d.training.socialPreference = value;
              })
            }
          />
        </div>
      </details>
    </div>
  );
}
