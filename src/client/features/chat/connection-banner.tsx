import { useEffect, useState, useSyncExternalStore } from 'react';
import { networkStatus, outbox, watchPendingCount } from '../../services/offline.ts';
import { type ConnectionStatus, connection } from '../../services/socket.ts';
import { pendingLabel } from '../../ui/pending-label.ts';
import { StatusPill } from '../../ui/status-pill.tsx';
import { shownConnectionStatus } from './shown-connection-status.ts';

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

/** The socket's status as a signed-in screen shows it (`shownConnectionStatus`). */
export function useConnectionStatus(): ConnectionStatus {
  const status = useSyncExternalStore(connection.subscribe, connection.getSnapshot, connection.getSnapshot);
  const isOnline = useSyncExternalStore(networkStatus.subscribe, networkStatus.getSnapshot, () => true);
  return shownConnectionStatus(status, isOnline);
}

const MESSAGE_KINDS = ['message'] as const;

/** Said beside the pending count while the server refuses writes for now (an outage: 503, 507). */
export const RETRYING_LABEL = 'el servidor no responde, se reintentará';

function usePendingMessages(): number {
  const [count, setCount] = useState(0);
  useEffect(() => watchPendingCount(MESSAGE_KINDS, setCount), []);
  return count;
}

function useBannerState() {
  const status = useConnectionStatus();
  const pending = usePendingMessages();
  // Connected, yet the outbox waits to retry: the server refused for now (an outage), say so.
  const drain = useSyncExternalStore(outbox.subscribe, outbox.getSnapshot, outbox.getSnapshot);
  const isRetrying = drain.status === 'waiting-backoff' && pending > 0;
  return { status, pending, isRetrying, isQuiet: status.status === 'connected' && pending === 0 };
}

function BannerPill({ status, pending, isRetrying }: ReturnType<typeof useBannerState>) {
  const tone = status.status === 'connected' ? 'fine' : status.status === 'disconnected' ? 'offline' : 'working';
  return (
    <StatusPill tone={tone} testId="connection-banner" isPulsing={tone === 'working'} className="max-w-full shadow-sm">
      {connectionLabel(status)}
      {pending > 0 && (
        <span className="font-normal" data-testid="pending-count">
          · {pendingLabel(pending)}
          {isRetrying ? ` · ${RETRYING_LABEL}` : ''}
        </span>
      )}
    </StatusPill>
  );
}

function QuietStatus({ status }: { status: ConnectionStatus }) {
  return (
    <p role="status" data-testid="connection-banner" className="sr-only">
      {connectionLabel(status)}
    </p>
  );
}

/**
 * The connection banner (spec 001 §2, §4): shown only when the connection is not fine or messages
 * wait to be sent (issue #20: no permanent green row over every chat). Connected, the chat keeps
 * the status for screen readers only; the list shows nothing.
 */
export function ConnectionBanner({ isHiddenWhenConnected = false }: { isHiddenWhenConnected?: boolean }) {
  const state = useBannerState();
  if (state.isQuiet) return isHiddenWhenConnected ? null : <QuietStatus status={state.status} />;
  return <BannerPill {...state} />;
}

/**
 * The banner inside a conversation. Offline — a state that lasts, read while the thread is read —
 * it takes a slim row of its own between the header and the thread, so it never covers a message
 * (issue #34); the thread keeps its newest message in view as it shrinks. A passing state
 * ("Conectando...", a send under way) floats over the thread's top instead: showing or hiding it
 * never moves the messages (no layout shift while the chat loads).
 */
export function ThreadConnectionBanner() {
  const state = useBannerState();
  if (state.isQuiet) return <QuietStatus status={state.status} />;
  if (state.status.status === 'disconnected') {
    return (
      <div className="flex justify-center pt-2" data-testid="thread-status-row">
        <BannerPill {...state} />
      </div>
    );
  }
  return (
    <div className="relative z-10 h-0">
      <div className="absolute inset-x-0 top-2 flex justify-center">
        <BannerPill {...state} />
      </div>
    </div>
  );
}
