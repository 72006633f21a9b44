// @setup scaled — quedadas across two nodes
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuedadaUpdatedEvent } from '#shared/quedadas/quedada-schemas';
import { createMatchedPair, nextEventMatching } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { proposalBody, quedadaCalls } from '../helpers/quedada-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startSecondNode, startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock, HOUR, MINUTE } from '../helpers/test-clock.ts';
import { fromBundle } from '../helpers/node-process.ts';

const isScaled = process.env.TEST_DATABASE === 'postgres' && !!process.env.DATABASE_URL && !!process.env.REDIS_URL;

/** Runs the crash runner: a third node that claims due jobs and dies by SIGKILL before sending. */
function crashingRunner(databaseUrl: string, now: Date): Promise<{ signal: NodeJS.Signals | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...fromBundle('quedada-crash-runner'), now.toISOString()], {
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    child.once('error', reject);
    child.once('exit', (_code, signal) => resolve({ signal, output }));
  });
}

/** Reminders on two nodes sharing PostgreSQL and Redis: exactly once, even when a node dies mid-job. */
describe.runIf(isScaled)('quedadas across two nodes', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let nodeA: TestApp;
  let nodeB: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    nodeA = await startTestApp({}, { dependencies: { clock } });
    nodeB = await startSecondNode(nodeA, { dependencies: { clock } });
    api = createDiscoveryApi(nodeA);
  });
  afterAll(async () => {
    await nodeB?.close();
    await nodeA?.close();
  });

  const reminders = async (user: TestUser, title: string) => {
    const listed = await api.get('/notifications?type=reminder', user.token);
    return ((listed.body.notifications ?? []) as { title: string }[]).filter((n) => n.title === title).length;
  };
  const runBoth = (times: number) =>
    Promise.all(Array.from({ length: times }, (_, index) => (index % 2 ? nodeA : nodeB).quedadas.runDueJobs()));

  it('answers through one node reach the other; each reminder goes out once though both nodes race', async () => {
    const calls = quedadaCalls(api);
    const pair = await createMatchedPair(api, { names: ['Nora', 'Pablo'] });
    const socketA = await connectSocket(nodeA, { token: pair.a.token });
    try {
      const proposed = calls.quedadaOf(await calls.propose(pair.a, proposalBody(pair.conversationId, clock.now())));
      const heard = nextEventMatching<QuedadaUpdatedEvent>(
        socketA,
        'quedadaUpdated',
        (e) => e.quedada.status === 'accepted',
      );
      // Pablo answers through node B; Nora's socket on node A hears it.
      const acceptedThroughB = await createDiscoveryApi(nodeB).post(
        `/quedadas/${proposed._id}/actions`,
        { clientId: 'accept-through-b', action: 'accept' },
        pair.b.token,
      );
      expect(acceptedThroughB.status).toBe(200);
      expect((await heard).quedada._id).toBe(proposed._id);

      clock.set(new Date(new Date(proposed.startsAt).getTime() - 2 * HOUR + MINUTE));
      await runBoth(8);
      expect(await reminders(pair.a, 'Entreno con Pablo')).toBe(1);
      expect(await reminders(pair.b, 'Entreno con Nora')).toBe(1);
      const jobs = await nodeA.quedadas.jobsOf(proposed._id);
      expect(jobs.filter((job) => job.kind === 'reminder').map((job) => [job.attempts, job.done_at !== null])).toEqual([
        [1, true],
        [1, true],
      ]);
    } finally {
      socketA.close();
    }
  });

  it('a node killed (SIGKILL) between claim and send neither loses nor doubles the reminder', async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    const calls = quedadaCalls(api);
    const pair = await createMatchedPair(api, { names: ['Rosa', 'Sergio'] });
    const proposed = calls.quedadaOf(await calls.propose(pair.a, proposalBody(pair.conversationId, clock.now())));
    expect((await calls.act(pair.b, proposed._id, { action: 'accept' })).status).toBe(200);
    const due = new Date(new Date(proposed.startsAt).getTime() - 2 * HOUR + MINUTE);

    // The runner claims at `due` by its own clock. The nodes' clock moves there only once it has died:
    // their own job timers (every 15 s) would otherwise claim the reminder first whenever the
    // runner's process took long to start, as it does on a busy machine.
    const crashed = await crashingRunner(nodeA.config.databaseUrl as string, due);
    expect(crashed.output.split('\n')).toContain('CLAIMED');
    expect(crashed.output).not.toContain('SENT');
    expect(crashed.signal).toBe('SIGKILL');
    clock.set(due);
    const claimed = (await nodeA.quedadas.jobsOf(proposed._id)).filter((job) => job.kind === 'reminder');
    expect(claimed.map((job) => [job.attempts, job.done_at])).toEqual([
      [1, null],
      [1, null],
    ]);

    // While the dead node's lease runs, nobody sends: the job is not lost, just not yet due again.
    await runBoth(4);
    expect(await reminders(pair.a, 'Entreno con Sergio')).toBe(0);
    // Once the lease has run out, exactly one of the racing nodes sends it.
    clock.advance(2 * MINUTE);
    await runBoth(8);
    expect(await reminders(pair.a, 'Entreno con Sergio')).toBe(1);
    expect(await reminders(pair.b, 'Entreno con Rosa')).toBe(1);
    const done = (await nodeA.quedadas.jobsOf(proposed._id)).filter((job) => job.kind === 'reminder');
    expect(done.map((job) => [job.attempts, job.done_at !== null])).toEqual([
      [2, true],
      [2, true],
    ]);
  });
});
