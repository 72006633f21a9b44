import { useEffect, useState, useSyncExternalStore } from 'react';
import { networkStatus, outbox, watchPendingCount } from '../../services/offline.ts';
import { type ConnectionStatus, connection } from '../../services/socket.ts';
import { cx } from '../../ui/cx.ts';
import { pendingLabel } from '../../ui/pending-label.ts';

/** The banner texts of spec 001 §2. */
export function connectionLabel(status: ConnectionStatus): string {
  switch (status.status) {
    case 'connected':
      return 'Conectado';
    case 'connecting':
      return 'Conectando...';
    case 'reconnecting':
      return 'Reconectando...';
    case 'disconnected':
      return 'Sin conexión';
  }
}

const OFFLINE: ConnectionStatus = { status: 'disconnected', reason: 'server' };

/** The socket's status; "Sin conexión" whenever the browser itself is offline. */
export function useConnectionStatus(): ConnectionStatus {
  const status = useSyncExternalStore(connection.subscribe, connection.getSnapshot, connection.getSnapshot);
  const isOnline = useSyncExternalStore(networkStatus.subscribe, networkStatus.getSnapshot, () => true);
  return isOnline ? status : OFFLINE;
}

const MESSAGE_KINDS = ['message'] as const;

/** Said beside the pending count while the server refuses writes for now (an outage: 503, 507). */
export const RETRYING_LABEL = 'el servidor no responde, se reintentará';

function usePendingMessages(): number {
  const [count, setCount] = useState(0);
  useEffect(() => watchPendingCount(MESSAGE_KINDS, setCount), []);
  return count;
}

/**
 * The connection banner (spec 001 §2, §4): shown only when the connection is not fine or messages
 * wait to be sent (issue #20: no permanent green row over every chat). Connected, the chat keeps
 * the status for screen readers only; the list shows nothing.
 */
export function ConnectionBanner({ isHiddenWhenConnected = false }: { isHiddenWhenConnected?: boolean }) {
  const status = useConnectionStatus();
  const pending = usePendingMessages();
  // Connected, yet the outbox waits to retry: the server refused for now (an outage), say so.
  const drain = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot, outbox.getSnapshot);
  const isRetrying = drain.status === 'waiting-backoff' && pending > 0;
  if (status.status === 'connected' && pending === 0) {
    if (isHiddenWhenConnected) return null;
    return (
      <p role="status" data-testid="connection-banner" className="sr-only">
        {connectionLabel(status)}
      </p>
    );
  }
  const tone =
    status.status === 'connected'
      ? 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/10 dark:text-emerald-200 dark:ring-emerald-500/25'
      : status.status === 'disconnected'
        ? 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-500/25'
        : 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-500/25';
  return (
    <div
      role="status"
      data-testid="connection-banner"
      className={cx(
        'flex items-center gap-2 rounded-xl px-3 py-1.5 text-xs font-semibold shadow-sm ring-1 ring-inset',
        tone,
      )}
    >
      <span
        aria-hidden="true"
        className={cx(
          'size-2 rounded-full',
          status.status === 'connected'
            ? 'bg-emerald-500'
            : status.status === 'disconnected'
              ? 'bg-red-500'
              : 'bg-amber-500 animate-pulse motion-reduce:animate-none',
        )}
      />
      {connectionLabel(status)}
      {pending > 0 && (
        <span className="font-normal" data-testid="pending-count">
          · {pendingLabel(pending)}
          {isRetrying ? ` · ${RETRYING_LABEL}` : ''}
        </span>
      )}
    </div>
  );
}
