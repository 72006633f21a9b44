import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { endOf } from '#shared/quedadas/quedada-state';
import { durationText, quedadaWhen } from '#shared/quedadas/quedada-time';
import { readAllQuedadas, readPartnerNames, type StoredQuedada, type StoredShare } from '../../services/local-db.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { buttonClasses } from '../../ui/button.tsx';
import { ArrowLeftIcon, CalendarIcon, DumbbellIcon, MapPinIcon, SquarePlusIcon, UsersIcon } from '../../ui/icons.tsx';
import { backLinkClasses } from '../../ui/link-classes.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { downloadCalendar, refreshUpcoming } from './quedada-store.ts';
import { SharePanel } from './share-panel.tsx';
import { awaitsCheckIn, readAllShares } from './share-store.ts';

const EMPTY: StoredQuedada[] = [];
const NO_NAMES: Record<string, string> = {};
const NO_SHARES: StoredShare[] = [];

/**
 * "Próximos entrenos" (issue #21): accepted quedadas not over yet, soonest first, from the device's
 * store — and one that is over while its «¿Todo bien?» waits for this person's answer (decision
 * 0054, session 17); each says with whom (issue #34), and the page has its way back to Entrenamientos.
 */
export function UpcomingScreen() {
  usePageTitle('Próximos entrenos');
  useEffect(() => void refreshUpcoming(), []);
  const all = useLiveQuery('quedadas:all', readAllQuedadas, EMPTY);
  const names = useLiveQuery('quedadas:partner-names', readPartnerNames, NO_NAMES);
  const shares = useLiveQuery('quedada-shares:all', readAllShares, NO_SHARES);
  const now = Date.now();
  // Over, but waiting for this person's «¿Todo bien?»: listed until answered or expired.
  const isAwaitingCheckIn = (quedada: StoredQuedada) =>
    !!quedada._id && awaitsCheckIn(shares, quedada._id, endOf(quedada), now);
  const upcoming = all.filter(
    (quedada) => quedada.status === 'accepted' && (endOf(quedada) > now || isAwaitingCheckIn(quedada)),
  );
  return (
    <div className="flex flex-col gap-5">
      <div className="flex items-center gap-2">
        <Link to="/matches" aria-label="Volver a Entrenamientos" className={backLinkClasses}>
          <ArrowLeftIcon className="size-5" />
        </Link>
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
          Próximos entrenos
        </h1>
      </div>
      {/* «Entrenos abiertos» (issue #35): publish one, or join someone's nearby. */}
      <div className="flex flex-wrap gap-2">
        <Link to="/entrenos/abiertos/nuevo" className={buttonClasses({ size: 'sm' })}>
          <SquarePlusIcon className="size-4" />
          Publicar entreno abierto
        </Link>
        <Link to="/entrenos/abiertos" className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
          <UsersIcon className="size-4" />
          Entrenos abiertos cerca
        </Link>
      </div>
      {upcoming.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-3xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
          <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
            <CalendarIcon className="size-8" />
          </span>
          <h2 className="text-lg font-bold text-stone-900 dark:text-white">No tienes entrenos planeados</h2>
          <p className="max-w-sm text-sm text-stone-600 dark:text-stone-300">
            Propón un entreno desde cualquier conversación y, cuando lo aceptéis, aparecerá aquí.
          </p>
          <Link to="/messages" className={buttonClasses({})}>
            Ir a Mensajes
          </Link>
        </div>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Próximos entrenos">
          {upcoming.map((quedada) => (
            <li
              key={quedada.key}
              data-testid="upcoming-quedada"
              className="rounded-3xl bg-white p-4 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8"
            >
              {/* With whom first: the one fact that matters. */}
              <p className="flex items-center gap-2 text-base font-bold text-stone-900 dark:text-white">
                <DumbbellIcon className="size-5 shrink-0 text-brand-700 dark:text-brand-400" />
                {names[quedada.conversationId] ? `Entreno con ${names[quedada.conversationId]}` : 'Entreno'}
              </p>
              <p className="mt-1 text-sm font-semibold text-stone-700 dark:text-stone-200">{quedada.activity}</p>
              <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
                <CalendarIcon className="size-4 shrink-0" />
                <span>
                  <time dateTime={quedada.startsAt}>{quedadaWhen(quedada.startsAt)}</time> ·{' '}
                  {durationText(quedada.durationMin)}
                </span>
              </p>
              <p className="mt-1 flex items-center gap-1.5 text-sm text-stone-700 dark:text-stone-200">
                <MapPinIcon className="size-4 shrink-0" />
                {quedada.gymName}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Link
                  to="/messages/$conversationId"
                  params={{ conversationId: quedada.conversationId }}
                  className={buttonClasses({ size: 'sm' })}
                >
                  Abrir chat
                </Link>
                <button
                  type="button"
                  className={buttonClasses({ size: 'sm', variant: 'secondary' })}
                  onClick={() => void downloadCalendar(quedada)}
                >
                  <CalendarIcon className="size-4" />
                  Añadir al calendario
                </button>
              </div>
              {quedada._id ? (
                <SharePanel
                  target={{
                    kind: 'quedada',
                    id: quedada._id,
                    startsAt: quedada.startsAt,
                    durationMin: quedada.durationMin,
                  }}
                  // Over: no new link, the waiting «¿Todo bien?» is answered here.
                  canCreate={endOf(quedada) > now}
                />
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The link to "Próximos entrenos" (on /matches). */
export function UpcomingLink() {
  return (
    <Link
      to="/entrenos"
      className="inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1.5 text-sm font-semibold text-brand-800 ring-1 ring-brand-200 hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:bg-brand-500/12 dark:text-brand-200 dark:ring-brand-500/25"
    >
      <CalendarIcon className="size-4" />
      Próximos entrenos
    </Link>
  );
}
