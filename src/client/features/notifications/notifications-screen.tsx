import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import type { Notification, NotificationPriority, NotificationType } from '#shared/notifications/notification-schemas';
import { useIsOnline, useReloadWhenOnline } from '../../services/network.ts';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import {
  AlertCircleIcon,
  BellIcon,
  CheckIcon,
  DumbbellIcon,
  InboxIcon,
  InfoIcon,
  MessageIcon,
  SparklesIcon,
  ZapIcon,
} from '../../ui/icons.tsx';
import { OfflinePlaceholder } from '../../ui/offline-placeholder.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import {
  isBodyLong,
  NOTIFICATION_FILTERS,
  type NotificationFilter,
  notificationTarget,
  notificationTimeLine,
  previewBody,
} from './notification-list.ts';
import { notificationsStore } from './notifications-live.ts';

/** Spec 001 §9: "infinite scroll at 10% visibility". */
const END_MARKER_THRESHOLD = 0.1;

const TYPE_LOOK: Record<NotificationType, { icon: typeof BellIcon; label: string; className: string }> = {
  welcome: {
    icon: SparklesIcon,
    label: 'Bienvenida',
    className: 'bg-brand-100 text-brand-800 dark:bg-brand-500/15 dark:text-brand-300',
  },
  match: {
    icon: DumbbellIcon,
    label: 'Match',
    className: 'bg-rose-100 text-rose-700 dark:bg-rose-500/15 dark:text-rose-300',
  },
  message: {
    icon: MessageIcon,
    label: 'Mensaje',
    className: 'bg-sky-100 text-sky-800 dark:bg-sky-500/15 dark:text-sky-300',
  },
  system: {
    icon: InfoIcon,
    label: 'Sistema',
    className: 'bg-stone-200 text-stone-700 dark:bg-stone-700/60 dark:text-stone-200',
  },
  activity: {
    icon: ZapIcon,
    label: 'Actividad',
    className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300',
  },
  reminder: {
    icon: BellIcon,
    label: 'Recordatorio',
    className: 'bg-amber-100 text-amber-800 dark:bg-amber-500/15 dark:text-amber-300',
  },
};

/**
 * Spec 001 §2: "border by priority (high red, low light gray, normal gray)", on the card's thick
 * left edge; the other three sides stay neutral, so a high-priority match reads as news, not as an
 * error outlined in red (issue #34).
 */
const PRIORITY_BORDER: Record<NotificationPriority, string> = {
  high: 'border-l-red-500 dark:border-l-red-500/80',
  normal: 'border-l-stone-300 dark:border-l-stone-600',
  low: 'border-l-stone-200 dark:border-l-stone-800',
};

const CARD_ACTION =
  'inline-flex h-9 items-center rounded-xl px-2.5 text-sm font-semibold transition-colors duration-150 motion-reduce:transition-none ' +
  'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400';

function FilterChips({
  value,
  onChange,
}: {
  value: NotificationFilter;
  onChange: (filter: NotificationFilter) => void;
}) {
  return (
    <fieldset className="-mx-4 flex min-w-0 gap-2 overflow-x-auto px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:px-0">
      <legend className="sr-only">Filtrar por tipo</legend>
      {NOTIFICATION_FILTERS.map((filter) => {
        const isActive = filter.value === value;
        return (
          <button
            key={filter.value}
            type="button"
            aria-pressed={isActive}
            onClick={() => onChange(filter.value)}
            className={cx(
              'h-9 shrink-0 rounded-full px-3.5 text-sm font-semibold ring-1 ring-inset transition-colors duration-150 motion-reduce:transition-none',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400',
              isActive
                ? 'bg-stone-900 text-white ring-stone-900 dark:bg-white dark:text-stone-900 dark:ring-white'
                : 'bg-white text-stone-700 ring-stone-300 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700 dark:hover:bg-stone-800',
            )}
          >
            {filter.label}
          </button>
        );
      })}
    </fieldset>
  );
}

function NotificationCard({ notification, now }: { notification: Notification; now: Date }) {
  const navigate = useNavigate();
  const [isExpanded, setIsExpanded] = useState(false);
  const bodyId = useId();
  const look = TYPE_LOOK[notification.type];
  const target = notificationTarget(notification);
  const isLong = isBodyLong(notification.body);
  const open = () => {
    if (!target) return;
    if (!notification.isRead) void notificationsStore.toggleRead(notification._id);
    void navigate({ to: target });
  };
  return (
    <li
      data-testid="notification-card"
      data-read={notification.isRead}
      className={cx(
        'flex gap-3 rounded-2xl border border-l-4 border-stone-200 p-4 shadow-sm transition-colors duration-150 motion-reduce:transition-none sm:gap-4 sm:p-5 dark:border-stone-800',
        PRIORITY_BORDER[notification.priority],
        notification.isRead ? 'bg-stone-50 shadow-none dark:bg-stone-900/50' : 'bg-white dark:bg-stone-900',
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          'grid size-10 shrink-0 place-items-center rounded-xl sm:size-11',
          look.className,
          notification.isRead && 'opacity-60',
        )}
      >
        <look.icon className="size-5" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
          <h2
            className={cx(
              'min-w-0 text-[0.9375rem] leading-snug',
              notification.isRead
                ? 'font-medium text-stone-600 dark:text-stone-400'
                : 'font-bold text-stone-900 dark:text-white',
            )}
          >
            {!notification.isRead && (
              <span aria-hidden="true" className="mr-1.5 inline-block size-2 rounded-full bg-brand-600 align-middle" />
            )}
            {target ? (
              <button
                type="button"
                onClick={open}
                // WCAG 2.2 target size: at least 24 px high (issue #34: it was 21).
                className="inline-block min-h-6 rounded text-left hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
              >
                {notification.title}
              </button>
            ) : (
              notification.title
            )}
            <span className="sr-only">{`. ${look.label}${notification.isRead ? ', leída' : ', sin leer'}`}</span>
          </h2>
          <time dateTime={notification.createdAt} className="shrink-0 text-xs text-stone-600 dark:text-stone-400">
            {notificationTimeLine(notification.createdAt, now)}
          </time>
        </div>
        {notification.body !== '' && (
          <p
            id={bodyId}
            className={cx(
              'whitespace-pre-line break-words text-sm leading-relaxed',
              notification.isRead ? 'text-stone-600 dark:text-stone-400' : 'text-stone-700 dark:text-stone-300',
            )}
          >
            {isExpanded ? notification.body : previewBody(notification.body)}{' '}
            {isLong && (
              <button
                type="button"
                aria-expanded={isExpanded}
                aria-controls={bodyId}
                onClick={() => setIsExpanded((value) => !value)}
                className="inline-block min-h-6 rounded font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-400 dark:focus-visible:outline-brand-400"
              >
                {isExpanded ? 'Ver menos' : 'Ver más'}
              </button>
            )}
          </p>
        )}
        <div className="-ml-2 mt-1 flex flex-wrap gap-1">
          <button
            type="button"
            className={cx(CARD_ACTION, 'text-stone-700 hover:bg-stone-900/5 dark:text-stone-200 dark:hover:bg-white/8')}
            onClick={() => void notificationsStore.toggleRead(notification._id)}
          >
            {notification.isRead ? 'Marcar como no leída' : 'Marcar como leída'}
          </button>
          <button
            type="button"
            className={cx(CARD_ACTION, 'text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-500/10')}
            onClick={() => void notificationsStore.remove(notification._id)}
          >
            Eliminar
          </button>
        </div>
      </div>
    </li>
  );
}

/** Watches the end of the list and asks for the next page when 10% of the marker shows. */
function EndMarker({ onVisible }: { onVisible: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) callback.current();
      },
      { threshold: END_MARKER_THRESHOLD },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return <div ref={ref} aria-hidden="true" className="h-4" data-testid="notifications-end" />;
}

function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-3xl bg-white px-6 py-12 text-center shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
      {children}
    </div>
  );
}

/** /notifications (spec 001 §2). */
export function NotificationsScreen() {
  usePageTitle('Notificaciones');
  const snap = useSnapshot(notificationsStore.state);
  const [now, setNow] = useState(() => new Date());

  useEffect(() => {
    void notificationsStore.load(notificationsStore.state.filter);
    void notificationsStore.refreshCount();
    // "Hoy" and "Ayer" move on at midnight; a minute is precise enough for HH:mm texts.
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);

  const list = snap.list;
  const isOnline = useIsOnline();
  useReloadWhenOnline(list.status === 'error', () => notificationsStore.load(notificationsStore.state.filter));
  const isFiltered = snap.filter !== 'all';
  const hasMore = list.status === 'ready' && snap.page < snap.pages;
  return (
    <div className="flex flex-col gap-5">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
            Notificaciones
          </h1>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Tus matches, mensajes y actividades, todo en un mismo sitio.
          </p>
        </div>
        <Button
          size="sm"
          variant="secondary"
          iconStart={<CheckIcon className="size-4" />}
          disabled={snap.unreadCount === 0 || snap.isMarkingAll}
          isLoading={snap.isMarkingAll}
          loadingText="Marcando..."
          onClick={() => void notificationsStore.markAllRead()}
          className="self-start sm:self-auto"
        >
          {`Marcar todas como leídas${snap.unreadCount > 0 ? ` (${snap.unreadCount})` : ''}`}
        </Button>
      </header>

      <FilterChips value={snap.filter} onChange={(filter) => void notificationsStore.load(filter)} />

      {(list.status === 'loading' || list.status === 'idle') && (
        <Panel>
          <Spinner size="lg" label={null} className="text-brand-600 dark:text-brand-400" />
          <p role="status" className="text-sm font-medium text-stone-700 dark:text-stone-300">
            Cargando notificaciones...
          </p>
        </Panel>
      )}

      {list.status === 'error' && !isOnline && <OfflinePlaceholder />}
      {list.status === 'error' && isOnline && (
        <Panel>
          <AlertCircleIcon className="size-8 text-red-700 dark:text-red-400" />
          <p role="alert" className="font-semibold text-stone-900 dark:text-white">
            {list.message}
          </p>
          <Button variant="secondary" onClick={() => void notificationsStore.load(snap.filter)}>
            Reintentar
          </Button>
        </Panel>
      )}

      {list.status === 'ready' && snap.items.length === 0 && (
        <Panel>
          <span className="grid size-16 place-items-center rounded-2xl bg-brand-50 text-brand-700 ring-1 ring-brand-200 dark:bg-brand-500/12 dark:text-brand-300 dark:ring-brand-500/25">
            <InboxIcon className="size-8" />
          </span>
          <h2 className="text-lg font-bold text-stone-900 dark:text-white">No hay notificaciones</h2>
          <p className="max-w-sm text-sm text-stone-600 dark:text-stone-300">
            {isFiltered ? 'No tienes notificaciones de este tipo.' : 'No tienes notificaciones para mostrar.'}
          </p>
        </Panel>
      )}

      {list.status === 'ready' && snap.items.length > 0 && (
        <>
          <ul aria-label="Lista de notificaciones" className="flex flex-col gap-3">
            {snap.items.map((notification) => (
              <NotificationCard key={notification._id} notification={notification as Notification} now={now} />
            ))}
          </ul>
          {hasMore && <EndMarker onVisible={() => void notificationsStore.loadMore()} />}
          {snap.isLoadingMore && (
            <p
              role="status"
              className="flex items-center justify-center gap-2 py-2 text-sm font-medium text-stone-600 dark:text-stone-400"
            >
              <Spinner size="sm" label={null} />
              Cargando más notificaciones...
            </p>
          )}
        </>
      )}
    </div>
  );
}
