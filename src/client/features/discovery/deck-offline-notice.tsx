import { useEffect, useState, useSyncExternalStore } from 'react';
import { networkStatus, watchPendingCount } from '../../services/offline.ts';
import { cx } from '../../ui/cx.ts';
import { pendingLabel } from '../../ui/pending-label.ts';

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
    <p
      role="status"
      data-testid="deck-offline"
      className={cx(
        'flex items-center justify-center gap-2 self-center rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset',
        isOnline
          ? 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/10 dark:text-amber-200 dark:ring-amber-500/25'
          : 'bg-stone-100 text-stone-800 ring-stone-300 dark:bg-stone-800 dark:text-stone-100 dark:ring-stone-700',
      )}
    >
      <span
        aria-hidden="true"
        className={cx('size-2 rounded-full', isOnline ? 'bg-amber-500' : 'bg-stone-500 dark:bg-stone-400')}
      />
      {isOnline ? 'Enviando tus decisiones' : 'Sin conexión'}
      {pending > 0 && <span className="font-normal">· {pendingLabel(pending)}</span>}
    </p>
  );
}
