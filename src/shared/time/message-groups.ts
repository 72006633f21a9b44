/**
 * How a conversation is laid out (spec 001 §2): messages in time order, a date separator when the
 * Madrid day changes, and consecutive messages of one sender less than 5 minutes apart grouped.
 */
import { type DateInput, longSpanishDate, madridDayKey, madridDaysBetween, toDate } from './madrid-calendar.ts';

/** Messages of one sender closer than this are grouped (spec 001 §9). */
export const MESSAGE_GROUP_WINDOW_MS = 300_000;

export interface GroupableMessage {
  readonly senderId: string;
  readonly timestamp: DateInput;
}

export interface DateSeparator {
  readonly kind: 'date';
  /** Stable across re-renders and pages: the Madrid day. */
  readonly key: string;
  /** "YYYY-MM-DD" in Madrid. */
  readonly day: string;
  /** "Hoy", "Ayer" or "21 de noviembre" (with the year when it is not this year). */
  readonly label: string;
}

export interface MessageGroup<T> {
  readonly kind: 'group';
  /** Stable across re-renders and pages: sender and time of the group's first message. */
  readonly key: string;
  readonly senderId: string;
  readonly messages: readonly T[];
}

export type MessageListItem<T> = DateSeparator | MessageGroup<T>;

/** The label of a date separator. */
export function dateSeparatorLabel(value: DateInput, now: DateInput): string {
  const days = madridDaysBetween(value, now);
  if (days === 0) return 'Hoy';
  if (days === 1) return 'Ayer';
  return longSpanishDate(value, now);
}

/**
 * Sorts (stably) by time and lays the messages out as separators and groups. A message whose
 * timestamp does not parse is placed at `now`: it is usually one still being sent.
 */
export function groupMessages<T extends GroupableMessage>(
  messages: readonly T[],
  now: DateInput,
): MessageListItem<T>[] {
  const nowMs = toDate(now).getTime();
  const timed = messages
    .map((message) => {
      const ms = toDate(message.timestamp).getTime();
      return { message, ms: Number.isNaN(ms) ? nowMs : ms };
    })
    .sort((a, b) => a.ms - b.ms);

  const items: MessageListItem<T>[] = [];
  let currentDay: string | null = null;
  // The group still open for more messages; it is already in `items` and only grows.
  let open: { kind: 'group'; key: string; senderId: string; messages: T[] } | null = null;
  let previousMs = Number.NEGATIVE_INFINITY;

  for (const { message, ms } of timed) {
    const day = madridDayKey(ms);
    if (day !== currentDay) {
      currentDay = day;
      open = null;
      items.push({ kind: 'date', key: `date:${day}`, day, label: dateSeparatorLabel(ms, now) });
    }
    if (open && open.senderId === message.senderId && ms - previousMs < MESSAGE_GROUP_WINDOW_MS) {
      open.messages.push(message);
    } else {
      open = { kind: 'group', key: `${message.senderId}@${ms}`, senderId: message.senderId, messages: [message] };
      items.push(open);
    }
    previousMs = ms;
  }
  return items;
}
