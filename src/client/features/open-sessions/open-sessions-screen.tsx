import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { OpenSession } from '#shared/open-sessions/open-session-schemas';
import { durationText, quedadaWhen } from '#shared/quedadas/quedada-time';
import type { LocalDb } from '../../services/local-db.ts';
import { useLiveQuery } from '../../services/use-live-query.ts';
import { buttonClasses } from '../../ui/button.tsx';
import { ArrowLeftIcon, SquarePlusIcon, UsersIcon } from '../../ui/icons.tsx';
import { backLinkClasses } from '../../ui/link-classes.ts';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { OpenSessionCard, PANEL } from './open-session-card.tsx';
import { readMine, readNearby, readPendingPublishes, refreshLists } from './open-session-store.ts';

type Lists = {
  nearby: OpenSession[] | null;
  mine: OpenSession[] | null;
  pending: Awaited<ReturnType<typeof readPendingPublishes>>;
};
const NOTHING: Lists = { nearby: null, mine: null, pending: [] };

const readLists = async (db: LocalDb): Promise<Lists> => ({
  nearby: await readNearby(db),
  mine: await readMine(db),
  pending: await readPendingPublishes(db),
});

/** A screen's title with its way back. */
export function ScreenHeader({
  back,
  backLabel,
  title,
}: {
  back: '/entrenos' | '/entrenos/abiertos';
  backLabel: string;
  title: string;
}) {
  return (
    <div className="flex items-center gap-2">
      <Link to={back} aria-label={backLabel} className={backLinkClasses}>
        <ArrowLeftIcon className="size-5" />
      </Link>
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">{title}</h1>
    </div>
  );
}
const SECTION = 'text-lg font-bold text-stone-900 dark:text-white';

/**
 * «Entrenos abiertos cerca» (issue #35): the sessions of people who fit both ways (or of matches),
 * by start and distance, and the viewer's own — from the device's copy, so offline too.
 */
export function OpenSessionsScreen() {
  usePageTitle('Entrenos abiertos');
  useEffect(() => void refreshLists(), []);
  const { nearby, mine, pending } = useLiveQuery('open-sessions:lists', readLists, NOTHING);
  const own = mine ?? [];
  return (
    <div className="flex flex-col gap-5">
      <ScreenHeader back="/entrenos" backLabel="Volver a Próximos entrenos" title="Entrenos abiertos" />
      <Link to="/entrenos/abiertos/nuevo" className={buttonClasses({ isFullWidth: true })}>
        <SquarePlusIcon className="size-5" />
        Publicar entreno abierto
      </Link>
      {(own.length > 0 || pending.length > 0) && (
        <section className="flex flex-col gap-3" aria-labelledby="open-sessions-mine">
          <h2 id="open-sessions-mine" className={SECTION}>
            Tus entrenos abiertos
          </h2>
          <ul className="flex flex-col gap-3">
            {pending.map((item) => (
              <li key={item.key} className={PANEL} data-testid="open-session-pending">
                <p className="text-base font-bold text-stone-900 dark:text-white">{item.activity}</p>
                <p className="mt-1 text-sm text-stone-700 dark:text-stone-200">
                  {quedadaWhen(item.startsAt)} · {durationText(item.durationMin)} · {item.gymName}
                </p>
                <p className="mt-1 text-xs font-semibold text-stone-600 dark:text-stone-300">Pendiente de enviar</p>
              </li>
            ))}
            {own.map((session) => (
              <OpenSessionCard key={session._id} session={session} />
            ))}
          </ul>
        </section>
      )}
      <section className="flex flex-col gap-3" aria-labelledby="open-sessions-nearby">
        <h2 id="open-sessions-nearby" className={SECTION}>
          Entrenos abiertos cerca
        </h2>
        {nearby === null ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">Cargando entrenos…</p>
        ) : nearby.length === 0 ? (
          <div className={`${PANEL} flex flex-col items-center gap-3 py-8 text-center`}>
            <span className="grid size-14 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
              <UsersIcon className="size-7" />
            </span>
            <p className="max-w-sm text-sm text-stone-600 dark:text-stone-300">
              Todavía no hay entrenos abiertos cerca de ti. Publica uno y deja que se unan.
            </p>
          </div>
        ) : (
          <ul className="flex flex-col gap-3" aria-label="Entrenos abiertos cerca">
            {nearby.map((session) => (
              <OpenSessionCard key={session._id} session={session} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
