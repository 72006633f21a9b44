// @setup scaled — the Redis adapter's key prefix
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { redisNodes } from '../helpers/redis-nodes.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.REDIS_URL;

/**
 * Deployments (and parallel test files) sharing one Redis are kept apart by REDIS_KEY_PREFIX: the
 * Socket.IO adapter's channels too. On one shared channel a node counted every other deployment's
 * nodes as its own, waited for their answers to `fetchSockets`, and could resolve on theirs before
 * its own sibling's (a recipient on screen then got a notification: chat-multi-node, files side by side).
 */
describe.runIf(isScaled)('Socket.IO on the Redis adapter, per key prefix', () => {
  const nodes = redisNodes();
  const { node } = nodes;

  afterAll(async () => {
    await nodes.close();
  });

  it("counts only the nodes of its own prefix, never another deployment's", async () => {
    const ours = `entreno-test:${randomBytes(6).toString('hex')}:`;
    const theirs = `entreno-test:${randomBytes(6).toString('hex')}:`;
    const [first] = [await node(ours), await node(ours), await node(theirs), await node(theirs)];
    expect(await first?.io.of('/').adapter.serverCount()).toBe(2);
  });
});
