import { useEffect, useState, useSyncExternalStore } from 'react';
import { networkStatus, watchPendingCount } from '../../services/offline.ts';
import { type ConnectionStatus, connection } from '../../services/socket.ts';
import { cx } from '../../ui/cx.ts';

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

/** "1 pendiente de enviar" / "N pendientes de enviar": what the outbox still holds. */
export function pendingLabel(count: number): string {
  return count === 1 ? '1 pendiente de enviar' : `${count} pendientes de enviar`;
}

function usePendingCount(): number {
  const [count, setCount] = useState(0);
  useEffect(() => watchPendingCount(setCount), []);
  return count;
}

/** The connection banner; `isHiddenWhenConnected` for the list (spec 001 §4). */
export function ConnectionBanner({ isHiddenWhenConnected = false }: { isHiddenWhenConnected?: boolean }) {
  const status = useConnectionStatus();
  const pending = usePendingCount();
  if (status.status === 'connected' && isHiddenWhenConnected && pending === 0) return null;
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
      className={cx('flex items-center gap-2 rounded-xl px-3 py-1.5 text-xs font-semibold ring-1 ring-inset', tone)}
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
      {pending > 0 && status.status !== 'connected' && (
        <span className="font-normal" data-testid="pending-count">
          · {pendingLabel(pending)}
        </span>
      )}
    </div>
  );
}
