// @setup scaled — which nodes hold alias sockets, told through the Redis adapter
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { type AliasPresence, aliasRoom, createAliasPresence } from '../../src/server/features/chat/alias-presence.ts';
import { redisNodes } from '../helpers/redis-nodes.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.REDIS_URL;

const until = async (condition: () => boolean, what: string) => {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * docs/decisions/0039 (amendment of session 20): an aliased event is one broadcast when no node
 * holds alias sockets. Two real nodes on the shared Redis (a key prefix of their own): the second
 * asks the first at start instead of assuming aliases for 90 s, and each hears the other's first
 * alias socket arrive and its last one leave.
 */
describe.runIf(isScaled)('alias sockets across nodes, on the Redis adapter', () => {
  const nodes = redisNodes();
  const { node } = nodes;
  const presences: AliasPresence[] = [];

  afterAll(async () => {
    for (const presence of presences) presence.close();
    await nodes.close();
  });

  it('asks at start, then hears the other node’s first alias socket come and its last one go', async () => {
    const prefix = `entreno-test:${randomBytes(6).toString('hex')}:`;
    const a = await node(prefix);
    const onA = createAliasPresence(a.io, { isSoleNode: false });
    presences.push(onA);
    const b = await node(prefix);
    const onB = createAliasPresence(b.io, { isSoleNode: false });
    presences.push(onB);
    // A started alone (nobody to ask); B asked A, who holds none: both know, well within the 90 s.
    await until(() => !onB.mayHave(['ana']), 'B learns from A that nobody holds alias sockets');
    expect(onA.mayHave(['ana'])).toBe(false);

    const bAdapter = b.io.of('/').adapter;
    bAdapter.addAll('socket-1', new Set([aliasRoom('ana')]));
    await until(() => onA.mayHave(['luis']), 'A hears that B holds an alias socket');
    expect(onB.mayHave(['ana'])).toBe(true);
    expect(onB.mayHave(['luis'])).toBe(false);

    bAdapter.delAll('socket-1');
    await until(() => !onA.mayHave(['luis']), 'A hears that B holds none any more');
  });
});
