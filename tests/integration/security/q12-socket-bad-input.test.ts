// @setup embedded
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatchedPair, type MatchedPair } from '../../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi } from '../../helpers/discovery-api.ts';
import { connectSocket } from '../../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../../helpers/test-app.ts';

const SOCKET_EVENTS = [
  'joinConversation',
  'leaveConversation',
  'sendMessage',
  'messageReceived',
  'markAsDelivered',
  'markMessagesRead',
  'typing',
  'presence:visible',
  'presence:hidden',
] as const;

/** Strings with every code point, control characters (NUL first) far more often than chance. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\u001b[31m', '\u007f', '\ud800', 'hola\u0008', ' ', ''),
  fc.uuid(),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

/**
 * QUALITY 12 for sockets and for storage: arbitrary strings and shapes into every socket event and
 * the text-heavy routes get an acknowledgement or a 2xx/4xx, never a 5xx, the socket stays usable,
 * and no text or JSON column ends up holding a control character.
 */
describe('Q12 bad input over sockets, and nothing invalid stored', () => {
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

  it('every socket event answers with an acknowledgement below 500, or stays silent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SOCKET_EVENTS),
        fc.oneof(
          hostileValue,
          fc.record(
            {
              conversationId: fc.oneof(hostileString, fc.constant(pair.conversationId)),
              receiverId: fc.oneof(hostileString, fc.constant(pair.b.userId)),
              text: hostileString,
              messageId: hostileString,
              messageIds: fc.array(hostileString, { maxLength: 3 }),
              isTyping: hostileValue,
              clientId: hostileString,
            },
            { requiredKeys: [] },
          ),
        ),
        async (event, payload) => {
          let ack: unknown;
          try {
            // typing is never acknowledged, presence only when it carries no payload: send and go on.
            if (event === 'typing' || event.startsWith('presence:')) socket.emit(event, payload);
            else ack = await socket.timeout(2000).emitWithAck(event, payload);
          } catch {
            ack = undefined; // no acknowledgement (typing, or a dropped packet): allowed
          }
          if (ack && typeof ack === 'object' && 'ok' in ack && ack.ok === false) {
            const failure = ack as unknown as { status: number; message: unknown };
            expect(failure.status, `${event} ${JSON.stringify(payload)}`).toBeLessThan(500);
            expect(typeof failure.message).toBe('string');
          }
          expect(socket.connected).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('text-heavy routes answer 2xx/4xx for arbitrary strings, never 5xx', async () => {
    const { a, b, conversationId } = pair;
    const routes: [string, string, (text: string) => unknown, string | undefined][] = [
      ['POST', '/auth/check-email', (text) => ({ email: text }), undefined],
      ['POST', '/auth/login', (text) => ({ email: `${text}@example.com`, password: text }), undefined],
      ['POST', '/auth/forgot-password', (text) => ({ email: text }), undefined],
      ['POST', '/safety/reports', (text) => ({ userId: b.userId, reason: 'spam', details: text }), a.token],
      ['POST', '/messages/messages', (text) => ({ conversationId, receiverId: b.userId, text }), a.token],
      ['PUT', `/profiles/${a.userId}`, (text) => ({ userId: a.userId, bio: `Bio de prueba ${text}` }), a.token],
      [
        'POST',
        '/mcp/tool',
        (text) => ({ server_name: 'gyms', tool_name: 'search_gyms', arguments: { query: text } }),
        a.token,
      ],
    ];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: routes.length - 1 }), hostileString, async (index, text) => {
        const [method, path, body, token] = routes[index] as (typeof routes)[number];
        const answer = await api.call(method, path, { body: body(text), token });
        expect(answer.status, `${method} ${path} ${JSON.stringify(text)}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it('no text or JSON column holds a control character afterwards', async () => {
    const result = await app.database.db.execute(sql`
      select table_name, column_name, data_type from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'json')`);
    const columns = (result as unknown as { rows: { table_name: string; column_name: string; data_type: string }[] })
      .rows;
    expect(columns.length).toBeGreaterThan(10);
    for (const column of columns) {
      const isJson = column.data_type.startsWith('json');
      // JSON keeps control characters escaped (\u0001); text would hold them raw.
      const pattern = isJson ? String.raw`\\u00(0[0-8bcef]|1[0-9a-f]|7f)` : '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]';
      const found = await app.database.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(column.table_name)} where ${sql.identifier(column.column_name)}::text ~ ${pattern}`,
      );
      const count = (found as unknown as { rows: { n: number }[] }).rows[0]?.n;
      expect(count, `${column.table_name}.${column.column_name}`).toBe(0);
    }
  });
});
