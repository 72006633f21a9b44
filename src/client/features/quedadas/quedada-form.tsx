import { type FormEvent, useEffect, useId, useState } from 'react';
import * as v from 'valibot';
import type { GymSuggestion } from '#shared/discovery/discovery-schemas';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import {
  ProposeQuedadaRequestSchema,
  QUEDADA_ACTIVITY_MAX,
  QUEDADA_DURATION_MAX,
  QUEDADA_GYM_NAME_MAX,
  QUEDADA_HORIZON_DAYS,
  QUEDADA_NOTE_MAX,
  type QuedadaSuggestions,
} from '#shared/quedadas/quedada-schemas';
import { startProblem } from '#shared/quedadas/quedada-state';
import { durationText, instantToMadridLocal, madridLocalToInstant, nextSlotTimes } from '#shared/quedadas/quedada-time';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { quedadaApi } from './quedada-api.ts';

const DURATIONS = [30, 45, 60, 75, 90, 120, 150, 180, 240, 300, QUEDADA_DURATION_MAX];
const FIELD =
  'w-full rounded-xl border border-stone-300 bg-white px-3 py-2.5 text-[0.9375rem] text-stone-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30 dark:border-white/15 dark:bg-stone-900 dark:text-white';
const LABEL = 'mb-1 block text-sm font-semibold text-stone-800 dark:text-stone-100';
const CHIP =
  'rounded-full px-3 py-1.5 text-sm font-medium ring-1 ring-inset focus-visible:outline-2 focus-visible:outline-brand-600';
const chipClass = (isOn: boolean) =>
  cx(
    CHIP,
    isOn
      ? 'bg-brand-700 text-white ring-brand-700 dark:bg-brand-500 dark:text-stone-950'
      : 'bg-white text-stone-800 ring-stone-300 hover:bg-stone-50 dark:bg-stone-800 dark:text-stone-100 dark:ring-white/15',
  );

export type QuedadaFormValues = {
  gymName: string;
  gymAddress?: string;
  startsAt: string;
  durationMin: number;
  activity: string;
  note?: string;
};

type Initial = Partial<Pick<QuedadaFormValues, 'gymName' | 'activity' | 'startsAt' | 'durationMin'>>;

/** Tomorrow at 18:30 in Madrid: the form's starting point when nothing better is known. */
function defaultStart(): { day: string; time: string } {
  return { day: instantToMadridLocal(new Date(Date.now() + 86_400_000)).day, time: '18:30' };
}

/**
 * "Proponer entreno" and "Proponer otra hora" (issue #21): a dialog (focus trapped, Escape
 * closes). The two profiles' gyms and shared availability come first ("Los dos podéis: …");
 * every value is checked with the shared schema before anything is queued.
 */
export function QuedadaForm({
  mode,
  conversationId,
  initial = {},
  onClose,
  onSubmit,
}: {
  mode: 'propose' | 'counter';
  conversationId: string;
  initial?: Initial;
  onClose: () => void;
  onSubmit: (values: QuedadaFormValues) => void;
}) {
  const id = useId();
  const start = initial.startsAt ? instantToMadridLocal(initial.startsAt) : defaultStart();
  const [gymName, setGymName] = useState(initial.gymName ?? '');
  const [gymAddress, setGymAddress] = useState('');
  const [day, setDay] = useState(start.day);
  const [time, setTime] = useState(start.time);
  const [durationMin, setDurationMin] = useState(initial.durationMin ?? 90);
  const [activity, setActivity] = useState(initial.activity ?? '');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  const [suggestions, setSuggestions] = useState<QuedadaSuggestions | null>(null);
  const [found, setFound] = useState<GymSuggestion[]>([]);
  const isPropose = mode === 'propose';

  useEffect(() => {
    let isCurrent = true;
    quedadaApi
      .suggestions(conversationId)
      .then((answer) => {
        if (!isCurrent) return;
        setSuggestions(answer.suggestions);
        const first = answer.suggestions.gyms[0];
        if (isPropose && first) {
          setGymName((current) => current || first.name);
          setGymAddress((current) => current || (first.address ?? ''));
        }
        if (isPropose) setActivity((current) => current || (answer.suggestions.activities[0] ?? ''));
      })
      .catch(() => {
        // Offline or refused: the form works without suggestions.
      });
    return () => {
      isCurrent = false;
    };
  }, [conversationId, isPropose]);

  useEffect(() => {
    if (!isPropose || gymName.trim().length < 3 || suggestions?.gyms.some((gym) => gym.name === gymName)) {
      setFound([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      void quedadaApi.searchGyms(gymName.trim(), controller.signal).then((gyms) => setFound(gyms.slice(0, 4)));
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [gymName, isPropose, suggestions]);

  const slotTimes = suggestions ? nextSlotTimes(suggestions.sharedSlots, new Date()) : [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const instant = madridLocalToInstant(day, time);
    if (!instant) return setError(QUEDADA_MESSAGES.startsAt);
    const problem = startProblem(instant.toISOString(), new Date(), QUEDADA_HORIZON_DAYS);
    if (problem) return setError(QUEDADA_MESSAGES[problem]);
    const values: QuedadaFormValues = {
      gymName: isPropose ? gymName : (initial.gymName ?? ''),
      ...(isPropose && gymAddress.trim() ? { gymAddress: gymAddress.trim() } : {}),
      startsAt: instant.toISOString(),
      durationMin,
      activity: isPropose ? activity : (initial.activity ?? ''),
      ...(isPropose && note.trim() ? { note: note.trim() } : {}),
    };
    const parsed = v.safeParse(ProposeQuedadaRequestSchema, { ...values, clientId: 'check', conversationId });
    if (!parsed.success) return setError(parsed.issues[0]?.message ?? QUEDADA_MESSAGES.invalidQuedada);
    setError('');
    onSubmit(values);
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title={isPropose ? 'Proponer entreno' : 'Proponer otra hora'}
      description={suggestions?.sharedText ?? undefined}
      size="md"
    >
      <form id={`${id}-form`} onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {isPropose && (
          <div>
            <label htmlFor={`${id}-gym`} className={LABEL}>
              Gimnasio
            </label>
            {suggestions && suggestions.gyms.length > 0 && (
              <fieldset className="mb-2 flex flex-wrap gap-2">
                <legend className="sr-only">Gimnasios de vuestros perfiles</legend>
                {suggestions.gyms.map((gym) => (
                  <button
                    key={gym.name}
                    type="button"
                    aria-pressed={gymName === gym.name}
                    className={chipClass(gymName === gym.name)}
                    onClick={() => {
                      setGymName(gym.name);
                      setGymAddress(gym.address ?? '');
                    }}
                  >
                    {gym.name}
                  </button>
                ))}
              </fieldset>
            )}
            <input
              id={`${id}-gym`}
              className={FIELD}
              value={gymName}
              maxLength={QUEDADA_GYM_NAME_MAX}
              autoComplete="off"
              onChange={(event) => {
                setGymName(event.target.value);
                setGymAddress('');
              }}
            />
            {found.length > 0 && (
              <ul className="mt-1 flex flex-col gap-1" aria-label="Gimnasios encontrados">
                {found.map((gym) => (
                  <li key={`${gym.name}-${gym.address}`}>
                    <button
                      type="button"
                      className="w-full rounded-lg px-2 py-1.5 text-left text-sm hover:bg-stone-100 dark:hover:bg-white/8"
                      onClick={() => {
                        setGymName(gym.name.slice(0, QUEDADA_GYM_NAME_MAX));
                        setGymAddress([gym.address, gym.city].filter(Boolean).join(', '));
                        setFound([]);
                      }}
                    >
                      <span className="font-semibold">{gym.name}</span>
                      <span className="block text-xs text-stone-600 dark:text-stone-400">
                        {[gym.address, gym.city].filter(Boolean).join(', ')}
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
        {slotTimes.length > 0 && (
          <fieldset className="flex flex-wrap gap-2">
            <legend className="sr-only">Horas que os vienen bien a los dos</legend>
            {slotTimes.map((slot) => (
              <button
                key={`${slot.day}-${slot.time}`}
                type="button"
                aria-pressed={day === slot.day && time === slot.time}
                className={chipClass(day === slot.day && time === slot.time)}
                onClick={() => {
                  setDay(slot.day);
                  setTime(slot.time);
                }}
              >
                {slot.slot} · {slot.day.slice(8)}/{slot.day.slice(5, 7)}
              </button>
            ))}
          </fieldset>
        )}
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor={`${id}-day`} className={LABEL}>
              Día
            </label>
            <input
              id={`${id}-day`}
              type="date"
              className={FIELD}
              value={day}
              onChange={(event) => setDay(event.target.value)}
            />
          </div>
          <div>
            <label htmlFor={`${id}-time`} className={LABEL}>
              Hora
            </label>
            <input
              id={`${id}-time`}
              type="time"
              className={FIELD}
              value={time}
              onChange={(event) => setTime(event.target.value)}
            />
          </div>
        </div>
        <div>
          <label htmlFor={`${id}-duration`} className={LABEL}>
            Duración
          </label>
          <select
            id={`${id}-duration`}
            className={FIELD}
            value={durationMin}
            onChange={(event) => setDurationMin(Number(event.target.value))}
          >
            {DURATIONS.map((minutes) => (
              <option key={minutes} value={minutes}>
                {durationText(minutes)}
              </option>
            ))}
          </select>
        </div>
        {isPropose && (
          <div>
            <label htmlFor={`${id}-activity`} className={LABEL}>
              Qué vais a entrenar
            </label>
            {suggestions && suggestions.activities.length > 0 && (
              <fieldset className="mb-2 flex flex-wrap gap-2">
                <legend className="sr-only">Sugerencias de vuestros perfiles</legend>
                {suggestions.activities.map((option) => (
                  <button
                    key={option}
                    type="button"
                    aria-pressed={activity === option}
                    className={chipClass(activity === option)}
                    onClick={() => setActivity(option)}
                  >
                    {option}
                  </button>
                ))}
              </fieldset>
            )}
            <input
              id={`${id}-activity`}
              className={FIELD}
              value={activity}
              maxLength={QUEDADA_ACTIVITY_MAX}
              placeholder="Pierna, Fuerza, Rodaje 10 km…"
              onChange={(event) => setActivity(event.target.value)}
            />
          </div>
        )}
        {isPropose && (
          <div>
            <label htmlFor={`${id}-note`} className={LABEL}>
              Nota (opcional)
            </label>
            <textarea
              id={`${id}-note`}
              rows={2}
              className={cx(FIELD, 'resize-none')}
              value={note}
              maxLength={QUEDADA_NOTE_MAX}
              onChange={(event) => setNote(event.target.value)}
            />
          </div>
        )}
        {error && (
          <p role="alert" className="text-sm font-semibold text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <div className="mt-2 flex flex-col-reverse gap-2.5 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button type="submit">{isPropose ? 'Proponer' : 'Enviar nueva hora'}</Button>
        </div>
      </form>
    </Dialog>
  );
}
