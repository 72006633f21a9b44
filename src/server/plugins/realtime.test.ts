import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { coalesceWrites, createRealtime } from './realtime.ts';

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

describe('a Socket.IO connection', () => {
  it("writes one tick's packets to its socket in one system call, in order", async () => {
    const server = http.createServer();
    const realtime = await createRealtime(server, {
      redisUrl: undefined,
      caps: { perAddress: 10, perUser: 10, clientAddress: () => '127.0.0.1' },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const proto = net.Socket.prototype as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
    const original = proto._writeGeneric;
    let writes = 0;
    proto._writeGeneric = function (this: net.Socket, ...args: unknown[]) {
      if (this.localPort === port) writes += 1;
      return original.apply(this, args);
    };
    const connected = new Promise<{ emit(event: string, payload: unknown): void }>((resolve) =>
      realtime.io.on('connection', resolve),
    );
    const client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false });
    try {
      const socket = await connected;
      const received: string[] = [];
      client.onAny((event: string) => received.push(event));
      await new Promise((resolve) => setTimeout(resolve, 50));
      writes = 0;
      // A message's frames to one socket: an acknowledgement-like emit, then broadcasts.
      socket.emit('one', { n: 1 });
      socket.emit('two', { n: 2 });
      realtime.io.emit('three', { n: 3 });
      realtime.io.emit('four', { n: 4 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(received).toEqual(['one', 'two', 'three', 'four']);
      // Four before (engine.io wrote the first packet at once, then each queued one apart); two
      // with the socket corked alone (the first packet, then the rest).
      expect(writes).toBe(1);
    } finally {
      proto._writeGeneric = original;
      client.close();
      await realtime.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
