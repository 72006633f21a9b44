/** The form pieces the planning forms share (a quedada, an open session): field and label styles, chips, gym answers. */
import { type ReactNode, useEffect, useState } from 'react';
import type { GymSuggestion } from '#shared/discovery/discovery-schemas';
import {
  QUEDADA_ACTIVITY_MAX,
  QUEDADA_DURATION_CHOICES,
  QUEDADA_GYM_NAME_MAX,
  QUEDADA_NOTE_MAX,
} from '#shared/quedadas/quedada-schemas';
import { durationText } from '#shared/quedadas/quedada-time';
import { cx } from './cx.ts';

export const FIELD =
  'w-full rounded-xl border border-stone-300 bg-white px-3 py-2.5 text-[0.9375rem] text-stone-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 dark:border-white/15 dark:bg-stone-900 dark:text-white';
export const LABEL = 'mb-1 block text-sm font-semibold text-stone-800 dark:text-stone-100';
const CHIP =
  'rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-brand-600';
export const chipClass = (isOn: boolean) =>
  cx(
    CHIP,
    isOn
      ? 'bg-brand-700 text-white ring-brand-700 dark:bg-brand-500 dark:text-stone-950'
      : 'bg-white text-stone-800 ring-stone-300 hover:bg-stone-50 dark:bg-stone-800 dark:text-stone-100 dark:ring-white/15',
  );

/** The gym search's answers under a gym field; a pick gives the name (cut to the limit) and the address line. */
export function GymResults({
  found,
  onPick,
}: {
  found: readonly GymSuggestion[];
  onPick: (gym: { name: string; address: string }) => void;
}) {
  if (found.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-1" aria-label="Gimnasios encontrados">
      {found.map((gym) => (
        <li key={`${gym.name}-${gym.address}`}>
          <button
            type="button"
            className="w-full rounded-lg px-2 py-1.5 text-left text-sm hover:bg-stone-100 dark:hover:bg-white/8"
            onClick={() =>
              onPick({
                name: gym.name.slice(0, QUEDADA_GYM_NAME_MAX),
                address: [gym.address, gym.city].filter(Boolean).join(', '),
              })
            }
          >
            <span className="font-semibold">{gym.name}</span>
            <span className="block text-xs text-stone-600 dark:text-stone-400">
              {[gym.address, gym.city].filter(Boolean).join(', ')}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A label over its control. */
export function LabelledField({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className={LABEL}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** «Día» and «Hora» side by side (Madrid local values, as the planning forms keep them). */
export function DayTimeFields(props: {
  id: string;
  day: string;
  time: string;
  onDay: (day: string) => void;
  onTime: (time: string) => void;
}) {
  return (
    <div className="grid grid-cols-2 gap-3">
      <LabelledField id={`${props.id}-day`} label="Día">
        <input
          id={`${props.id}-day`}
          type="date"
          className={FIELD}
          value={props.day}
          onChange={(event) => props.onDay(event.target.value)}
        />
      </LabelledField>
      <LabelledField id={`${props.id}-time`} label="Hora">
        <input
          id={`${props.id}-time`}
          type="time"
          className={FIELD}
          value={props.time}
          onChange={(event) => props.onTime(event.target.value)}
        />
      </LabelledField>
    </div>
  );
}

/** «Duración»: the planning forms' choices. */
export function DurationField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: number;
  onChange: (minutes: number) => void;
}) {
  return (
    <LabelledField id={`${id}-duration`} label="Duración">
      <select
        id={`${id}-duration`}
        className={FIELD}
        value={value}
        onChange={(event) => onChange(Number(event.target.value))}
      >
        {QUEDADA_DURATION_CHOICES.map((minutes) => (
          <option key={minutes} value={minutes}>
            {durationText(minutes)}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}

/**
 * A gym name field that asks the gyms search (`search`, debounced 300 ms, the first four answers)
 * while `isSearchable` and three or more characters are typed; a pick gives name and address.
 */
export function GymSearchInput(props: {
  id: string;
  name: string;
  placeholder?: string;
  isSearchable: boolean;
  search: (query: string, signal: AbortSignal) => Promise<GymSuggestion[]>;
  /** Typing clears the address; a pick gives both. */
  onChange: (gym: { name: string; address: string }) => void;
}) {
  const { name, isSearchable, search } = props;
  const [found, setFound] = useState<GymSuggestion[]>([]);
  useEffect(() => {
    if (!isSearchable || name.trim().length < 3) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void search(name.trim(), controller.signal).then((gyms) => setFound(gyms.slice(0, 4)));
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [name, isSearchable, search]);
  return (
    <>
      <input
        id={props.id}
        className={FIELD}
        value={name}
        maxLength={QUEDADA_GYM_NAME_MAX}
        autoComplete="off"
        placeholder={props.placeholder}
        onChange={(event) => props.onChange({ name: event.target.value, address: '' })}
      />
      <GymResults
        found={found}
        onPick={(gym) => {
          props.onChange(gym);
          setFound([]);
        }}
      />
    </>
  );
}

/** «Nota (opcional)»: two lines, the planning forms' limit. */
export function NoteField({ id, value, onChange }: { id: string; value: string; onChange: (note: string) => void }) {
  return (
    <LabelledField id={`${id}-note`} label="Nota (opcional)">
      <textarea
        id={`${id}-note`}
        rows={2}
        className={cx(FIELD, 'resize-none')}
        value={value}
        maxLength={QUEDADA_NOTE_MAX}
        onChange={(event) => onChange(event.target.value)}
      />
    </LabelledField>
  );
}

/** A form's refusal, read out as it appears. */
export function FormError({ message }: { message: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="text-sm font-semibold text-red-700 dark:text-red-400">
      {message}
    </p>
  );
}

/** What will be trained: the planning forms' activity input. */
export function ActivityInput({
  id,
  value,
  onChange,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <input
      id={id}
      className={FIELD}
      value={value}
      maxLength={QUEDADA_ACTIVITY_MAX}
      placeholder="Pierna, Fuerza, Rodaje 10 km…"
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
