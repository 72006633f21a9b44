/**
 * Socket.IO clients in a worker thread: connects every socket once (`ready`), then for each
 * requested rate sends messages between pairs (open loop, after a short warm-up) and answers with
 * the latencies; a message's latency runs from its scheduled send time until the recipient's
 * socket receives `newMessage`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { openLoop } from './load.ts';

export type ChatPair = { a: number; b: number; conversationId: string; aUser: string; bUser: string };
export type ChatLoad = {
  /** Socket i connects to `urls[0]`, or to `urls[1]` from index `splitAt` on (two nodes). */
  urls: string[];
  splitAt?: number;
  mode: 'app' | 'bare';
  /** One auth object per socket. */
  auth: Record<string, string>[];
  pairs: ChatPair[];
  /**
   * Group conversations (docs/decisions/0056), as pairs: two of a group's members send to each
   * other in it (no receiver named) and every member's socket hears `newMessage`.
   */
  groups?: ChatPair[];
};
export type ChatReady = { connectMs: number };
/** `inGroups`: this step sends in `groups` instead of `pairs`. */
export type ChatStep = { rate: number; warmup: number; count: number; inGroups?: boolean };
export type ChatLoadResult = {
  latenciesMs: number[];
  errors: number;
  elapsedMs: number;
  sent: number;
  overloaded: boolean;
  firstError?: string;
};

const load = workerData as ChatLoad;

async function connect(auth: Record<string, string>, index: number): Promise<Socket> {
  const url = load.urls[load.splitAt !== undefined && index >= load.splitAt ? 1 : 0] as string;
  const socket = io(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => reject(error));
  });
  return socket;
}

const connectStarted = performance.now();
const sockets: Socket[] = [];
for (let start = 0; start < load.auth.length; start += 100) {
  sockets.push(...(await Promise.all(load.auth.slice(start, start + 100).map((auth, k) => connect(auth, start + k)))));
}

const waiting = new Map<string, () => void>();
const listening = new Set<number>();
for (const pair of [...load.pairs, ...(load.groups ?? [])]) {
  for (const index of [pair.a, pair.b]) {
    if (listening.has(index)) continue;
    listening.add(index);
    (sockets[index] as Socket).on('newMessage', (message: { text?: string }) => {
      const done = message.text ? waiting.get(message.text) : undefined;
      if (done) {
        waiting.delete(message.text as string);
        done();
      }
    });
  }
}

const runId = Math.random().toString(36).slice(2, 8);
let sequence = 0;
const send = (label: string, pairs: ChatPair[]) => (index: number) => {
  const pair = pairs[index % pairs.length] as ChatPair;
  const forward = Math.floor(index / pairs.length) % 2 === 0;
  const sender = sockets[forward ? pair.a : pair.b] as Socket;
  sequence += 1;
  const text = `${label}-${runId}-${sequence}`;
  const received = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(text);
      reject(new Error(`no newMessage for ${text}`));
    }, 30_000);
    waiting.set(text, () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const payload =
    load.mode === 'app'
      ? { conversationId: pair.conversationId, text, clientId: text }
      : { to: forward ? pair.bUser : pair.aUser, text };
  const acked = sender
    .timeout(30_000)
    .emitWithAck('sendMessage', payload)
    .then((ack: { ok?: boolean; error?: unknown }) => {
      if (!ack?.ok) throw new Error(`sendMessage refused: ${JSON.stringify(ack)}`);
    });
  return Promise.all([acked, received]).then(() => {});
};

parentPort?.on('message', async (step: ChatStep) => {
  const pairs = step.inGroups ? (load.groups ?? []) : load.pairs;
  if (step.warmup > 0) await openLoop({ rate: step.rate, count: step.warmup, fire: send('warm', pairs) });
  const result = await openLoop({ rate: step.rate, count: step.count, fire: send('m', pairs) });
  parentPort?.postMessage({
    latenciesMs: result.latenciesMs,
    errors: result.errors,
    elapsedMs: result.elapsedMs,
    sent: result.sent,
    overloaded: result.overloaded,
    firstError: result.firstError ? String(result.firstError) : undefined,
  } satisfies ChatLoadResult);
});
parentPort?.postMessage({ connectMs: performance.now() - connectStarted } satisfies ChatReady);
