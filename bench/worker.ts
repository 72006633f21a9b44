import { Worker } from 'node:worker_threads';

/** Runs a bench worker module (TypeScript, through tsx) with `data`; resolves with its one message. */
export function runWorker<T>(file: string, data: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), {
      workerData: { ...(data as object), module: new URL(file, import.meta.url).href },
    });
    worker.once('message', (message: T) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker ${file} exited with ${code}`));
    });
  });
}

/**
 * A worker that answers many requests (a sweep's steps) over one setup, e.g. 5,000 sockets
 * connected once: its first message is `ready`; each `request` resolves with its next message.
 */
export async function startWorker<TReady, TRequest, TReply>(file: string, data: unknown) {
  const worker = new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), {
    workerData: { ...(data as object), module: new URL(file, import.meta.url).href },
  });
  let failure: Error | undefined;
  let waiting: { resolve: (value: never) => void; reject: (error: Error) => void } | undefined;
  worker.on('message', (message: unknown) => {
    const current = waiting;
    waiting = undefined;
    current?.resolve(message as never);
  });
  const fail = (error: Error) => {
    failure = error;
    waiting?.reject(error);
    waiting = undefined;
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`worker ${file} exited with ${code}`)));
  const next = <T>() =>
    new Promise<T>((resolve, reject) => {
      if (failure) reject(failure);
      else waiting = { resolve: resolve as (value: never) => void, reject };
    });
  const ready = await next<TReady>();
  return {
    ready,
    request(message: TRequest): Promise<TReply> {
      const reply = next<TReply>();
      worker.postMessage(message);
      return reply;
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
