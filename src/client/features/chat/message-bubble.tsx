import type { GroupSummary } from '#shared/chat/chat-schemas';
import { madridClock } from '#shared/time/madrid-calendar';
import { cx } from '../../ui/cx.ts';
import { retryMessage } from './chat-store.ts';
import { MESSAGE_STATUS_LABELS, type ViewMessage } from './message-list.ts';

/** «Leído por N»: the other members whose read cursor reaches the message. */
export function readByCount(group: GroupSummary, message: ViewMessage, ownUserId: string): number {
  const seq = message.seq;
  if (seq === null) return 0;
  return group.members.filter((member) => member.userId !== ownUserId && member.readSeq >= seq).length;
}

/** One message of the thread: its bubble and, under the last of a run, the time and (own) status. */
/** A group's message from someone the reader blocked (docs/decisions/0056, amendment of session 17). */
export const HIDDEN_MESSAGE = 'Mensaje oculto: has bloqueado a esta persona.';

export function MessageBubble({
  message,
  isOwn,
  isLast,
  senderLabel,
  readBy,
}: {
  message: ViewMessage;
  isOwn: boolean;
  isLast: boolean;
  /** In a group, over the first of someone else's run of messages: their name. */
  senderLabel?: string;
  /** In a group, for one's own stored messages: «Leído por N». */
  readBy?: number;
}) {
  const isStored = message.status !== 'sending' && message.status !== 'error';
  return (
    <li
      className={cx('flex flex-col', isOwn ? 'items-end' : 'items-start')}
      data-testid="chat-message"
      data-own={isOwn}
    >
      {senderLabel && (
        <span
          className="mb-0.5 px-3 text-xs font-semibold text-stone-600 dark:text-stone-300"
          data-testid="sender-name"
        >
          {senderLabel}
        </span>
      )}
      <div
        className={cx(
          'max-w-[80%] whitespace-pre-wrap break-words rounded-2xl px-3.5 py-2 text-[0.9375rem] leading-snug sm:max-w-[70%]',
          isOwn
            ? 'bg-brand-700 text-white dark:bg-brand-500 dark:text-stone-950'
            : 'bg-white text-stone-900 ring-1 ring-stone-200 dark:bg-stone-800 dark:text-stone-100 dark:ring-white/8',
          isOwn ? (isLast ? 'rounded-br-md' : '') : isLast ? 'rounded-bl-md' : '',
          message.status === 'error' && 'opacity-70',
          message.isHidden && 'italic text-stone-500 dark:text-stone-400',
        )}
      >
        {message.isHidden ? HIDDEN_MESSAGE : message.text}
      </div>
      {isLast && (
        <div className="mt-1 flex items-center gap-2 px-1 text-[0.6875rem] text-stone-500 dark:text-stone-400">
          <time dateTime={message.timestamp}>{madridClock(message.timestamp)}</time>
          {isOwn && (
            <span
              data-testid="message-status"
              className={cx(
                message.status === 'error' && 'font-semibold text-red-700 dark:text-red-400',
                message.status === 'read' && 'text-brand-700 dark:text-brand-400',
              )}
            >
              · {readBy !== undefined && isStored ? `Leído por ${readBy}` : MESSAGE_STATUS_LABELS[message.status]}
            </span>
          )}
          {isOwn && message.status === 'error' && message.clientId && (
            <button
              type="button"
              onClick={() => retryMessage(message.clientId as string)}
              className="font-semibold text-brand-700 underline underline-offset-2 dark:text-brand-400"
            >
              Reintentar
            </button>
          )}
        </div>
      )}
    </li>
  );
}
