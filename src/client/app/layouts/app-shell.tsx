import { Link, Outlet } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { CountBadge } from '../../ui/count-badge.tsx';
import { cx } from '../../ui/cx.ts';
import { FlameIcon } from '../../ui/icons.tsx';
import { Logo } from '../../ui/logo.tsx';
import { StatusPill } from '../../ui/status-pill.tsx';
import { NAV_ITEMS, type NavCounter, type NavItem } from './nav-items.ts';

export type NavCounts = Record<NavCounter, number>;

const NO_COUNTS: NavCounts = { matches: 0, messages: 0, notifications: 0 };

/** What the frame shows besides the pages: the badges, the bell's ring and the streak. */
export type ShellStatus = {
  counts: NavCounts;
  /** Changes each time the notification count grows; the bell rings while `isBellRinging`. */
  bellRing?: number;
  isBellRinging?: boolean;
  /** "¡Primer día!" or "Racha: N días"; null hides it. */
  streakLabel?: string | null;
  /** The browser is offline and the page on screen does not say so itself: the frame says "Sin conexión". */
  isOfflineShown?: boolean;
};

/** Issue #22: every signed-in screen opened offline says so, next to what the device holds. */
function OfflineBadge({ className }: { className?: string }) {
  return (
    <StatusPill tone="offline" testId="offline-badge" className={className}>
      Sin conexión
    </StatusPill>
  );
}

function NavIcon({ item, status, className }: { item: NavItem; status: ShellStatus; className: string }) {
  const isRinging = item.counter?.key === 'notifications' && status.isBellRinging === true;
  return (
    <item.icon
      key={isRinging ? `ring-${status.bellRing ?? 0}` : 'still'}
      className={cx(className, isRinging && 'bell-ring')}
    />
  );
}

function StreakPill({ label, className }: { label: string; className?: string }) {
  return (
    <p
      data-testid="streak"
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full bg-brand-50 px-3 py-1 text-xs font-bold text-brand-800 ring-1 ring-inset ring-brand-200 dark:bg-brand-500/12 dark:text-brand-200 dark:ring-brand-500/25',
        className,
      )}
    >
      <FlameIcon className="size-4 text-brand-600 dark:text-brand-400" />
      {label}
    </p>
  );
}

function SkipLink() {
  return (
    <a
      href="#contenido"
      className="sr-only z-[70] rounded-xl bg-brand-700 px-4 py-2.5 font-semibold text-white focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
    >
      Saltar al contenido
    </a>
  );
}

function Sidebar({ status }: { status: ShellStatus }) {
  const { counts } = status;
  return (
    <aside className="fixed inset-y-0 left-0 z-30 hidden w-64 flex-col border-r border-stone-200/80 bg-white/90 px-4 py-6 backdrop-blur-xl lg:flex xl:w-72 dark:border-white/8 dark:bg-stone-900/80">
      <Link
        to="/home"
        className="mb-8 self-start rounded-xl px-2 focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
      >
        <Logo />
        <span className="sr-only">, ir a Conectar</span>
      </Link>
      {status.streakLabel && <StreakPill label={status.streakLabel} className="-mt-4 mb-6 ml-2 self-start" />}
      {status.isOfflineShown && <OfflineBadge className="-mt-2 mb-6 ml-2 self-start" />}
      <nav aria-label="Navegación principal">
        <ul className="flex flex-col gap-1">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                className="group flex h-12 items-center gap-3 rounded-2xl px-3 text-[0.9375rem] font-semibold text-stone-700 transition-colors duration-150 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-brand-600 motion-reduce:transition-none dark:text-stone-300 dark:hover:bg-white/6 dark:hover:text-white dark:focus-visible:outline-brand-400"
                activeProps={{
                  className:
                    '!bg-brand-50 !text-brand-800 ring-1 ring-inset ring-brand-200/70 dark:!bg-brand-500/12 dark:!text-brand-200 dark:ring-brand-500/25',
                }}
              >
                <NavIcon item={item} status={status} className="size-5.5 shrink-0" />
                <span className="flex-1">{item.label}</span>
                {item.counter && (
                  <CountBadge
                    count={counts[item.counter.key]}
                    max={item.counter.max}
                    srSuffix={item.counter.srSuffix}
                  />
                )}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </aside>
  );
}

function BottomBar({ status }: { status: ShellStatus }) {
  const { counts } = status;
  return (
    <nav
      aria-label="Navegación principal"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-stone-200/80 bg-white/90 pb-[env(safe-area-inset-bottom)] backdrop-blur-xl lg:hidden dark:border-white/8 dark:bg-stone-900/85"
    >
      <ul className="mx-auto flex h-16 max-w-lg items-stretch px-0.5">
        {NAV_ITEMS.map((item) => (
          <li key={item.to} className="min-w-0" style={{ flex: `${item.mobileGrow} 1 0%` }}>
            <Link
              to={item.to}
              className="group flex h-full flex-col items-center justify-center gap-1 rounded-2xl text-stone-600 focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-brand-600 dark:text-stone-400 dark:focus-visible:outline-brand-400"
              activeProps={{ className: '!text-brand-700 dark:!text-brand-400' }}
            >
              <span className="relative grid h-7 w-12 place-items-center rounded-full transition-colors duration-150 group-aria-[current=page]:bg-brand-100 motion-reduce:transition-none dark:group-aria-[current=page]:bg-brand-500/15">
                <NavIcon item={item} status={status} className="size-5.5" />
                {item.counter && (
                  <CountBadge
                    count={counts[item.counter.key]}
                    max={item.counter.max}
                    srSuffix={item.counter.srSuffix}
                    className="absolute -right-0.5 -top-1.5 ring-2 ring-white dark:ring-stone-900"
                  />
                )}
              </span>
              {/* Every tab shows its name (issue #22); no aria-label, so the visible text and the
                  badge count make the accessible name (WCAG 2.5.3). */}
              <span className="max-w-full truncate text-[0.625rem] font-semibold leading-none tracking-tight">
                {item.label}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The signed-in area's frame (spec 001 §2): a sidebar from the `lg` breakpoint, a top bar and a
 * bottom tab bar on phones. Pages render in <main id="contenido">.
 */
export function AppShell({
  status = { counts: NO_COUNTS },
  isBottomBarHidden = false,
  children,
}: {
  status?: ShellStatus;
  /** Phones: no bottom bar (inside a conversation, whose header leads back). */
  isBottomBarHidden?: boolean;
  children?: ReactNode;
}) {
  return (
    // overflow-x: clip, not hidden: a card dragged off screen never widens the page (so the bottom
    // bar never shifts), and the sticky header keeps working (clip makes no scroll container).
    <div className="min-h-dvh overflow-x-clip">
      <SkipLink />
      <Sidebar status={status} />
      <header className="sticky top-0 z-20 flex h-14 items-center border-b border-stone-200/80 bg-white/85 px-4 pt-[env(safe-area-inset-top)] backdrop-blur-xl lg:hidden dark:border-white/8 dark:bg-stone-900/85">
        <Link
          to="/home"
          className="rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
        >
          <Logo size="sm" />
          <span className="sr-only">, ir a Conectar</span>
        </Link>
        <span className="ml-auto flex items-center gap-2">
          {status.isOfflineShown && <OfflineBadge />}
          {status.streakLabel && <StreakPill label={status.streakLabel} />}
        </span>
      </header>
      <main
        id="contenido"
        tabIndex={-1}
        className={cx(
          'outline-none lg:pl-64 xl:pl-72',
          isBottomBarHidden ? 'pb-[env(safe-area-inset-bottom)]' : 'pb-[calc(5rem+env(safe-area-inset-bottom))]',
          'lg:pb-0',
        )}
      >
        <div className="mx-auto w-full max-w-3xl px-4 py-6 sm:px-6 lg:px-10 lg:py-10">{children ?? <Outlet />}</div>
      </main>
      {!isBottomBarHidden && <BottomBar status={status} />}
    </div>
  );
}
