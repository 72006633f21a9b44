import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import * as v from 'valibot';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import {
  ProposeQuedadaRequestSchema,
  QUEDADA_HORIZON_DAYS,
  type QuedadaSuggestions,
} from '#shared/quedadas/quedada-schemas';
import { startProblem } from '#shared/quedadas/quedada-state';
import {
  defaultStartLocal,
  instantToMadridLocal,
  madridLocalToInstant,
  nextSlotTimes,
} from '#shared/quedadas/quedada-time';
import { Button } from '../../ui/button.tsx';
import {
  ActivityInput,
  chipClass,
  DayTimeFields,
  DurationField,
  FormError,
  NoteField,
  GymSearchInput,
  LABEL,
} from '../../ui/form-fields.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { quedadaApi } from './quedada-api.ts';

export type QuedadaFormValues = {
  gymName: string;
  gymAddress?: string;
  startsAt: string;
  durationMin: number;
  activity: string;
  note?: string;
};

type Initial = Partial<Pick<QuedadaFormValues, 'gymName' | 'activity' | 'startsAt' | 'durationMin'>>;

const searchGymsByName = (query: string, signal: AbortSignal) => quedadaApi.searchGyms(query, signal);

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
  const start = initial.startsAt ? instantToMadridLocal(initial.startsAt) : defaultStartLocal(new Date());
  const [gymName, setGymName] = useState(initial.gymName ?? '');
  const [gymAddress, setGymAddress] = useState('');
  const [day, setDay] = useState(start.day);
  const [time, setTime] = useState(start.time);
  const [durationMin, setDurationMin] = useState(initial.durationMin ?? 90);
  const [activity, setActivity] = useState(initial.activity ?? '');
  const [note, setNote] = useState('');
  const [error, setError] = useState('');
  // Until the person picks a time, the form follows the first time both can (issue #34).
  const hasPickedTime = useRef(!!initial.startsAt);
  const [suggestions, setSuggestions] = useState<QuedadaSuggestions | null>(null);
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
        // The hint says «Los dos podéis: viernes por la mañana»: the fields start there, not on a default.
        const [firstSlot] = nextSlotTimes(answer.suggestions.sharedSlots, new Date());
        if (firstSlot && !hasPickedTime.current) {
          setDay(firstSlot.day);
          setTime(firstSlot.time);
        }
      })
      .catch(() => {
        // Offline or refused: the form works without suggestions.
      });
    return () => {
      isCurrent = false;
    };
  }, [conversationId, isPropose]);

  const slotTimes = suggestions ? nextSlotTimes(suggestions.sharedSlots, new Date()) : [];
  const pickDay = (next: string) => {
    hasPickedTime.current = true;
    setDay(next);
  };
  const pickTime = (next: string) => {
    hasPickedTime.current = true;
    setTime(next);
  };

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
      isTitleFocused
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
            <GymSearchInput
              id={`${id}-gym`}
              name={gymName}
              isSearchable={isPropose && !suggestions?.gyms.some((gym) => gym.name === gymName)}
              search={searchGymsByName}
              onChange={(gym) => {
                setGymName(gym.name);
                setGymAddress(gym.address);
              }}
            />
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
                  pickDay(slot.day);
                  pickTime(slot.time);
                }}
              >
                {slot.slot} · {slot.day.slice(8)}/{slot.day.slice(5, 7)}
              </button>
            ))}
          </fieldset>
        )}
        <DayTimeFields id={id} day={day} time={time} onDay={pickDay} onTime={pickTime} />
        <DurationField id={id} value={durationMin} onChange={setDurationMin} />
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
            <ActivityInput id={`${id}-activity`} value={activity} onChange={setActivity} />
          </div>
        )}
        {isPropose && <NoteField id={id} value={note} onChange={setNote} />}
        <FormError message={error} />
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
