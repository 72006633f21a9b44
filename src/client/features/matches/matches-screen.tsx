import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { AlertCircleIcon, CompassIcon, DumbbellIcon, MapPinIcon, MessageIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { PhotoViewer } from '../../ui/photo-viewer.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  chatButtonLabel,
  chatTarget,
  isNewMatch,
  loadMatches,
  type MatchCardData,
  matchesState,
} from './matches-store.ts';

function MatchCard({
  match,
  onOpenProfile,
  onOpenPhotos,
  extra,
}: {
  match: MatchCardData;
  onOpenProfile: () => void;
  onOpenPhotos: () => void;
  /** What other features add under the goals (the quedadas' next session and pair streak). */
  extra?: ReactNode;
}) {
  const other = match.otherUser;
  return (
    <li className="flex flex-col overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
      <div className="relative aspect-[4/5] bg-stone-200 dark:bg-stone-800">
        <button
          type="button"
          onClick={onOpenPhotos}
          aria-label={`Ver fotos de ${other.name}`}
          className="absolute inset-0 focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-brand-600"
        >
          <SafeImage
            photo={other.photos[0]}
            isThumbnail
            alt={`Foto de ${other.name}`}
            className="size-full object-cover"
          />
        </button>
        <span className="pointer-events-none absolute left-2.5 top-2.5 rounded-full bg-white/95 px-2.5 py-1 text-xs font-extrabold text-brand-800 shadow-sm dark:bg-stone-950/85 dark:text-brand-300">
          {`${Math.round(other.compatibilityScore)}%`}
        </span>
        {isNewMatch(match, Date.now()) && (
          <span className="pointer-events-none absolute right-2.5 top-2.5 rounded-full bg-emerald-700 px-2.5 py-1 text-xs font-bold text-white">
            Nuevo
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3.5 sm:p-4">
        <h2>
          <button
            type="button"
            onClick={onOpenProfile}
            className="-mx-1 rounded-md px-1 text-left text-base font-bold text-stone-900 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-white"
          >
            {other.age === null ? other.name : `${other.name}, ${other.age}`}
            <span className="sr-only"> (ver perfil completo)</span>
          </button>
        </h2>
        <p className="flex items-center gap-1 text-xs font-medium text-stone-600 dark:text-stone-400">
          <MapPinIcon className="size-3.5 shrink-0" />
          <span className="truncate">{other.location.city || 'Ubicación no disponible'}</span>
        </p>
        {other.training.goals.length > 0 && (
          <ul className="flex flex-wrap gap-1">
            {other.training.goals.slice(0, 3).map((goal) => (
              <li
                key={goal}
                className="rounded-full bg-stone-100 px-2 py-0.5 text-[0.6875rem] font-semibold text-stone-700 dark:bg-stone-800 dark:text-stone-200"
              >
                {goal}
              </li>
            ))}
          </ul>
        )}
        {extra}
        <Link
          to="/messages/$conversationId"
          params={{ conversationId: chatTarget(match) }}
          className={buttonClasses({ size: 'sm', isFullWidth: true, className: 'mt-auto' })}
        >
          {/* Two cards a row on a phone: «Continuar chat» and its icon touched the button's edges
              (issue #34); below 400 px the words go alone. */}
          <MessageIcon className="size-4 shrink-0 max-[399px]:hidden" />
          {chatButtonLabel(match)}
        </Link>
      </div>
    </li>
  );
}

function SkeletonGrid() {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4" aria-hidden="true">
      {[0, 1, 2, 3].map((n) => (
        <li
          key={n}
          className="overflow-hidden rounded-3xl bg-white ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8"
        >
          <div className="aspect-[4/5] animate-pulse bg-stone-200 motion-reduce:animate-none dark:bg-stone-800" />
          <div className="flex flex-col gap-2 p-4">
            <div className="h-4 w-2/3 rounded bg-stone-200 dark:bg-stone-800" />
            <div className="h-3 w-1/2 rounded bg-stone-200 dark:bg-stone-800" />
            <div className="mt-2 h-9 rounded-xl bg-stone-200 dark:bg-stone-800" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * /matches (spec 001 §2). The profile modal belongs to discovery; the route hands it in as
 * `renderProfileModal` so the features stay independent.
 */
export function MatchesScreen({
  userId,
  renderProfileModal,
  renderMatchExtra,
  renderHeaderExtra,
}: {
  userId: string;
  renderProfileModal: (userId: string | null, onClose: () => void) => ReactNode;
  /** A line on each match card, by conversation (the quedadas feature's). */
  renderMatchExtra?: (conversationId: string) => ReactNode;
  /** Next to the title (the link to "Próximos entrenos"). */
  renderHeaderExtra?: () => ReactNode;
}) {
  usePageTitle('Entrenamientos');
  const snap = useSnapshot(matchesState);
  const [profileUserId, setProfileUserId] = useState<string | null>(null);
  const [viewer, setViewer] = useState<{ photos: readonly string[]; name: string; index: number } | null>(null);

  useEffect(() => {
    void loadMatches(userId);
    const refresh = () => void loadMatches(userId);
    window.addEventListener('matches-changed', refresh);
    return () => window.removeEventListener('matches-changed', refresh);
  }, [userId]);

  const current = snap.current;
  const count = current.status === 'ready' ? current.matches.length : null;
  const isOnline = useIsOnline();
  useReloadWhenOnline(current.status === 'error', () => loadMatches(userId));
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
          {count === null ? 'Tus entrenamientos' : `Tus entrenamientos (${count})`}
        </h1>
        {renderHeaderExtra?.()}
      </div>
      {current.status === 'loading' && (
        <>
          <p className="sr-only" role="status">
            Cargando entrenamientos...
          </p>
          <SkeletonGrid />
        </>
      )}
      {current.status === 'error' && !isOnline && <OfflinePlaceholder />}
      {current.status === 'error' && isOnline && (
        <div className="flex flex-col items-center gap-4 rounded-3xl bg-white p-8 text-center ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
          <AlertCircleIcon className="size-8 text-red-700 dark:text-red-400" />
          <p role="alert" className="font-semibold text-stone-900 dark:text-white">
            {current.message}
          </p>
          <Button variant="secondary" onClick={() => void loadMatches(userId)}>
            Reintentar
          </Button>
        </div>
      )}
      {current.status === 'ready' && current.matches.length === 0 && (
        <div className="flex flex-col items-center gap-4 rounded-3xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
          <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
            <DumbbellIcon className="size-8" />
          </span>
          <h2 className="text-lg font-bold text-stone-900 dark:text-white">Todavía no tienes entrenamientos</h2>
          <p className="max-w-sm text-sm text-stone-600 dark:text-stone-300">
            Cuando alguien a quien le diste Entreno te lo devuelva, aparecerá aquí para que empecéis a hablar.
          </p>
          <Link to="/home" className={buttonClasses({})}>
            <CompassIcon className="size-4.5" />
            Volver a explorar
          </Link>
        </div>
      )}
      {current.status === 'ready' && current.matches.length > 0 && (
        <ul className="grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-3 xl:grid-cols-4">
          {current.matches.map((match) => (
            <MatchCard
              key={match.matchId}
              match={match as MatchCardData}
              extra={match.conversationId ? renderMatchExtra?.(match.conversationId) : undefined}
              onOpenProfile={() => setProfileUserId(match.otherUser.userId)}
              onOpenPhotos={() =>
                match.otherUser.photos.length > 0
                  ? setViewer({ photos: match.otherUser.photos, name: match.otherUser.name, index: 0 })
                  : setProfileUserId(match.otherUser.userId)
              }
            />
          ))}
        </ul>
      )}
      <PhotoViewer
        photos={viewer?.photos ?? []}
        index={viewer?.index ?? null}
        onIndexChange={(index) => setViewer((open) => (open ? { ...open, index } : open))}
        onClose={() => setViewer(null)}
        name={viewer?.name ?? ''}
      />
      {renderProfileModal(profileUserId, () => setProfileUserId(null))}
    </div>
  );
}
