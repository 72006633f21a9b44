import { useEffect, useState, useSyncExternalStore } from 'react';
import { networkStatus, watchPendingCount } from '../../services/offline.ts';
import { pendingLabel } from '../../ui/pending-label.ts';
import { StatusPill } from '../../ui/status-pill.tsx';

const SWIPE_KINDS = ['swipe'] as const;

/**
 * The deck's quiet offline state (issue #20): likes and passes made without a connection wait in
 * the outbox; this says so, with how many, and goes once they are sent.
 */
export function DeckOfflineNotice() {
  const isOnline = useSyncExternalStore(networkStatus.subscribe, networkStatus.getSnapshot, () => true);
  const [pending, setPending] = useState(0);
  useEffect(() => watchPendingCount(SWIPE_KINDS, setPending), []);
  if (isOnline && pending === 0) return null;
  return (
    <StatusPill tone={isOnline ? 'working' : 'offline'} testId="deck-offline" className="self-center">
      {isOnline ? 'Enviando tus decisiones' : 'Sin conexión'}
      {pending > 0 && <span className="font-normal">· {pendingLabel(pending)}</span>}
    </StatusPill>
  );
}
