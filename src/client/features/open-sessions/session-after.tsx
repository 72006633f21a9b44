import { Link } from '@tanstack/react-router';
import type { Attendance, AttendancePerson } from '#shared/open-sessions/open-session-after';
import type { OpenSession } from '#shared/open-sessions/open-session-schemas';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { PANEL } from './open-session-card.tsx';
import { connectWith, markAttendance, repeatSession } from './session-after-store.ts';

const TOGGLE = 'min-w-24 aria-pressed:ring-2 aria-pressed:ring-brand-700 dark:aria-pressed:ring-brand-400';

/** «Conectar» with one person who trained with the viewer, or the chat they already have. */
function Connection({
  session,
  person,
  isConnecting,
}: {
  session: OpenSession;
  person: AttendancePerson;
  isConnecting: boolean;
}) {
  const connection = person.connection;
  // A copy saved before «Conectar» existed has none.
  switch (connection?.status) {
    case 'connected':
      return (
        <Link
          to="/messages/$conversationId"
          params={{ conversationId: connection.conversationId }}
          aria-label={`Abrir chat con ${person.name}`}
          className={buttonClasses({ variant: 'secondary', size: 'sm' })}
        >
          Abrir chat
        </Link>
      );
    case 'available':
      return (
        <Button
          size="sm"
          variant="secondary"
          aria-label={`Conectar con ${person.name}`}
          isLoading={isConnecting}
          disabled={isConnecting}
          onClick={() => void connectWith(session, person.userId)}
        >
          {isConnecting ? 'Conectando…' : 'Conectar'}
        </Button>
      );
    default:
      return null;
  }
}

/** One person: «Vino» / «No vino», pressed as the viewer marked them; «Conectar» once both came. */
function PersonRow({
  session,
  person,
  canMark,
  isConnecting,
}: {
  session: OpenSession;
  person: AttendancePerson;
  canMark: boolean;
  isConnecting: boolean;
}) {
  const label = person.isHost ? `${person.name} (organiza)` : person.name;
  return (
    <li
      data-testid="attendance-person"
      className="flex flex-wrap items-center justify-between gap-2 border-t border-stone-200 py-3 first:border-t-0 dark:border-white/10"
    >
      <span className="flex min-w-0 items-center gap-3">
        {person.photo ? (
          <img src={person.photo} alt="" className="size-10 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="size-10 shrink-0 rounded-full bg-stone-200 dark:bg-white/10" />
        )}
        <span className="font-semibold text-stone-900 dark:text-white">{label}</span>
        <Connection session={session} person={person} isConnecting={isConnecting} />
      </span>
      {canMark ? (
        <fieldset className="flex gap-2">
          <legend className="sr-only">{`¿Vino ${person.name}?`}</legend>
          <Button
            size="sm"
            variant={person.came === true ? 'primary' : 'secondary'}
            className={TOGGLE}
            aria-pressed={person.came === true}
            onClick={() => void markAttendance(session, person.userId, true)}
          >
            Vino
          </Button>
          <Button
            size="sm"
            variant={person.came === false ? 'primary' : 'secondary'}
            className={TOGGLE}
            aria-pressed={person.came === false}
            onClick={() => void markAttendance(session, person.userId, false)}
          >
            No vino
          </Button>
        </fieldset>
      ) : (
        <span className="text-sm text-stone-600 dark:text-stone-300">
          {person.came === null ? 'Sin marcar' : person.came ? 'Vino' : 'No vino'}
        </span>
      )}
    </li>
  );
}

/**
 * «¿Quién vino?» after the session: the others in it, each with «Vino» / «No vino» while the marks
 * are open (7 days), then what the viewer marked. Marks count for everyone's reliability; two who
 * came may connect (a match without the deck).
 */
export function WhoCame({
  session,
  attendance,
  connecting,
}: {
  session: OpenSession;
  attendance: Attendance | null;
  /** The people a «Conectar» of this device still waits for. */
  connecting: readonly string[];
}) {
  return (
    <section className={PANEL} aria-labelledby="open-session-who-came">
      <h2 id="open-session-who-came" className="text-lg font-bold text-stone-900 dark:text-white">
        ¿Quién vino?
      </h2>
      {!attendance ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">Cargando participantes…</p>
      ) : attendance.people.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">No había nadie más en este entreno.</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-300">
            {attendance.canMark
              ? 'Marca quién entrenó contigo. Cuenta para las quedadas cumplidas de cada uno.'
              : 'Ya no se puede cambiar quién vino.'}{' '}
            Si los dos vinisteis, podéis conectar: se abre un chat entre los dos.
          </p>
          <ul className="mt-1">
            {attendance.people.map((person) => (
              <PersonRow
                key={person.userId}
                session={session}
                person={person}
                canMark={attendance.canMark}
                isConnecting={connecting.includes(person.userId)}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** «Repetir la próxima semana» for the host: one tap; then the way to the new session. */
export function RepeatNextWeek({ session, repeat }: { session: OpenSession; repeat: string | undefined }) {
  if (repeat) {
    return (
      <Link
        to="/entrenos/abiertos/$sessionId"
        params={{ sessionId: repeat }}
        className={buttonClasses({ variant: 'secondary', isFullWidth: true })}
      >
        Ver el entreno de la próxima semana
      </Link>
    );
  }
  return (
    <Button variant="secondary" isFullWidth isLoading={repeat === ''} onClick={() => void repeatSession(session)}>
      {repeat === '' ? 'Repitiendo…' : 'Repetir la próxima semana'}
    </Button>
  );
}
