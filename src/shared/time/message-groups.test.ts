import { describe, expect, it } from 'vitest';
import {
  type GroupableMessage,
  groupMessages,
  MESSAGE_GROUP_WINDOW_MS,
  type MessageListItem,
} from './message-groups.ts';

// Friday 21 November 2025, 13:00 in Madrid (UTC+1).
const NOW = '2025-11-21T12:00:00Z';

interface TestMessage extends GroupableMessage {
  readonly id: string;
}

const at = (id: string, senderId: string, timestamp: string): TestMessage => ({ id, senderId, timestamp });

/** A compact picture of the layout: "— label" for separators, "sender: ids" for groups. */
function layout(items: readonly MessageListItem<TestMessage>[]): string[] {
  return items.map((item) =>
    item.kind === 'date' ? `— ${item.label}` : `${item.senderId}: ${item.messages.map((m) => m.id).join(',')}`,
  );
}

describe('groupMessages', () => {
  it('lays out nothing for no messages', () => {
    expect(groupMessages([], NOW)).toEqual([]);
  });

  it('groups one sender’s messages less than 5 minutes apart, each gap measured from the previous one', () => {
    const messages = [
      at('1', 'ana', '2025-11-21T09:00:00Z'),
      at('2', 'ana', '2025-11-21T09:04:00Z'),
      at('3', 'ana', '2025-11-21T09:08:59Z'),
      // exactly 5 minutes after the previous one: a new group
      at('4', 'ana', '2025-11-21T09:13:59Z'),
      at('5', 'luis', '2025-11-21T09:14:00Z'),
      at('6', 'ana', '2025-11-21T09:14:30Z'),
    ];
    expect(MESSAGE_GROUP_WINDOW_MS).toBe(300_000);
    expect(layout(groupMessages(messages, NOW))).toEqual(['— Hoy', 'ana: 1,2,3', 'ana: 4', 'luis: 5', 'ana: 6']);
  });

  it('starts a new group and a separator when the Madrid day changes', () => {
    const messages = [
      // 23:58 and 00:01 in Madrid: three minutes apart but on two days
      at('1', 'ana', '2025-11-19T22:58:00Z'),
      at('2', 'ana', '2025-11-19T23:01:00Z'),
      at('3', 'luis', '2025-11-21T08:00:00Z'),
    ];
    expect(layout(groupMessages(messages, NOW))).toEqual([
      '— 19 de noviembre',
      'ana: 1',
      '— Ayer',
      'ana: 2',
      '— Hoy',
      'luis: 3',
    ]);
  });

  it('labels separators of other years with the year', () => {
    const items = groupMessages([at('1', 'ana', '2024-12-31T10:00:00Z')], NOW);
    expect(items[0]).toEqual({
      kind: 'date',
      key: 'date:2024-12-31',
      day: '2024-12-31',
      label: '31 de diciembre de 2024',
    });
  });

  it('puts messages in time order, keeping the given order for equal times', () => {
    const messages = [
      at('3', 'ana', '2025-11-21T09:02:00Z'),
      at('1', 'ana', '2025-11-21T09:00:00Z'),
      at('2a', 'ana', '2025-11-21T09:01:00Z'),
      at('2b', 'ana', '2025-11-21T09:01:00Z'),
    ];
    expect(layout(groupMessages(messages, NOW))).toEqual(['— Hoy', 'ana: 1,2a,2b,3']);
  });

  it('places a message whose time does not parse at now (one still being sent)', () => {
    const messages = [at('x', 'ana', 'pendiente'), at('1', 'luis', '2025-11-20T09:00:00Z')];
    expect(layout(groupMessages(messages, NOW))).toEqual(['— Ayer', 'luis: 1', '— Hoy', 'ana: x']);
  });

  it('gives every item a stable, unique key', () => {
    const messages = [
      at('1', 'ana', '2025-11-20T09:00:00Z'),
      at('2', 'luis', '2025-11-20T09:00:30Z'),
      at('3', 'ana', '2025-11-21T09:00:00Z'),
    ];
    const keys = groupMessages(messages, NOW).map((item) => item.key);
    expect(new Set(keys).size).toBe(keys.length);
    // Loading an older page does not change the keys of what was already shown.
    const older = [at('0', 'luis', '2025-11-18T09:00:00Z'), ...messages];
    expect(groupMessages(older, NOW).map((item) => item.key)).toEqual(expect.arrayContaining(keys));
  });
});
