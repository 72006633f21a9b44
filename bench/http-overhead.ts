import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { fmt, summarize } from './stats.ts';

const WARMUP = 300;
const REQUESTS = 3000;

async function measure(url: string): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) await (await fetch(url)).arrayBuffer();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    samples.push(performance.now() - start);
  }
  return samples;
}

/** GET /api/health through the whole app (plugins, headers, error mapping) vs a bare node:http server. */
export async function benchHttpOverhead() {
  const body = JSON.stringify({ status: 'ok', database: 'embedded', realtime: 'memory' });
  const bare = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const barePort = (bare.address() as AddressInfo).port;

  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }), isEphemeral: true };
  const app = await buildApp(config);
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const appPort = (app.http.server.address() as AddressInfo).port;

  // Warm both paths (and fetch itself) before the measured rounds, which alternate.
  await measure(`http://127.0.0.1:${barePort}/`);
  await measure(`http://127.0.0.1:${appPort}/api/health`);
  const baseline = summarize(await measure(`http://127.0.0.1:${barePort}/`));
  const measured = summarize(await measure(`http://127.0.0.1:${appPort}/api/health`));
  await app.close();
  await new Promise((resolve) => bare.close(resolve));

  const ratio = (key: 'p50' | 'p95' | 'p99') => (measured[key] / baseline[key]).toFixed(2);
  return {
    name: `HTTP overhead: GET /api/health, ${REQUESTS} sequential requests (baseline: bare node:http)`,
    lines: (['p50', 'p95', 'p99'] as const).map(
      (key) => `${key}: ${fmt(measured[key])}  baseline ${fmt(baseline[key])}  ratio ${ratio(key)}x`,
    ),
  };
}
