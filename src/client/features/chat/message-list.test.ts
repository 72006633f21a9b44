import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#shared/chat/chat-schemas';
import {
  addServerMessage,
  applyReceipt,
  confirmSent,
  createPendingMessage,
  markFailed,
  markRetrying,
} from './message-list.ts';

const stored = (patch: Partial<ChatMessage> = {}): ChatMessage => ({
  _id: 'm1',
  conversationId: 'c',
  sender_id: 'me',
  senderId: 'me',
  receiverId: 'you',
  text: 'Hola',
  timestamp: '2025-01-01T10:00:00.000Z',
  read: false,
  status: 'sent',
  seq: 1,
  clientId: 'k1',
  senderName: 'Yo',
  senderPhoto: null,
  ...patch,
});
const pending = () =>
  createPendingMessage({
    clientId: 'k1',
    conversationId: 'c',
    senderId: 'me',
    receiverId: 'you',
    text: 'Hola',
    timestamp: '2025-01-01T10:00:00.000Z',
  });

describe('message status', () => {
  it('goes Enviando → Enviado → Entregado → Leído', () => {
    let list = [pending()] as const;
    expect(list[0].status).toBe('sending');
    let next = confirmSent(list, 'k1', stored());
    expect(next[0]).toMatchObject({ _id: 'm1', status: 'sent' });
    next = applyReceipt(next, { messageIds: ['m1'], status: 'delivered' }, 'me');
    expect(next[0]?.status).toBe('delivered');
    next = applyReceipt(next, { messageIds: ['m1'], status: 'read' }, 'me');
    expect(next[0]?.status).toBe('read');
    // A late receipt or acknowledgement never goes back.
    next = applyReceipt(next, { messageIds: ['m1'], status: 'delivered' }, 'me');
    expect(next[0]?.status).toBe('read');
    list = [pending()];
    expect(list).toHaveLength(1);
  });

  it('fails to Error al enviar and retries back to Enviando', () => {
    const failed = markFailed([pending()], 'k1');
    expect(failed[0]?.status).toBe('error');
    expect(markRetrying(failed, 'k1')[0]?.status).toBe('sending');
  });

  it('replaces the pending copy when the server echo arrives before the ack, once', () => {
    const echoed = addServerMessage([pending()], stored());
    expect(echoed).toHaveLength(1);
    expect(echoed[0]?._id).toBe('m1');
    const acked = confirmSent(echoed, 'k1', stored());
    expect(acked).toHaveLength(1);
    expect(acked[0]?.status).toBe('sent');
  });

  it('ignores incoming messages with empty text or a known id', () => {
    const list = addServerMessage([], stored({ _id: 'x', clientId: null, senderId: 'you', sender_id: 'you' }));
    expect(addServerMessage(list, stored({ _id: 'x', clientId: null }))).toBe(list);
    expect(addServerMessage(list, stored({ _id: 'y', text: '   ', clientId: null }))).toBe(list);
  });

  it('keeps a hidden group message (no text: from someone the reader blocked)', () => {
    const hidden = stored({ _id: 'h', text: '', isHidden: true, clientId: null, senderId: 'you', sender_id: 'you' });
    expect(addServerMessage([], hidden)).toMatchObject([{ _id: 'h', isHidden: true }]);
  });

  it('applies receipts only to own stored messages', () => {
    const theirs = addServerMessage([], stored({ _id: 'theirs', senderId: 'you', sender_id: 'you', clientId: null }));
    const list = [...theirs, pending()];
    const next = applyReceipt(list, { status: 'read' }, 'me');
    expect(next).toBe(list);
  });
});
