/**
 * /config «Preferencias de búsqueda»: «A quién te sugerimos en Conectar» (docs/decisions/0050).
 * Every control changes the deck. «Distancia máxima» and «Mostrar» are the profile's own distance
 * and gender preference (decisions 0027, 0050), handed in by the route once a profile exists;
 * «Nivel de experiencia» and «Horario preferido» are settings the deck filters on.
 */
import { useId } from 'react';
import {
  type PREFERRED_GENDERS,
  type PREFERRED_SCHEDULES,
  type SEARCH_EXPERIENCE_LEVELS,
  SEARCH_MAX_DISTANCE_MAX,
  SEARCH_MAX_DISTANCE_MIN,
  type Settings,
  type SettingsPatch,
} from '#shared/settings/settings-schema';
import { FIELD_LABEL, SELECT, Section } from './settings-layout.tsx';
import { settingsStore } from './settings-live.ts';

const GENDER_LABELS: Record<(typeof PREFERRED_GENDERS)[number], string> = {
  all: 'Todos',
  male: 'Hombres',
  female: 'Mujeres',
};
const LEVEL_LABELS: Record<(typeof SEARCH_EXPERIENCE_LEVELS)[number], string> = {
  all: 'Todos los niveles',
  beginner: 'Principiante',
  intermediate: 'Intermedio',
  advanced: 'Avanzado',
};
const SCHEDULE_LABELS: Record<(typeof PREFERRED_SCHEDULES)[number], string> = {
  flexible: 'Flexible',
  morning: 'Mañana (6-12 h)',
  afternoon: 'Tarde (12-18 h)',
  evening: 'Noche (18-23 h)',
};

function SelectField<TValue extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: TValue;
  options: Record<TValue, string>;
  onChange: (value: TValue) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={FIELD_LABEL}>
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as TValue)} className={SELECT}>
        {(Object.keys(options) as TValue[]).map((key) => (
          <option key={key} value={key}>
            {options[key]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The deck's maximum distance when it is known (the profile's, the one the deck uses: decision
 * 0027), shown and changed here as in the deck's "Ajustar Preferencias"; null before a profile
 * exists, when the slider keeps the settings' own value (spec default 25).
 */
export type SearchDistanceBinding = { value: number; onChange: (km: number) => void } | null;

function DistanceSlider({ value, onChange }: { value: number; onChange: (km: number) => void }) {
  const id = useId();
  return (
    <div>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className={FIELD_LABEL}>
          Distancia máxima
        </label>
        <output htmlFor={id} className="text-sm font-bold tabular-nums text-brand-800 dark:text-brand-300">
          {`${value} km`}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={SEARCH_MAX_DISTANCE_MIN}
        max={SEARCH_MAX_DISTANCE_MAX}
        step={1}
        value={value}
        aria-valuetext={`${value} km`}
        onChange={(event) => onChange(Number(event.target.value))}
        className="mt-2 h-2 w-full cursor-pointer accent-brand-700 dark:accent-brand-500"
      />
      <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-stone-600 dark:text-stone-400">
        <span>{`${SEARCH_MAX_DISTANCE_MIN} km`}</span>
        <span>{`${SEARCH_MAX_DISTANCE_MAX} km`}</span>
      </div>
    </div>
  );
}

/** «Mostrar» as the profile's gender preference once a profile exists («Todos» is «Ambos»); null before. */
export type SearchGenderBinding = {
  value: (typeof PREFERRED_GENDERS)[number];
  onChange: (value: (typeof PREFERRED_GENDERS)[number]) => void;
} | null;

export function SearchPreferencesSection({
  settings,
  searchDistance,
  searchGender,
  update,
}: {
  settings: Settings;
  searchDistance: SearchDistanceBinding;
  searchGender: SearchGenderBinding;
  update: (patch: SettingsPatch) => Promise<boolean>;
}) {
  return (
    <Section id="busqueda" description="A quién te sugerimos en Conectar.">
      <DistanceSlider
        value={searchDistance?.value ?? settings.search.maxDistance}
        onChange={searchDistance?.onChange ?? settingsStore.setMaxDistance}
      />
      <SelectField
        label="Mostrar"
        value={searchGender?.value ?? settings.search.preferredGender}
        options={GENDER_LABELS}
        onChange={searchGender?.onChange ?? ((preferredGender) => void update({ search: { preferredGender } }))}
      />
      <SelectField
        label="Nivel de experiencia"
        value={settings.search.experienceLevel}
        options={LEVEL_LABELS}
        onChange={(experienceLevel) => void update({ search: { experienceLevel } })}
      />
      <SelectField
        label="Horario preferido"
        value={settings.search.preferredSchedule}
        options={SCHEDULE_LABELS}
        onChange={(preferredSchedule) => void update({ search: { preferredSchedule } })}
      />
    </Section>
  );
}
