import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import * as v from 'valibot';
import {
  OPEN_SESSION_APPROVALS,
  OPEN_SESSION_LEVELS,
  OPEN_SESSION_MESSAGES,
  OPEN_SESSION_PLACES_MAX,
  OPEN_SESSION_PLACES_MIN,
  OPEN_SESSION_VISIBILITIES,
  type OpenSessionApproval,
  type OpenSessionLevel,
  type OpenSessionVisibility,
  openSessionLevelLabel,
  PublishOpenSessionRequestSchema,
} from '#shared/open-sessions/open-session-schemas';
import { QUEDADA_MESSAGES } from '#shared/quedadas/quedada-messages';
import { QUEDADA_HORIZON_DAYS } from '#shared/quedadas/quedada-schemas';
import { startProblem } from '#shared/quedadas/quedada-state';
import { defaultStartLocal, madridLocalToInstant } from '#shared/quedadas/quedada-time';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import {
  ActivityInput,
  chipClass,
  DayTimeFields,
  DurationField,
  FormError,
  NoteField,
  FIELD,
  GymSearchInput,
  LABEL,
  LabelledField,
} from '../../ui/form-fields.tsx';
import { searchGyms } from '../../services/gym-search.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { PANEL } from './open-session-card.tsx';
import { publishOpenSession } from './open-session-store.ts';
import { ScreenHeader } from './open-sessions-screen.tsx';

const searchGymsByName = (query: string, signal: AbortSignal) => searchGyms(query, null, signal);

const PLACE_OPTIONS = Array.from(
  { length: OPEN_SESSION_PLACES_MAX - OPEN_SESSION_PLACES_MIN + 1 },
  (_, index) => index + OPEN_SESSION_PLACES_MIN,
);

const VISIBILITY_LABELS: Record<OpenSessionVisibility, string> = {
  matches: 'Mis matches',
  nearby: 'Gente cerca que encaja conmigo',
};
const APPROVAL_LABELS: Record<OpenSessionApproval, string> = {
  host: 'Apruebo cada solicitud',
  first: 'Por orden de llegada',
};

function Chips<T extends string>(props: {
  legend: string;
  options: readonly T[];
  value: T;
  label: (option: T) => string;
  onChange: (option: T) => void;
}) {
  return (
    <fieldset>
      <legend className={LABEL}>{props.legend}</legend>
      <div className="flex flex-wrap gap-2">
        {props.options.map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={props.value === option}
            className={chipClass(props.value === option)}
            onClick={() => props.onChange(option)}
          >
            {props.label(option)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * «Publicar entreno abierto» (issue #35): a gym (the gyms search), day and time in Madrid time,
 * duration, activity, level, places besides the host, a note, who sees it and how places go.
 * Checked with the shared schema, then queued in the outbox (offline too).
 */
export function PublishScreen() {
  usePageTitle('Publicar entreno abierto');
  const id = useId();
  const navigate = useNavigate();
  const start = defaultStartLocal(new Date());
  const [gymName, setGymName] = useState('');
  const [gymAddress, setGymAddress] = useState('');
  const [day, setDay] = useState(start.day);
  const [time, setTime] = useState(start.time);
  const [durationMin, setDurationMin] = useState(60);
  const [activity, setActivity] = useState('');
  const [level, setLevel] = useState<OpenSessionLevel>('all');
  const [places, setPlaces] = useState(3);
  const [note, setNote] = useState('');
  const [visibility, setVisibility] = useState<OpenSessionVisibility>('nearby');
  const [approval, setApproval] = useState<OpenSessionApproval>('host');
  const [error, setError] = useState('');
  const [isSending, setIsSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const instant = madridLocalToInstant(day, time);
    if (!instant) return setError(QUEDADA_MESSAGES.startsAt);
    const problem = startProblem(instant.toISOString(), new Date(), QUEDADA_HORIZON_DAYS);
    if (problem === 'startsInPast' || problem === 'startsTooFar') return setError(OPEN_SESSION_MESSAGES[problem]);
    if (problem) return setError(QUEDADA_MESSAGES.startsAt);
    const input = {
      gymName: gymName.trim(),
      ...(gymAddress.trim() ? { gymAddress: gymAddress.trim() } : {}),
      startsAt: instant.toISOString(),
      durationMin,
      activity: activity.trim(),
      level,
      places,
      ...(note.trim() ? { note: note.trim() } : {}),
      visibility,
      approval,
    };
    const parsed = v.safeParse(PublishOpenSessionRequestSchema, { ...input, clientId: 'check' });
    if (!parsed.success) return setError(parsed.issues[0]?.message ?? OPEN_SESSION_MESSAGES.invalidSession);
    setError('');
    setIsSending(true);
    const isQueued = await publishOpenSession(input);
    setIsSending(false);
    if (!isQueued) return setError('No se pudo guardar el entreno. Vuelve a intentarlo');
    await navigate({ to: '/entrenos/abiertos' });
  };

  return (
    <div className="flex flex-col gap-5">
      <ScreenHeader back="/entrenos/abiertos" backLabel="Volver a Entrenos abiertos" title="Publicar entreno abierto" />
      <form onSubmit={(event) => void submit(event)} className={cx(PANEL, 'flex flex-col gap-4')} noValidate>
        <LabelledField id={`${id}-gym`} label="Gimnasio o lugar">
          <GymSearchInput
            id={`${id}-gym`}
            name={gymName}
            placeholder="Busca tu gimnasio"
            isSearchable={!gymAddress}
            search={searchGymsByName}
            onChange={(gym) => {
              setGymName(gym.name);
              setGymAddress(gym.address);
            }}
          />
          {gymAddress && <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">{gymAddress}</p>}
        </LabelledField>
        <DayTimeFields id={id} day={day} time={time} onDay={setDay} onTime={setTime} />
        <div className="grid grid-cols-2 gap-3">
          <DurationField id={id} value={durationMin} onChange={setDurationMin} />
          <LabelledField id={`${id}-places`} label="Plazas además de ti">
            <select
              id={`${id}-places`}
              className={FIELD}
              value={places}
              onChange={(event) => setPlaces(Number(event.target.value))}
            >
              {PLACE_OPTIONS.map((count) => (
                <option key={count} value={count}>
                  {count}
                </option>
              ))}
            </select>
          </LabelledField>
        </div>
        <LabelledField id={`${id}-activity`} label="Qué vais a entrenar">
          <ActivityInput id={`${id}-activity`} value={activity} onChange={setActivity} />
        </LabelledField>
        <Chips
          legend="Nivel"
          options={OPEN_SESSION_LEVELS}
          value={level}
          label={openSessionLevelLabel}
          onChange={setLevel}
        />
        <Chips
          legend="Quién lo ve"
          options={OPEN_SESSION_VISIBILITIES}
          value={visibility}
          label={(option) => VISIBILITY_LABELS[option]}
          onChange={setVisibility}
        />
        <Chips
          legend="Cómo se ocupan las plazas"
          options={OPEN_SESSION_APPROVALS}
          value={approval}
          label={(option) => APPROVAL_LABELS[option]}
          onChange={setApproval}
        />
        <NoteField id={id} value={note} onChange={setNote} />
        <FormError message={error} />
        <Button type="submit" isLoading={isSending} isFullWidth>
          Publicar
        </Button>
      </form>
    </div>
  );
}
