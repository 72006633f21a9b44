import { Link } from '@tanstack/react-router';
import { type OpenSession, openSessionLevelLabel } from '#shared/open-sessions/open-session-schemas';
import { durationText, quedadaWhen } from '#shared/quedadas/quedada-time';
import { cx } from '../../ui/cx.ts';
import { CalendarIcon, DumbbellIcon, MapPinIcon, UsersIcon } from '../../ui/icons.tsx';

export const PANEL = 'rounded-3xl bg-white p-4 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8';
const BADGE = 'rounded-full px-2.5 py-0.5 text-xs font-bold ring-1 ring-inset';

/** What the viewer's place reads as, on the card and the detail. */
export function stateLabel(session: Pick<OpenSession, 'status' | 'myState' | 'isFull' | 'isInvited'>): string | null {
  if (session.status === 'cancelled') return 'Cancelado';
  if (session.status === 'removed') return 'Retirado';
  switch (session.myState) {
    case 'host':
      return 'Lo organizas tú';
    case 'approved':
      return 'Estás dentro';
    case 'requested':
      return 'Solicitud enviada';
    case 'declined':
      return 'Solicitud no aceptada';
    case 'removed':
      return 'Ya no estás en este entreno';
    default:
      if (session.isFull) return 'Completo';
      return session.isInvited ? 'Te han invitado' : null;
  }
}

/** The session's facts: activity, when, where, places, level. Never a position: the deck's distance text. */
export function OpenSessionFacts({ session }: { session: OpenSession }) {
  const free = Math.max(0, session.places - session.taken);
  return (
    <>
      <p className="flex items-center gap-2 text-base font-bold text-stone-900 dark:text-white">
        <DumbbellIcon className="size-5 shrink-0 text-brand-700 dark:text-brand-400" />
        {session.activity}
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
        <CalendarIcon className="size-4 shrink-0" />
        <span>
          <time dateTime={session.startsAt}>{quedadaWhen(session.startsAt)}</time> · {durationText(session.durationMin)}
        </span>
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
        <MapPinIcon className="size-4 shrink-0" />
        <span>
          {session.gymName}
          {session.distanceText ? ` · ${session.distanceText}` : ''}
        </span>
      </p>
      <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
        <UsersIcon className="size-4 shrink-0" />
        <span>
          {session.isFull ? 'Completo' : `${free} ${free === 1 ? 'plaza libre' : 'plazas libres'} de ${session.places}`}{' '}
          · {openSessionLevelLabel(session.level)}
        </span>
      </p>
    </>
  );
}

/** One session in a list: a link to its detail. */
export function OpenSessionCard({ session }: { session: OpenSession }) {
  const label = stateLabel(session);
  return (
    <li data-testid="open-session">
      <Link
        to="/entrenos/abiertos/$sessionId"
        params={{ sessionId: session._id }}
        className={cx(PANEL, 'block hover:ring-brand-300 focus-visible:outline-2 focus-visible:outline-brand-600')}
      >
        <div className="mb-1 flex items-center justify-between gap-2">
          <span className="text-sm font-semibold text-stone-600 dark:text-stone-300">Con {session.host.name}</span>
          {label && (
            <span
              className={cx(
                BADGE,
                session.isFull || session.status !== 'open'
                  ? 'bg-stone-100 text-stone-700 ring-stone-300 dark:bg-white/8 dark:text-stone-200 dark:ring-white/15'
                  : 'bg-brand-50 text-brand-800 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-200 dark:ring-brand-500/25',
              )}
            >
              {label}
            </span>
          )}
        </div>
        <OpenSessionFacts session={session} />
      </Link>
    </li>
  );
}
