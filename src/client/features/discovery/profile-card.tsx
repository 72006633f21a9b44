import { type CSSProperties, useRef, useState } from 'react';
import type { SwipeAction } from '#shared/discovery/discovery-schemas';
import type { PublicProfile } from '#shared/profile/profile-views';
import { cx } from '../../ui/cx.ts';
import { CheckIcon, ChevronRightIcon, ExpandIcon, MapPinIcon, ShieldCheckIcon } from '../../ui/icons.tsx';
import { wrapIndex } from '../../ui/photo-viewer.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';
import { activityLine } from './profile-text.ts';
import { dragIntent, dragRotation, swipeActionForDrag } from './swipe-gesture.ts';

const PHOTO_BUTTON =
  'grid size-10 place-items-center rounded-full bg-stone-950/45 text-white backdrop-blur ' +
  'hover:bg-stone-950/65 focus-visible:outline-2 focus-visible:outline-white';

export type CardExit = SwipeAction | null;

/**
 * One suggestion: photo carousel (arrows, dots, full-screen button), "% Entreno", name and age
 * (opens the full profile), verified badge, city and distance, bio and the activity line. A drag
 * (touch, pen or mouse) left or right past 50 px swipes it; `exit` animates it out after a button press.
 */
export function ProfileCard({
  profile,
  exit,
  onSwipeGesture,
  onOpenProfile,
  onOpenPhotos,
  isInteractive = true,
}: {
  profile: PublicProfile;
  exit: CardExit;
  onSwipeGesture: (action: SwipeAction) => void;
  onOpenProfile: () => void;
  onOpenPhotos: (index: number) => void;
  isInteractive?: boolean;
}) {
  const [photoIndex, setPhotoIndex] = useState(0);
  const [drag, setDrag] = useState<{ dx: number; dy: number } | null>(null);
  const start = useRef<{ x: number; y: number; isHorizontal: boolean | null } | null>(null);
  const wasDragged = useRef(false);
  const begin = (x: number, y: number) => {
    if (isInteractive && !exit) start.current = { x, y, isHorizontal: null };
  };
  const move = (x: number, y: number) => {
    const origin = start.current;
    if (!origin) return;
    const dx = x - origin.x;
    const dy = y - origin.y;
    if (origin.isHorizontal === null && Math.hypot(dx, dy) > 8) origin.isHorizontal = Math.abs(dx) > Math.abs(dy);
    if (origin.isHorizontal) setDrag({ dx, dy });
  };
  const finish = () => {
    const action = drag ? swipeActionForDrag(drag.dx, drag.dy) : null;
    start.current = null;
    setDrag(null);
    if (action) onSwipeGesture(action);
  };
  const cancel = () => {
    start.current = null;
    setDrag(null);
  };
  const photos = profile.photos;
  const count = photos.length;
  const current = wrapIndex(photoIndex, Math.max(1, count));

  let style: CSSProperties | undefined;
  if (exit) {
    const x = exit === 'like' ? '140%' : exit === 'dislike' ? '-140%' : '0';
    const y = exit === 'superlike' ? '-120%' : '0';
    const rotate = exit === 'like' ? 18 : exit === 'dislike' ? -18 : 0;
    style = { transform: `translate(${x}, ${y}) rotate(${rotate}deg)`, opacity: 0 };
  } else if (drag) {
    style = { transform: `translateX(${drag.dx}px) rotate(${dragRotation(drag.dx)}deg)`, transition: 'none' };
  }
  const intent = drag ? dragIntent(drag.dx) : 0;

  return (
    <article
      aria-label={profile.age === null ? profile.name : `${profile.name}, ${profile.age} años`}
      style={style}
      className={cx(
        'absolute inset-0 touch-pan-y select-none overflow-hidden rounded-[2rem] bg-stone-800 shadow-xl shadow-stone-900/20 ring-1 ring-stone-900/10',
        'transition-[transform,opacity] duration-300 ease-out motion-reduce:transition-none dark:shadow-black/40 dark:ring-white/10',
      )}
      // A finger drags through touch events (as the phone tests drive it); a mouse or a pen through
      // pointer events, with the pointer captured so the drag goes on off the card (issue #34).
      onTouchStart={(event) => {
        const touch = event.touches[0];
        if (touch) begin(touch.clientX, touch.clientY);
      }}
      onTouchMove={(event) => {
        const touch = event.touches[0];
        if (touch) move(touch.clientX, touch.clientY);
      }}
      onTouchEnd={finish}
      onTouchCancel={cancel}
      onPointerDown={(event) => {
        wasDragged.current = false;
        if (event.pointerType === 'touch' || !event.isPrimary || event.button !== 0) return;
        begin(event.clientX, event.clientY);
      }}
      onPointerMove={(event) => {
        if (event.pointerType === 'touch' || !start.current) return;
        move(event.clientX, event.clientY);
        if (start.current?.isHorizontal) event.currentTarget.setPointerCapture?.(event.pointerId);
      }}
      onPointerUp={(event) => {
        if (event.pointerType === 'touch' || !start.current) return;
        // A mouse drag is no click: the button under the pointer (the name, a photo arrow) stays shut.
        wasDragged.current = start.current.isHorizontal === true;
        finish();
      }}
      onPointerCancel={(event) => {
        if (event.pointerType !== 'touch') cancel();
      }}
      onClickCapture={(event) => {
        if (!wasDragged.current) return;
        wasDragged.current = false;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      <SafeImage
        key={photos[current] ?? 'avatar'}
        photo={photos[current]}
        alt={count > 0 ? `Foto ${current + 1} de ${count} de ${profile.name}` : `${profile.name} no tiene fotos`}
        className="absolute inset-0 size-full object-cover"
        draggable={false}
      />
      {count > 1 && (
        <div className="absolute inset-x-3 top-3 z-10 flex gap-1.5" aria-hidden="true">
          {photos.map((photo, index) => (
            <span
              key={photo}
              className={cx('h-1 flex-1 rounded-full', index === current ? 'bg-white' : 'bg-white/40')}
            />
          ))}
        </div>
      )}
      <div className="absolute inset-x-3 top-6 z-10 flex items-start justify-between gap-2">
        <span className="rounded-full bg-white/95 px-3 py-1.5 text-sm font-extrabold text-brand-800 shadow-sm dark:bg-stone-950/85 dark:text-brand-300">
          {`${Math.round(profile.compatibilityScore)}% Entreno`}
        </span>
        {/* The photo's controls stay in this row, never over the text below, whatever the card's height. */}
        <div className="flex shrink-0 gap-2">
          {count > 1 && (
            <>
              <button
                type="button"
                aria-label="Foto anterior"
                className={PHOTO_BUTTON}
                onClick={() => setPhotoIndex(current - 1)}
              >
                <ChevronRightIcon className="size-5 rotate-180" />
              </button>
              <button
                type="button"
                aria-label="Foto siguiente"
                className={PHOTO_BUTTON}
                onClick={() => setPhotoIndex(current + 1)}
              >
                <ChevronRightIcon className="size-5" />
              </button>
            </>
          )}
          {count > 0 && (
            <button
              type="button"
              aria-label={`Ver fotos de ${profile.name} a pantalla completa`}
              onClick={() => onOpenPhotos(current)}
              className={PHOTO_BUTTON}
            >
              <ExpandIcon className="size-4.5" />
            </button>
          )}
        </div>
      </div>
      {drag && (
        <>
          <span
            aria-hidden="true"
            style={{ opacity: drag.dx > 0 ? intent : 0 }}
            className="absolute left-6 top-24 z-10 -rotate-12 rounded-xl border-4 border-emerald-400 px-3 py-1 text-2xl font-black uppercase tracking-wider text-emerald-400"
          >
            Entreno
          </span>
          <span
            aria-hidden="true"
            style={{ opacity: drag.dx < 0 ? intent : 0 }}
            className="absolute right-6 top-24 z-10 rotate-12 rounded-xl border-4 border-rose-400 px-3 py-1 text-2xl font-black uppercase tracking-wider text-rose-400"
          >
            Rechazar
          </span>
        </>
      )}
      <div className="absolute inset-x-0 bottom-0 flex flex-col gap-1.5 bg-gradient-to-t from-stone-950/95 via-stone-950/70 to-transparent px-5 pb-5 pt-24 text-white">
        <h2 className="flex items-center gap-2">
          <button
            type="button"
            onClick={onOpenProfile}
            className="-mx-1 truncate rounded-lg px-1 text-left text-[1.75rem] font-extrabold leading-tight tracking-tight hover:underline focus-visible:outline-2 focus-visible:outline-white"
          >
            {profile.name}
            {profile.age !== null && <span className="font-semibold text-white/90">{`, ${profile.age}`}</span>}
            <span className="sr-only"> (ver perfil completo)</span>
          </button>
          {profile.verified && (
            <span className="inline-flex shrink-0 items-center gap-1 rounded-full bg-sky-500 px-2 py-0.5 text-xs font-bold text-white">
              <ShieldCheckIcon className="size-3.5" />
              Verificado
            </span>
          )}
        </h2>
        <p className="flex items-center gap-1.5 text-sm font-medium text-white/90">
          <MapPinIcon className="size-4 shrink-0" />
          <span className="truncate">{[profile.location.city, profile.distanceText].filter(Boolean).join(' · ')}</span>
        </p>
        <CompatibilityReasons reasons={profile.compatibilityReasons} />
        <p className="line-clamp-2 text-[0.9375rem] leading-snug text-white/90">{profile.bio}</p>
        {activityLine(profile) && (
          <p className="flex items-center gap-1.5 text-xs font-semibold text-emerald-300">
            <span className="size-2 rounded-full bg-emerald-400" aria-hidden="true" />
            {activityLine(profile)}
          </p>
        )}
      </div>
    </article>
  );
}

/**
 * "Por qué encajáis" (docs/decisions/0023): up to three reasons the server computed from the score
 * itself, strongest first. Each keeps to two lines at most on the card; the full profile shows them whole.
 */
function CompatibilityReasons({ reasons }: { reasons: readonly string[] }) {
  if (reasons.length === 0) return null;
  return (
    <section aria-label="Por qué encajáis" className="mt-0.5 flex flex-col gap-1">
      <h3 className="text-[0.6875rem] font-bold uppercase tracking-wider text-emerald-300">Por qué encajáis</h3>
      <ul className="flex flex-col gap-1">
        {reasons.map((reason) => (
          <li key={reason} className="flex items-start gap-1.5 text-[0.8125rem] font-semibold leading-tight text-white">
            <CheckIcon className="mt-px size-3.5 shrink-0 text-emerald-300" strokeWidth={3} />
            <span className="line-clamp-2">{reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The card's reserved space while loading: same size, so nothing moves when it arrives. */
export function ProfileCardSkeleton() {
  return (
    <div
      className="absolute inset-0 overflow-hidden rounded-[2rem] bg-stone-200 ring-1 ring-stone-900/5 dark:bg-stone-800 dark:ring-white/8"
      aria-hidden="true"
    >
      <div className="absolute inset-0 animate-pulse bg-gradient-to-b from-stone-200 to-stone-300 motion-reduce:animate-none dark:from-stone-800 dark:to-stone-700" />
      <div className="absolute inset-x-5 bottom-5 flex flex-col gap-2.5">
        <div className="h-7 w-1/2 rounded-lg bg-stone-300/90 dark:bg-stone-600" />
        <div className="h-4 w-1/3 rounded bg-stone-300/90 dark:bg-stone-600" />
        <div className="h-4 w-5/6 rounded bg-stone-300/90 dark:bg-stone-600" />
      </div>
    </div>
  );
}
