import { describe, expect, it } from 'vitest';
import { LeaderElection } from './leader.ts';

/** Web Locks as the browser runs them: one holder, the next waiter gets the lock when it is released. */
function fakeLocks() {
  let held = false;
  const waiting: Array<() => void> = [];
  return {
    request(_name: string, _options: { mode: 'exclusive' }, callback: () => Promise<void>) {
      return new Promise<void>((resolve) => {
        const run = () => {
          held = true;
          void callback().then(() => {
            held = false;
            resolve();
            waiting.shift()?.();
          });
        };
        if (held) waiting.push(run);
        else run();
      });
    },
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('leader election', () => {
  it('one tab leads with Web Locks; when it goes, a waiting tab takes over', async () => {
    const locks = fakeLocks();
    const first = new LeaderElection({ locks });
    const second = new LeaderElection({ locks });
    first.start();
    second.start();
    await tick();
    expect(first.getSnapshot()).toEqual({ status: 'leader' });
    expect(second.getSnapshot()).toEqual({ status: 'follower' });
    first.stop();
    await tick();
    expect(second.getSnapshot()).toEqual({ status: 'leader' });
  });

  it('falls back to a BroadcastChannel heartbeat: a silent leader is replaced', () => {
    let now = 0;
    const intervals: Array<() => void> = [];
    const channels: Array<{ onmessage: ((event: { data: unknown }) => void) | null }> = [];
    const createChannel = () => {
      const channel = {
        onmessage: null as ((event: { data: unknown }) => void) | null,
        postMessage(message: unknown) {
          for (const other of channels) if (other !== channel) other.onmessage?.({ data: message });
        },
        close() {
          channels.splice(channels.indexOf(channel), 1);
        },
      };
      channels.push(channel);
      return channel;
    };
    const deps = {
      createChannel,
      now: () => now,
      setInterval: (callback: () => void) => intervals.push(callback),
      clearInterval: () => {},
    };
    const a = new LeaderElection({ ...deps, id: 'a' });
    const b = new LeaderElection({ ...deps, id: 'b' });
    a.start();
    now = 3000;
    for (const run of intervals) run();
    expect(a.isLeader).toBe(true);
    b.start();
    now = 4000;
    for (const run of intervals) run();
    expect(b.getSnapshot()).toEqual({ status: 'follower' });
    a.stop();
    now = 8000;
    intervals[1]?.();
    expect(b.isLeader).toBe(true);
  });

  it('leads alone where neither Web Locks nor BroadcastChannel exist', () => {
    const only = new LeaderElection({});
    only.start();
    expect(only.isLeader).toBe(true);
  });
});
