import { describe, expect, it } from 'vitest';
import type { OutboxItem } from '../../services/local-db.ts';
import { messageOutboxItem, queuedMessage } from './queued-message.ts';

const stored = (item: Omit<OutboxItem, 'status' | 'attempts' | 'createdAt'>): OutboxItem => ({
  ...item,
  status: 'pending',
  attempts: 0,
  createdAt: '2026-11-28T00:00:00.000Z',
});

describe('a message in the outbox', () => {
  it('is stored once, in the request the worker replays', () => {
    const item = messageOutboxItem({ conversationId: 'c1', receiverId: 'u2', text: 'Hola', clientId: 'k1' });
    expect(item).toEqual({
      kind: 'message',
      scope: 'c1',
      clientId: 'k1',
      request: {
        method: 'POST',
        path: 'messages/messages',
        json: { conversationId: 'c1', receiverId: 'u2', text: 'Hola', clientId: 'k1' },
      },
    });
    expect(item).not.toHaveProperty('payload');
    expect(queuedMessage(stored(item))).toEqual({
      conversationId: 'c1',
      receiverId: 'u2',
      text: 'Hola',
      clientId: 'k1',
    });
  });

  it('is read from the request, not from a payload that says otherwise', () => {
    const item = stored({
      ...messageOutboxItem({ conversationId: 'c1', receiverId: 'u2', text: 'Lo enviado', clientId: 'k1' }),
      payload: { conversationId: 'c1', receiverId: 'u2', text: 'Otra copia' },
    });
    expect(queuedMessage(item).text).toBe('Lo enviado');
  });

  it('still sends an item stored by an older version (payload copy, request without the message)', () => {
    const older = stored({
      kind: 'message',
      scope: 'c9',
      clientId: 'k9',
      request: { method: 'POST', path: 'messages/messages' },
      payload: { conversationId: 'c9', receiverId: '', text: '¿Entrenamos mañana?' },
    });
    expect(queuedMessage(older)).toEqual({
      conversationId: 'c9',
      receiverId: '',
      text: '¿Entrenamos mañana?',
      clientId: 'k9',
    });
  });
});
