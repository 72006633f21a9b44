/**
 * The four parts of a profile form (spec 001 §2), shared by the creation wizard and /edit-profile.
 * Each step reads the draft and reports changes as a recipe the owner applies to its store.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import type { GymSuggestion } from '#shared/discovery/discovery-schemas';
import { distanceText } from '#shared/discovery/distance';
import {
  AGE_RANGE_MAX,
  AGE_RANGE_MIN,
  BIO_MAX,
  DAY_PARTS,
  COMMITMENT_LEVEL_OPTIONS,
  DIETARY_PREFERENCE_OPTIONS,
  DISTANCE_MAX_KM,
  DISTANCE_MIN_KM,
  EXPERIENCE_LEVEL_OPTIONS,
  FREQUENCY_MAX_DAYS,
  FREQUENCY_MIN_DAYS,
  GENDER_OPTIONS,
  GENDER_PREFERENCE_OPTIONS,
  GOAL_OPTIONS,
  GYM_NAME_MAX,
  GYM_SEARCH_MIN_CHARS,
  HEIGHT_MAX_CM,
  HEIGHT_MIN_CM,
  INJURY_OPTIONS,
  LAST_NAME_MAX,
  MEMBERSHIP_TYPE_OPTIONS,
  MIN_AGE,
  MIN_BIRTH_DATE,
  MOTIVATION_OPTIONS,
  NAME_MAX,
  SOCIAL_PREFERENCE_OPTIONS,
  SPECIALTY_OPTIONS,
  SPORT_OPTIONS,
  SUPPLEMENT_OPTIONS,
  TRAINING_SCHEDULE_OPTIONS,
  WEIGHT_MAX_KG,
  WEIGHT_MIN_KG,
  WEEK_DAYS,
  DEFAULT_HEIGHT_CM,
  DEFAULT_WEIGHT_KG,
} from '#shared/profile/options';
import type { FieldErrors } from '#shared/profile/profile-schema';
import { LockIcon, MapPinIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import {
  AvailabilityGrid,
  ChipGroup,
  ChoiceGroup,
  readNumber,
  showNumber,
  StepHeading,
  SubSection,
  TextAreaField,
} from './form-parts.tsx';
import { searchGyms } from './profile-api.ts';
import type { ProfileDraft } from './profile-draft.ts';

export type StepProps = {
  draft: ProfileDraft;
  errors: FieldErrors;
  onChange: (recipe: (draft: ProfileDraft) => void) => void;
};

export const STEP_TITLES = {
  1: 'Datos Personales',
  2: 'Información del Gimnasio',
  3: 'Preferencias de Entrenamiento',
  4: 'Información Adicional y Fotos',
} as const;

/** The latest birth date the picker allows: exactly MIN_AGE years before today (local calendar). */
export function latestBirthDate(today: Date = new Date()): string {
  const year = today.getFullYear() - MIN_AGE;
  const month = String(today.getMonth() + 1).padStart(2, '0');
  const day = String(today.getDate()).padStart(2, '0');
  // 29 February of a leap year maps to 28 February 18 years earlier when that year has none.
  const candidate = `${year}-${month}-${day}`;
  return Number.isNaN(Date.parse(candidate)) || (month === '02' && day === '29' && year % 4 !== 0)
    ? `${year}-02-28`
    : candidate;
}

export function PersonalStep({ draft, errors, onChange, hasHeading = true }: StepProps & { hasHeading?: boolean }) {
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && (
        <StepHeading title={STEP_TITLES[1]} description="Cuéntanos quién eres para que otros te conozcan." />
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Nombre"
          autoComplete="given-name"
          value={draft.name}
          maxLength={NAME_MAX}
          onChange={(event) =>
            onChange((d) => {
              d.name = event.target.value;
            })
          }
          error={errors.name}
          required
        />
        <TextField
          label="Apellido (opcional)"
          autoComplete="family-name"
          value={draft.lastName}
          maxLength={LAST_NAME_MAX}
          onChange={(event) =>
            onChange((d) => {
              d.lastName = event.target.value;
            })
          }
          error={errors.lastName}
        />
      </div>
      <TextField
        label="Fecha de nacimiento"
        type="date"
        min={MIN_BIRTH_DATE}
        max={latestBirthDate()}
        value={draft.birthDate}
        onChange={(event) =>
          onChange((d) => {
            d.birthDate = event.target.value;
          })
        }
        error={errors.birthDate}
        hint="Debes tener al menos 18 años."
        required
      />
      <TextAreaField
        label="Bio"
        value={draft.bio}
        maxLength={BIO_MAX}
        placeholder="Me encanta entrenar por las mañanas y busco alguien con quien motivarme…"
        onChange={(value) =>
          onChange((d) => {
            d.bio = value;
          })
        }
        error={errors.bio}
        hint="Entre 10 y 500 caracteres."
      />
      <ChoiceGroup
        legend="Género"
        hint="(opcional)"
        options={GENDER_OPTIONS}
        value={draft.gender}
        onChange={(value) =>
          onChange((d) => {
            d.gender = value ?? '';
          })
        }
        error={errors.gender}
      />
    </div>
  );
}

const GYM_SEARCH_DEBOUNCE_MS = 300;

/** A position to rank gym suggestions by (already snapped to the ~1 km grid), or null when unknown. */
export type GymSearchOrigin = { latitude: number; longitude: number } | null;

function GymNameField({
  value,
  error,
  origin,
  onChange,
}: {
  value: string;
  error?: string;
  origin: GymSearchOrigin;
  /** `city`: the picked club's town when it is near the person (their profile's city), else ''. */
  onChange: (name: string, city: string) => void;
}) {
  const [suggestions, setSuggestions] = useState<GymSuggestion[]>([]);
  const [isSearching, setIsSearching] = useState(false);
  const [isOpen, setIsOpen] = useState(false);
  const listId = useId();
  const picked = useRef<string | null>(null);
  // Plain numbers as effect dependencies: a new object with the same position searches nothing new.
  const latitude = origin?.latitude ?? null;
  const longitude = origin?.longitude ?? null;

  useEffect(() => {
    const query = value.trim();
    if (query.length < GYM_SEARCH_MIN_CHARS || picked.current === value) {
      setSuggestions([]);
      setIsSearching(false);
      return;
    }
    const controller = new AbortController();
    setIsSearching(true);
    const timer = setTimeout(() => {
      const near = latitude !== null && longitude !== null ? { latitude, longitude } : null;
      void searchGyms(query, near, controller.signal).then((gyms) => {
        if (controller.signal.aborted) return;
        const seen = new Set<string>();
        setSuggestions(gyms.filter((gym) => !seen.has(gym.name) && seen.add(gym.name)));
        setIsSearching(false);
      });
    }, GYM_SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [value, latitude, longitude]);

  const isShowing = isOpen && suggestions.length > 0;
  return (
    <div className="relative flex flex-col gap-2">
      <TextField
        label="Nombre del gimnasio"
        value={value}
        maxLength={GYM_NAME_MAX}
        autoComplete="off"
        onFocus={() => setIsOpen(true)}
        onChange={(event) => {
          picked.current = null;
          setIsOpen(true);
          onChange(event.target.value, '');
        }}
        error={error}
        hint={`Escribe al menos ${GYM_SEARCH_MIN_CHARS} letras para ver sugerencias.`}
        aria-controls={isShowing ? listId : undefined}
        required
      />
      {isSearching && (
        <p className="flex items-center gap-2 text-sm text-stone-600 dark:text-stone-400" aria-live="polite">
          <Spinner size="sm" label={null} /> Buscando gimnasios...
        </p>
      )}
      {isShowing && (
        <ul
          id={listId}
          aria-label="Sugerencias de gimnasios"
          className="flex max-h-64 flex-col overflow-y-auto rounded-2xl bg-white p-1.5 shadow-lg ring-1 ring-stone-900/10 dark:bg-stone-900 dark:ring-white/10"
        >
          {suggestions.map((gym) => (
            <li key={gym.name}>
              <button
                type="button"
                onClick={() => {
                  picked.current = gym.name.slice(0, GYM_NAME_MAX);
                  const isNear = gym.distanceKm === undefined || gym.distanceKm <= GYM_CITY_MAX_KM;
                  onChange(picked.current, isNear ? gym.city : '');
                  setSuggestions([]);
                  setIsOpen(false);
                }}
                className="flex w-full items-start gap-3 rounded-xl px-3 py-2.5 text-left hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:hover:bg-white/6"
              >
                <MapPinIcon className="mt-0.5 size-4 shrink-0 text-brand-700 dark:text-brand-400" />
                <span className="flex min-w-0 flex-col">
                  <span className="truncate text-sm font-semibold text-stone-900 dark:text-stone-50">{gym.name}</span>
                  <span className="truncate text-xs text-stone-600 dark:text-stone-400">
                    {[gym.address, gym.city].filter(Boolean).join(', ')}
                  </span>
                  {gym.distanceKm !== undefined && (
                    <span className="text-xs font-semibold text-brand-800 dark:text-brand-300">
                      {distanceText(gym.distanceKm)}
                    </span>
                  )}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A club this close gives the profile its city (issue #20: matches said "Ubicación no disponible"). */
const GYM_CITY_MAX_KM = 30;

export function GymStep({
  draft,
  errors,
  onChange,
  hasHeading = true,
  gymSearchOrigin = null,
}: StepProps & { hasHeading?: boolean; gymSearchOrigin?: GymSearchOrigin }) {
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && <StepHeading title={STEP_TITLES[2]} description="¿Dónde y cuándo entrenas?" />}
      <GymNameField
        value={draft.gym.name}
        error={errors['gym.name']}
        origin={gymSearchOrigin}
        onChange={(name, city) =>
          onChange((d) => {
            d.gym.name = name;
            d.city = city;
          })
        }
      />
      <ChoiceGroup
        legend="Tipo de membresía"
        options={MEMBERSHIP_TYPE_OPTIONS}
        value={draft.gym.membershipType}
        allowNone={false}
        onChange={(value) =>
          onChange((d) => {
            d.gym.membershipType = value ?? d.gym.membershipType;
          })
        }
      />
      <ChipGroup
        legend="Horario de entrenamiento"
        isRequired
        options={TRAINING_SCHEDULE_OPTIONS}
        value={draft.gym.trainingSchedule}
        onChange={(next) =>
          onChange((d) => {
            d.gym.trainingSchedule = next;
          })
        }
        error={errors['gym.trainingSchedule'] ?? errors.gym}
      />
    </div>
  );
}

function NumberField({
  label,
  value,
  min,
  max,
  error,
  suffix,
  placeholder,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: number;
  min: number;
  max: number;
  error?: string;
  suffix?: ReactNode;
  onChange: (value: number) => void;
}) {
  return (
    <TextField
      label={label}
      type="number"
      inputMode="numeric"
      min={min}
      max={max}
      value={showNumber(value)}
      placeholder={placeholder}
      onChange={(event) => onChange(readNumber(event.target.value))}
      error={error}
      prefix={suffix}
    />
  );
}

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
    </div>
  );
}

export function AdditionalStep({
  draft,
  errors,
  onChange,
  photos,
  hasHeading = true,
}: StepProps & { photos: ReactNode; hasHeading?: boolean }) {
  const h = draft.health;
  return (
    <div className="flex flex-col gap-5">
      {hasHeading && (
        <StepHeading title={STEP_TITLES[4]} description="Unos últimos detalles y tus mejores fotos entrenando." />
      )}
      {photos}
      <SubSection title="Salud">
        <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">
          Todo opcional. Altura y peso solo aparecen en tu perfil si los escribes.
        </p>
        <div className="grid grid-cols-2 gap-4">
          <NumberField
            label="Altura (cm)"
            placeholder={`Ej. ${DEFAULT_HEIGHT_CM}`}
            value={h.height}
            min={HEIGHT_MIN_CM}
            max={HEIGHT_MAX_CM}
            error={errors['health.height']}
            onChange={(value) =>
              onChange((d) => {
                d.health.height = value;
              })
            }
          />
          <NumberField
            label="Peso (kg)"
            placeholder={`Ej. ${DEFAULT_WEIGHT_KG}`}
            value={h.weight}
            min={WEIGHT_MIN_KG}
            max={WEIGHT_MAX_KG}
            error={errors['health.weight']}
            onChange={(value) =>
              onChange((d) => {
                d.health.weight = value;
              })
            }
          />
        </div>
        <ChipGroup
          legend="Lesiones"
          options={INJURY_OPTIONS}
          value={h.injuries}
          onChange={(next) =>
            onChange((d) => {
              d.health.injuries = next;
            })
          }
        />
        <ChipGroup
          legend="Preferencias alimentarias"
          options={DIETARY_PREFERENCE_OPTIONS}
          value={h.dietaryPreferences}
          onChange={(next) =>
            onChange((d) => {
              d.health.dietaryPreferences = next;
            })
          }
        />
        <p
          id="health-visibility"
          className="flex items-start gap-2 rounded-xl bg-white px-3 py-2.5 text-sm text-stone-700 ring-1 ring-stone-900/8 dark:bg-stone-900 dark:text-stone-300 dark:ring-white/10"
        >
          <LockIcon className="mt-0.5 size-4 shrink-0 text-stone-500 dark:text-stone-400" />
          <span>
            <strong className="font-semibold text-stone-900 dark:text-white">Quién lo ve:</strong> tus lesiones y tu
            alimentación solo las verán las personas con las que hagas match (tus entrenamientos). Nunca aparecen en
            Conectar.
          </span>
        </p>
      </SubSection>
      <SocialLinksSection draft={draft} errors={errors} onChange={onChange} />
    </div>
  );
}

/** Room for a pasted profile address; the handle inside it is checked by the shared schema. */
const SOCIAL_INPUT_MAX = 200;

const SOCIAL_FIELDS = [
  {
    network: 'instagram',
    label: 'Usuario de Instagram',
    placeholder: '@tu.usuario',
    hint: 'Tu usuario o el enlace a tu perfil.',
  },
  {
    network: 'spotify',
    label: 'Usuario de Spotify',
    placeholder: 'tu_usuario',
    hint: 'Tu usuario o el enlace a tu perfil de Spotify.',
  },
  {
    network: 'strava',
    label: 'Atleta de Strava',
    placeholder: '12345678',
    hint: 'El número de tu perfil de atleta o su enlace.',
  },
] as const;

/** The optional social links of the profile (spec 001 §3 social; rules in docs/decisions/0014). */
function SocialLinksSection({ draft, errors, onChange }: StepProps) {
  return (
    <SubSection title="Redes sociales (opcional)">
      <p className="-mt-2 text-sm text-stone-600 dark:text-stone-400">
        Se muestran en tu perfil para que tus compañeros puedan seguirte.
      </p>
      {SOCIAL_FIELDS.map((field) => (
        <TextField
          key={field.network}
          label={field.label}
          placeholder={field.placeholder}
          hint={field.hint}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          maxLength={SOCIAL_INPUT_MAX}
          value={draft.social[field.network]}
          onChange={(event) =>
            onChange((d) => {
              d.social[field.network] = event.target.value;
            })
          }
          error={errors[`social.${field.network}`] ?? (field.network === 'instagram' ? errors.social : undefined)}
        />
      ))}
    </SubSection>
  );
}
