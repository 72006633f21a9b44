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
