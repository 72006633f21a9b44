import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { coalesceWrites } from './realtime.ts';

/** A stream that records each system-call-like write: one entry per `_write`/`_writev`. */
function recordingStream() {
  const calls: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      calls.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      calls.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, calls };
}

const nextTick = () => new Promise<void>((resolve) => process.nextTick(resolve));

describe('coalesceWrites', () => {
  it("sends one tick's writes together, in order, and the next tick's apart", async () => {
    const { stream, calls } = recordingStream();
    coalesceWrites(stream as never);
    stream.write('a');
    stream.write('b');
    // A frame's own cork (ws corks header and payload) nests inside.
    stream.cork();
    stream.write('c');
    stream.uncork();
    expect(calls).toEqual([]);
    await nextTick();
    expect(calls).toEqual([['a', 'b', 'c']]);
    stream.write('d');
    await nextTick();
    expect(calls).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('covers writes made in promise continuations of the same tick', async () => {
    const { stream, calls } = recordingStream();
    coalesceWrites(stream as never);
    stream.write('ack');
    await Promise.resolve();
    stream.write('conversationUpdated');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['ack', 'conversationUpdated']]);
  });
});
