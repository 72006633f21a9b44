import './demo-preview.css';
import { useEffect, useRef, useState } from 'react';
import { cx } from '../../ui/cx.ts';
import { CloseIcon, DumbbellIcon, FlameIcon, HeartIcon, MapPinIcon, UsersIcon, ZapIcon } from '../../ui/icons.tsx';
import { serverMode } from './auth-api.ts';
import { createDemoCycle } from './demo-cycle.ts';
import { DEMO_PROFILES, type DemoProfile } from './demo-profiles.ts';
import { prefersReducedMotion } from '../../ui/reduced-motion.ts';

type Swipe = 'like' | 'pass';

/** A stylised person over the profile's gradient: the demo's "photo", no image request. */
function PortraitArt({ profile }: { profile: DemoProfile }) {
  const Motif = profile.motif === 'dumbbell' ? DumbbellIcon : profile.motif === 'run' ? ZapIcon : FlameIcon;
  return (
    <div aria-hidden="true" className={cx('absolute inset-0 overflow-hidden bg-gradient-to-br', profile.gradient)}>
      <div className={cx('absolute -left-10 -top-12 size-44 rounded-full blur-2xl', profile.glow)} />
      <div className="absolute -bottom-16 -right-10 size-48 rounded-full bg-black/20 blur-2xl" />
      <div className="absolute inset-x-0 top-1/4 mx-auto size-40 rounded-full border border-white/25" />
      <div className="absolute inset-x-0 top-[18%] mx-auto size-52 rounded-full border border-white/12" />
      <Motif className="absolute right-3 top-9 size-16 -rotate-12 text-white/25" strokeWidth={1.5} />
      <svg viewBox="0 0 200 200" aria-hidden="true" className="absolute inset-x-0 bottom-0 mx-auto w-[88%]" fill="none">
        <circle cx="100" cy="82" r="34" fill="white" fillOpacity="0.42" />
        <path d="M26 200c0-46 33-78 74-78s74 32 74 78z" fill="white" fillOpacity="0.32" />
      </svg>
    </div>
  );
}

/** One profile card of the demo deck. */
function DemoCard({ profile, className }: { profile: DemoProfile; className?: string }) {
  return (
    <div
      className={cx(
        'absolute inset-0 flex flex-col overflow-hidden rounded-[1.4rem] bg-white shadow-xl shadow-black/30 ring-1 ring-black/5 dark:bg-stone-800',
        className,
      )}
    >
      <div className="relative min-h-0 flex-[1.5] xl:flex-[1.8]">
        <PortraitArt profile={profile} />
        <div className="absolute inset-x-0 bottom-0 bg-gradient-to-t from-black/65 via-black/25 to-transparent px-3.5 pb-3 pt-10 text-white">
          <p className="text-xl font-extrabold leading-tight tracking-tight">
            {profile.name}, <span className="font-semibold">{profile.age}</span>
          </p>
          <p className="mt-0.5 flex items-center gap-1 text-xs font-medium text-white/90">
            <MapPinIcon className="size-3.5" />A {profile.distanceKm} km
          </p>
        </div>
        <span className="absolute left-3 top-3 inline-flex items-center gap-1 rounded-full bg-white/92 px-2.5 py-1 text-[0.6875rem] font-extrabold text-brand-800 shadow-sm">
          <FlameIcon className="size-3.5 text-brand-600" strokeWidth={2.5} />
          {profile.compatibility}% Entreno
        </span>
      </div>
      <div className="flex flex-1 flex-col gap-1.5 px-3.5 pb-3 pt-2.5">
        <p className="inline-flex items-center gap-1.5 self-start rounded-full bg-brand-50 px-2 py-0.5 text-[0.6875rem] font-bold text-brand-800 ring-1 ring-inset ring-brand-200 dark:bg-brand-500/15 dark:text-brand-200 dark:ring-brand-500/30">
          <DumbbellIcon className="size-3" strokeWidth={2.5} />
          {profile.activity}
        </p>
        <p className="line-clamp-3 text-[0.75rem] leading-snug text-stone-700 dark:text-stone-300">{profile.bio}</p>
      </div>
    </div>
  );
}

function PauseIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className} fill="currentColor">
      <rect x="6" y="5" width="4" height="14" rx="1.2" />
      <rect x="14" y="5" width="4" height="14" rx="1.2" />
    </svg>
  );
}

function PlayIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className} fill="currentColor">
      <path d="M8 5.5v13a1 1 0 0 0 1.5.86l10.2-6.5a1 1 0 0 0 0-1.72L9.5 4.64A1 1 0 0 0 8 5.5z" />
    </svg>
  );
}

/**
 * The phone mockup of the login screen (spec 000 §2): three sample profiles with their
 * 'Entreno' compatibility, distance, activity and bio, pass and like buttons, advancing every
 * 3 s after an 800 ms delay. It pauses while hidden and, for people who ask for reduced motion,
 * starts paused (the buttons and the play control still move it).
 */
export function DemoPhone({ isActive = true }: { isActive?: boolean }) {
  const [isReady, setIsReady] = useState(false);
  const [step, setStep] = useState(0);
  const [lastSwipe, setLastSwipe] = useState<Swipe>('like');
  const [isPaused, setIsPaused] = useState(prefersReducedMotion);
  const cycleRef = useRef<ReturnType<typeof createDemoCycle> | null>(null);
  const isPausedRef = useRef(isPaused);
  isPausedRef.current = isPaused;

  useEffect(() => {
    const cycle = createDemoCycle({
      onReady: () => setIsReady(true),
      onStep: () => {
        setLastSwipe('like');
        setStep((value) => value + 1);
      },
    });
    cycleRef.current = cycle;
    cycle.start(isPausedRef.current);
    return () => cycle.stop();
  }, []);

  useEffect(() => {
    if (!isReady) return;
    if (isPaused || !isActive) cycleRef.current?.stop();
    else cycleRef.current?.restart();
  }, [isReady, isPaused, isActive]);

  const count = DEMO_PROFILES.length;
  const index = step % count;
  const profile = DEMO_PROFILES[index] as DemoProfile;
  const previous = DEMO_PROFILES[(step + count - 1) % count] as DemoProfile;
  const next = DEMO_PROFILES[(step + 1) % count] as DemoProfile;

  const swipe = (direction: Swipe) => {
    setIsReady(true);
    setLastSwipe(direction);
    setStep((value) => value + 1);
    if (!isPausedRef.current && isActive) cycleRef.current?.restart();
  };

  return (
    <section
      aria-roledescription="carrusel"
      aria-label="Demostración de Entreno"
      className="relative mx-auto w-[12.5rem] shrink-0 min-[400px]:w-[13.5rem] sm:w-[15.5rem] xl:w-[16.5rem]"
    >
      <div
        aria-hidden="true"
        className="absolute -inset-8 -z-10 rounded-full bg-brand-500/30 blur-3xl motion-safe:animate-[demo-pulse_6s_ease-in-out_2]"
      />
      <div className="relative aspect-[9/18.5] rounded-[2.6rem] bg-gradient-to-b from-stone-700 to-stone-900 p-[0.55rem] shadow-2xl shadow-black/60 ring-1 ring-white/15">
        <div className="relative flex h-full flex-col overflow-hidden rounded-[2.1rem] bg-stone-100 dark:bg-stone-900">
          {/* Status bar and dynamic island. */}
          <div aria-hidden="true" className="relative flex h-8 shrink-0 items-center justify-between px-5 pt-1">
            <span className="text-[0.625rem] font-bold text-stone-800 dark:text-stone-200">9:41</span>
            <span className="absolute left-1/2 top-1.5 h-5 w-20 -translate-x-1/2 rounded-full bg-stone-950" />
            <span className="flex items-center gap-0.5">
              <span className="h-2 w-0.5 rounded-full bg-stone-800 dark:bg-stone-200" />
              <span className="h-2.5 w-0.5 rounded-full bg-stone-800 dark:bg-stone-200" />
              <span className="h-3 w-0.5 rounded-full bg-stone-800 dark:bg-stone-200" />
              <span className="ml-1 h-2.5 w-5 rounded-[3px] border border-stone-800 p-px dark:border-stone-200">
                <span className="block h-full w-3/4 rounded-[1px] bg-stone-800 dark:bg-stone-200" />
              </span>
            </span>
          </div>
          {/* App bar. */}
          <div aria-hidden="true" className="flex shrink-0 items-center justify-between px-4 pb-2 pt-1">
            <span className="inline-flex items-center gap-1.5 text-sm font-extrabold tracking-tight text-stone-900 dark:text-white">
              <span className="grid size-5.5 place-items-center rounded-md bg-gradient-to-br from-brand-400 to-brand-700 text-white">
                <DumbbellIcon className="size-3.5" strokeWidth={2.75} />
              </span>
              Entreno
            </span>
            <span className="grid size-7 place-items-center rounded-full bg-white text-brand-600 shadow-sm dark:bg-stone-800">
              <UsersIcon className="size-3.5" strokeWidth={2.5} />
            </span>
          </div>
          {/* Stories-like progress. */}
          <div aria-hidden="true" className="flex shrink-0 gap-1 px-4 pb-2">
            {DEMO_PROFILES.map((item, position) => (
              <span key={item.name} className="h-1 flex-1 overflow-hidden rounded-full bg-stone-300 dark:bg-stone-700">
                {isReady && (
                  <span
                    key={position === index ? `run-${step}` : 'idle'}
                    className={cx(
                      'block h-full origin-left rounded-full bg-brand-500',
                      position < index && 'scale-x-100',
                      position > index && 'scale-x-0',
                      position === index &&
                        (isPaused || !isActive
                          ? 'scale-x-100'
                          : 'animate-[demo-progress_3000ms_linear_both] motion-reduce:scale-x-100'),
                    )}
                  />
                )}
              </span>
            ))}
          </div>
          {/* The deck. */}
          <div className="relative mx-3 min-h-0 flex-1">
            {isReady ? (
              <>
                <div
                  aria-hidden="true"
                  className="absolute inset-x-3 -bottom-1.5 top-3 rounded-[1.4rem] bg-stone-300/70 dark:bg-stone-700/70"
                />
                <div aria-hidden="true" className="absolute inset-0 scale-[0.96] opacity-60">
                  <DemoCard profile={next} />
                </div>
                <div
                  key={`card-${step}`}
                  aria-hidden="true"
                  className="absolute inset-0 motion-safe:animate-[demo-card-in_520ms_cubic-bezier(0.2,0.8,0.2,1)_both]"
                >
                  <DemoCard profile={profile} />
                </div>
                {step > 0 && (
                  <div
                    key={`gone-${step}`}
                    aria-hidden="true"
                    className={cx(
                      // With reduced motion the card that leaves is not drawn at all (no fly-out).
                      'pointer-events-none absolute inset-0 motion-reduce:hidden',
                      lastSwipe === 'like'
                        ? 'animate-[demo-card-out-like_480ms_ease-in_both]'
                        : 'animate-[demo-card-out-pass_480ms_ease-in_both]',
                    )}
                  >
                    <DemoCard profile={previous} />
                    <span
                      className={cx(
                        'absolute top-10 rounded-lg border-[3px] px-2 py-0.5 text-lg font-black uppercase tracking-wider',
                        lastSwipe === 'like'
                          ? 'left-4 -rotate-12 border-emerald-400 bg-emerald-500/15 text-emerald-300'
                          : 'right-4 rotate-12 border-rose-400 bg-rose-500/15 text-rose-200',
                      )}
                    >
                      {lastSwipe === 'like' ? 'Entreno' : 'Paso'}
                    </span>
                  </div>
                )}
              </>
            ) : (
              <div
                aria-hidden="true"
                className="absolute inset-0 flex flex-col overflow-hidden rounded-[1.4rem] bg-white ring-1 ring-black/5 dark:bg-stone-800"
              >
                <div className="flex-[1.5] bg-gradient-to-br from-stone-200 to-stone-300 motion-safe:animate-[demo-pulse_1.4s_ease-in-out_infinite] dark:from-stone-700 dark:to-stone-700/60" />
                <div className="flex flex-1 flex-col gap-2 p-3.5">
                  <span className="h-3 w-20 rounded-full bg-stone-200 dark:bg-stone-700" />
                  <span className="h-2.5 w-full rounded-full bg-stone-100 dark:bg-stone-700/70" />
                  <span className="h-2.5 w-3/4 rounded-full bg-stone-100 dark:bg-stone-700/70" />
                </div>
              </div>
            )}
          </div>
          {/* What the card shows, for screen readers; announced only when not rotating by itself. */}
          <p aria-live={isPaused || !isActive ? 'polite' : 'off'} className="sr-only">
            {isReady
              ? `Perfil ${index + 1} de ${count}: ${profile.name}, ${profile.age} años, a ${profile.distanceKm} km, ${profile.compatibility}% Entreno. ${profile.activity}. ${profile.bio}`
              : ''}
          </p>
          {/* Actions: buttons, never only a gesture (QUALITY 29). */}
          <div className="flex shrink-0 items-center justify-center gap-4 pb-5 pt-3.5">
            <button
              type="button"
              onClick={() => swipe('pass')}
              aria-label="Pasar (demostración)"
              className="grid size-11 place-items-center rounded-full bg-white text-rose-600 shadow-lg shadow-black/10 ring-1 ring-stone-900/5 transition duration-150 hover:scale-105 active:scale-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:bg-stone-800 dark:text-rose-400 dark:ring-white/10"
            >
              <CloseIcon className="size-5.5" strokeWidth={2.75} />
            </button>
            <button
              type="button"
              onClick={() => setIsPaused((value) => !value)}
              aria-label={isPaused ? 'Reanudar demostración' : 'Pausar demostración'}
              aria-pressed={isPaused}
              className="grid size-8 place-items-center rounded-full bg-white/80 text-stone-600 ring-1 ring-stone-900/5 transition duration-150 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:bg-stone-800/80 dark:text-stone-300 dark:ring-white/10 dark:hover:text-white"
            >
              {isPaused ? <PlayIcon className="size-3.5" /> : <PauseIcon className="size-3.5" />}
            </button>
            <button
              type="button"
              onClick={() => swipe('like')}
              aria-label="Entreno (demostración)"
              className="grid size-11 place-items-center rounded-full bg-gradient-to-br from-brand-400 to-brand-600 text-white shadow-lg shadow-brand-700/40 transition duration-150 hover:scale-105 active:scale-95 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 motion-reduce:transition-none"
            >
              <HeartIcon className="size-5.5" strokeWidth={2.5} />
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}

const FEATURES = [
  { icon: UsersIcon, label: 'Conexiones' },
  { icon: FlameIcon, label: 'Compatibilidad' },
  { icon: DumbbellIcon, label: 'Entrenamientos' },
] as const;

/** The three feature labels under the demo (spec 000 §2). */
export function DemoFeatures({ className }: { className?: string }) {
  return (
    <ul className={cx('flex flex-wrap justify-center gap-1.5 sm:gap-2', className)}>
      {FEATURES.map((feature) => (
        <li
          key={feature.label}
          className="inline-flex items-center gap-1 rounded-full bg-white/8 px-2.5 py-1.5 text-xs font-semibold text-stone-100 ring-1 ring-inset ring-white/12 backdrop-blur sm:gap-1.5 sm:px-3 sm:text-[0.8125rem]"
        >
          <feature.icon className="size-3.5 shrink-0 text-brand-300 sm:size-4" strokeWidth={2.25} />
          {feature.label}
        </li>
      ))}
    </ul>
  );
}

const MODE_BADGES = {
  production: { label: 'PROD', title: 'Servidor en producción' },
  development: { label: 'DEMO', title: 'Instalación local de demostración' },
  test: { label: 'TEST', title: 'Servidor de pruebas' },
} as const;

/**
 * The small environment badge of the login preview (spec 000 §2). It says what the server says it
 * is (GET /api/health `mode`), never what the bundle was built as: a local demo install reads DEMO.
 * Until the answer comes (or offline) it keeps its place, empty, so nothing shifts.
 */
export function ProdBadge() {
  const [mode, setMode] = useState<keyof typeof MODE_BADGES | null>(null);
  useEffect(() => {
    let isCurrent = true;
    void serverMode().then((found) => {
      if (isCurrent) setMode(found);
    });
    return () => {
      isCurrent = false;
    };
  }, []);
  const badge = mode ? MODE_BADGES[mode] : null;
  return (
    <span
      title={badge?.title}
      data-mode={mode ?? 'unknown'}
      className={cx(
        'inline-flex items-center gap-1 rounded-md bg-white/8 px-1.5 py-0.5 font-mono text-[0.625rem] font-bold tracking-widest text-brand-200 ring-1 ring-inset ring-brand-300/30',
        !badge && 'invisible',
      )}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-400" />
      {badge?.label ?? 'PROD'}
    </span>
  );
}
