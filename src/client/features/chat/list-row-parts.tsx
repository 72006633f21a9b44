import type { ReactNode } from 'react';
import { listRelativeTime } from '#shared/time/relative-time';
import { cx } from '../../ui/cx.ts';

/** The parts a row of /messages shows at its right and below its name: one look for chats and groups. */

/** The row's name (the person, or the group's title), bolder while unread. */
export function ListName({ hasUnread, children }: { hasUnread: boolean; children: ReactNode }) {
  return (
    <span
      className={cx(
        'truncate text-[0.9375rem] text-stone-900 dark:text-white',
        hasUnread ? 'font-bold' : 'font-semibold',
      )}
    >
      {children}
    </span>
  );
}

/** When the last message was written ("Ahora", "5 min", "ayer"…), or nothing without one. */
export function ListTime({ timestamp, now }: { timestamp: string | undefined; now: number }) {
  return (
    <span className="ml-auto shrink-0 pl-2 text-xs text-stone-500 tabular-nums dark:text-stone-400">
      {timestamp ? listRelativeTime(timestamp, now) : ''}
    </span>
  );
}

/** The last message's line, bold while unread. */
export function ListPreview({ text, hasUnread, testId }: { text: string; hasUnread: boolean; testId: string }) {
  return (
    <span
      data-testid={testId}
      className={cx(
        'min-w-0 flex-1 truncate text-sm',
        hasUnread ? 'font-semibold text-stone-800 dark:text-stone-100' : 'text-stone-600 dark:text-stone-400',
      )}
    >
      {text}
    </span>
  );
}

/** The unread count ("99+" above 99), read out as "n sin leer". */
export function UnreadBadge({ count, testId }: { count: number; testId: string }) {
  return (
    <span
      data-testid={testId}
      className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-700 px-1.5 text-[0.6875rem] font-bold text-white tabular-nums dark:bg-brand-500 dark:text-stone-950"
    >
      {count > 99 ? '99+' : count}
      <span className="sr-only"> sin leer</span>
    </span>
  );
}
