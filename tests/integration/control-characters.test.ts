// @setup embedded
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatchedPair, emitWithAck, type MatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../helpers/discovery-api.ts';
import { proposalBody, quedadaCalls } from '../helpers/quedada-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * #19 §3: a NUL (or another control character) in any string is a 400 naming the field, on every
 * route and socket event, before anything reaches the database (PostgreSQL cannot store NUL).
 */
describe('control characters in input', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let pair: MatchedPair;
  let socket: Socket;

  beforeAll(async () => {
    app = await startTestApp({ rateLimitIpFactor: 1000 });
    api = createDiscoveryApi(app);
    pair = await createMatchedPair(api);
    socket = await connectSocket(app, { token: pair.a.token });
  });
  afterAll(async () => {
    socket?.close();
    await app?.close();
  });

  const refused = (answer: { status: number; body: Record<string, unknown> }, field: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({
      success: false,
      errorType: 'VALIDATION',
      message: `El campo ${field} contiene caracteres no permitidos`,
    });
  };

  it('check-email, login and forgot-password answer 400 naming the field', async () => {
    refused(await api.post('/auth/check-email', { email: 'ana\u0000@example.com' }), 'email');
    refused(await api.post('/auth/login', { email: 'ana@example.com', password: 'Secreta\u00001!' }), 'password');
    refused(await api.post('/auth/forgot-password', { email: '\u0000' }), 'email');
    refused(await api.post('/auth/login', { email: 'ana@example.com\u001b', password: 'x' }), 'email');
  });

  it('report details, message text and profile fields answer 400 naming the field', async () => {
    const { a, b, conversationId } = pair;
    refused(
      await api.post('/safety/reports', { userId: b.userId, reason: 'spam', details: 'hola\u0000' }, a.token),
      'details',
    );
    refused(
      await api.post('/messages/messages', { conversationId, receiverId: b.userId, text: 'hola\u0000' }, a.token),
      'text',
    );
    refused(
      await api.put(
        `/profiles/${a.userId}`,
        { userId: a.userId, location: { latitude: 40, longitude: -3, city: 'Ma\u0007drid' } },
        a.token,
      ),
      'location.city',
    );
    // Nothing was stored: the conversation holds no message.
    const listed = await api.get(`/messages/conversations/${conversationId}/messages`, a.token);
    expect(listed.body.messages).toEqual([]);
  });

  it('query strings and path parameters too', async () => {
    refused(await api.get('/notifications?type=%00', pair.a.token), 'type');
    refused(await api.get(`/profiles/${encodeURIComponent('\u0000')}`, pair.a.token), 'id');
  });

  it('ordinary line breaks and tabs are text, not control characters', async () => {
    const answer = await api.post(
      '/messages/messages',
      { conversationId: pair.conversationId, receiverId: pair.b.userId, text: 'hola\n\tqué tal' },
      pair.a.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
  });

  it('a quedada refuses control characters in the text that goes into the .ics (a line feed only in the note)', async () => {
    const { a, conversationId } = pair;
    const propose = (overrides: Record<string, unknown>) =>
      quedadaCalls(api).propose(a, proposalBody(conversationId, new Date(), overrides));
    refused(await propose({ note: 'Nota\rEND:VEVENT\rBEGIN:VEVENT\rSUMMARY:X' }), 'note');
    refused(await propose({ gymName: 'McFit\r\nCentro' }), 'gymName');
    refused(await propose({ gymAddress: 'Calle de Alcalá\n21' }), 'gymAddress');
    refused(await propose({ activity: 'Pier\tna' }), 'activity');
    refused(await propose({ activity: 'Pierna\u2028X' }), 'activity');
    refused(await propose({ note: 'Nota\u0085' }), 'note');
    const fine = await propose({ note: 'Llevo la cuerda\ny las bandas' });
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
  });

  it('socket sendMessage (and any event) gets an error acknowledgement naming the field', async () => {
    const ack = await emitWithAck(socket, 'sendMessage', {
      conversationId: pair.conversationId,
      receiverId: pair.b.userId,
      text: 'hola\u0000',
    });
    expect(ack).toEqual({
      ok: false,
      status: 400,
      errorType: 'VALIDATION',
      message: 'El campo text contiene caracteres no permitidos',
    });
    const join = await emitWithAck(socket, 'joinConversation', { conversationId: `${pair.conversationId}\u0000` });
    expect(join).toMatchObject({
      ok: false,
      status: 400,
      message: 'El campo conversationId contiene caracteres no permitidos',
    });
    // The socket still works afterwards.
    const ok = await emitWithAck(socket, 'joinConversation', { conversationId: pair.conversationId });
    expect(ok).toMatchObject({ ok: true });
  });
});
