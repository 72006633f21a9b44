import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import type { PublicProfile } from '#shared/profile/profile-views';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { Button, buttonClasses } from '../../ui/button.tsx';
import { AlertCircleIcon, SettingsIcon, UsersIcon } from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { PhotoViewer } from '../../ui/photo-viewer.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { type DeckMatch, deckStore } from './deck-store.ts';
import type { SearchPreferences } from './discovery-api.ts';
import { DecisionButtons } from './decision-buttons.tsx';
import { DeckOfflineNotice } from './deck-offline-notice.tsx';
import { MatchModal } from './match-modal.tsx';
import { PreferencesDialog } from './preferences-dialog.tsx';
import { ProfileCard, ProfileCardSkeleton } from './profile-card.tsx';
import { ProfileModal } from './profile-modal.tsx';
import { UndoBar } from './undo-bar.tsx';
import { prefersReducedMotion } from '../../ui/reduced-motion.ts';

/** The slot of the profile modal's foot; `close` shuts the modal (the route fills it with the safety actions). */
export type RenderDeckProfileActions = (profile: PublicProfile, close: () => void) => React.ReactNode;

const EXIT_MS = 280;

function StatePanel({ icon, title, children }: { icon: React.ReactNode; title: string; children?: React.ReactNode }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 rounded-[2rem] bg-white p-8 text-center shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
      <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
        {icon}
      </span>
      <h2 className="max-w-xs text-lg font-bold text-stone-900 dark:text-white">{title}</h2>
      {children}
    </div>
  );
}

const DECK_COLUMN = 'mx-auto flex w-full max-w-md flex-col gap-3 sm:gap-4';
const CARD_AREA = 'relative h-[max(22rem,calc(100dvh-20.5rem))] max-h-[40rem] lg:h-[min(40rem,calc(100dvh-12rem))]';

function DeckHeader({ onPreferences }: { onPreferences?: () => void }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 dark:text-white">Conectar</h1>
      <Button
        variant="ghost"
        size="sm"
        iconStart={<SettingsIcon className="size-4.5" />}
        onClick={onPreferences}
        disabled={!onPreferences}
      >
        Preferencias
      </Button>
    </div>
  );
}

function LoadingCard() {
  return (
    <>
      <ProfileCardSkeleton />
      <p
        className="absolute inset-x-0 top-1/2 -translate-y-1/2 text-center text-sm font-semibold text-stone-700 dark:text-stone-200"
        role="status"
      >
        Cargando perfiles...
      </p>
    </>
  );
}

/** The deck's loading look, with the same boxes as the deck, for while the own profile loads. */
export function DiscoveryDeckSkeleton() {
  return (
    <div className={DECK_COLUMN}>
      <DeckHeader />
      <div className={CARD_AREA}>
        <LoadingCard />
      </div>
      <DecisionButtons isEnabled={false} onDecide={() => undefined} />
    </div>
  );
}

/** The /home deck (spec 001 §2, §4). */
export function DiscoveryDeck({
  userId,
  ownPhoto,
  preferences,
  onPreferencesSaved,
  renderProfileActions,
}: {
  userId: string;
  ownPhoto: string | null;
  preferences: SearchPreferences;
  onPreferencesSaved: (preferences: SearchPreferences) => void;
  renderProfileActions?: RenderDeckProfileActions;
}) {
  usePageTitle('Conectar');
  const snap = useSnapshot(deckStore.state);
  const [exiting, setExiting] = useState<{ userId: string; action: SwipeAction } | null>(null);
  const [openProfile, setOpenProfile] = useState<PublicProfile | null>(null);
  const [viewer, setViewer] = useState<{ profile: PublicProfile; index: number } | null>(null);
  const [isPreferencesOpen, setIsPreferencesOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    void deckStore.load(userId);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [userId]);

  const top = snap.profiles[0] as PublicProfile | undefined;
  const next = snap.profiles[1] as PublicProfile | undefined;
  const isReady = snap.deck.status === 'ready' && top !== undefined;
  const isOnline = useIsOnline();
  useReloadWhenOnline(snap.deck.status === 'error', () => deckStore.load(userId));

  function act(action: SwipeAction, viaGesture = false) {
    if (!top || exiting) return;
    const target = top.userId;
    const commit = () => {
      setExiting(null);
      void deckStore.swipe(action, target);
    };
    if (prefersReducedMotion() && !viaGesture) {
      commit();
      return;
    }
    setExiting({ userId: target, action });
    timer.current = setTimeout(commit, prefersReducedMotion() ? 0 : EXIT_MS);
  }

  return (
    <div className={DECK_COLUMN}>
      <DeckHeader onPreferences={() => setIsPreferencesOpen(true)} />
      <DeckOfflineNotice />
      <div className={CARD_AREA}>
        {/* Over the card, not above it: the notice never moves the deck (QUALITY 28). Below the card's
            photo dots and its compatibility row, so it never hides the "% Entreno". */}
        {snap.isSnapshot && snap.deck.status === 'ready' && (
          <p
            role="status"
            className="pointer-events-none absolute inset-x-5 top-16 z-30 rounded-2xl bg-stone-950/85 px-3 py-1.5 text-center text-xs font-semibold text-white shadow"
          >
            Perfiles guardados de tu última visita: puede que alguno ya no esté disponible
          </p>
        )}
        {snap.deck.status === 'loading' && <LoadingCard />}
        {snap.deck.status === 'empty' && (
          <StatePanel icon={<UsersIcon className="size-8" />} title="No existen más perfiles para esa configuración">
            <p className="max-w-xs text-sm text-stone-600 dark:text-stone-300">
              Prueba a ampliar la edad o la distancia de búsqueda.
            </p>
            <Button onClick={() => setIsPreferencesOpen(true)} iconStart={<SettingsIcon className="size-4.5" />}>
              Ajustar preferencias
            </Button>
            {/* Issue #35: when the deck runs out, training with someone this week is still possible. */}
            <Link to="/entrenos/abiertos" className={buttonClasses({ variant: 'secondary' })}>
              <UsersIcon className="size-4.5" />
              Ver entrenos abiertos cerca
            </Link>
          </StatePanel>
        )}
        {snap.deck.status === 'error' && !isOnline && (
          <OfflinePlaceholder className="absolute inset-0 justify-center" />
        )}
        {snap.deck.status === 'error' && isOnline && (
          <StatePanel icon={<AlertCircleIcon className="size-8" />} title="No se encontraron perfiles">
            <p role="alert" className="max-w-xs text-sm text-stone-600 dark:text-stone-300">
              {snap.deck.message}
            </p>
            <Button variant="secondary" onClick={() => void deckStore.load(userId)}>
              Reintentar
            </Button>
          </StatePanel>
        )}
        {isReady && next && (
          <div
            className="absolute inset-0 scale-[0.96] translate-y-3 opacity-90 transition-transform duration-300 motion-reduce:transition-none"
            aria-hidden="true"
            inert
          >
            <ProfileCard
              key={next.userId}
              profile={next}
              exit={null}
              isInteractive={false}
              onSwipeGesture={() => undefined}
              onOpenProfile={() => undefined}
              onOpenPhotos={() => undefined}
            />
          </div>
        )}
        <UndoBar
          last={snap.lastSwipe && { ...snap.lastSwipe, name: snap.lastSwipe.profile.name }}
          onUndo={() => void deckStore.undo()}
        />
        {isReady && top && (
          <ProfileCard
            key={top.userId}
            profile={top}
            exit={exiting?.userId === top.userId ? exiting.action : null}
            onSwipeGesture={(action) => act(action, true)}
            onOpenProfile={() => setOpenProfile(top)}
            onOpenPhotos={(index) => setViewer({ profile: top, index })}
          />
        )}
      </div>
      <DecisionButtons
        isEnabled={isReady && exiting === null}
        isHidden={snap.deck.status === 'empty' || snap.deck.status === 'error'}
        onDecide={(action) => act(action)}
      />
      <ProfileModal
        profile={openProfile}
        onClose={() => setOpenProfile(null)}
        onDecide={(action) => {
          setOpenProfile(null);
          act(action);
        }}
        renderActions={renderProfileActions && ((profile) => renderProfileActions(profile, () => setOpenProfile(null)))}
      />
      <PhotoViewer
        photos={viewer?.profile.photos ?? []}
        index={viewer?.index ?? null}
        onIndexChange={(index) => setViewer((current) => (current ? { ...current, index } : current))}
        onClose={() => setViewer(null)}
        name={viewer?.profile.name ?? ''}
      />
      <MatchModal match={snap.match as DeckMatch | null} ownPhoto={ownPhoto} onClose={deckStore.closeMatch} />
      <PreferencesDialog
        open={isPreferencesOpen}
        userId={userId}
        initial={preferences}
        onClose={() => setIsPreferencesOpen(false)}
        onSaved={(saved) => {
          setIsPreferencesOpen(false);
          onPreferencesSaved(saved);
          void deckStore.load(userId);
        }}
      />
    </div>
  );
}
