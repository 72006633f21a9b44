/** Profile step 2, «Información del Gimnasio» (spec 001 §2): the gym, found by search, and when. */
import { useEffect, useId, useRef, useState } from 'react';
import type { GymSuggestion } from '#shared/discovery/discovery-schemas';
import { distanceText } from '#shared/discovery/distance';
import {
  GYM_NAME_MAX,
  GYM_SEARCH_MIN_CHARS,
  MEMBERSHIP_TYPE_OPTIONS,
  TRAINING_SCHEDULE_OPTIONS,
} from '#shared/profile/options';
import { MapPinIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { ChipGroup, ChoiceGroup, StepHeading } from './form-parts.tsx';
import { searchGyms } from './profile-api.ts';
import { type StepProps, STEP_TITLES } from './step-props.ts';

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
