/**
 * The server as one bundle for the test files that start it as its own process (a node, a crash,
 * an operator's command): `scripts/build-server.mjs` once per run, the same esbuild bundle that
 * `npm run build` makes for production, into node_modules/.cache. Started from the sources
 * through tsx instead, each such process spent ~2.3 CPU s more compiling them (docs/performance.md
 * "The test suite"). The integration projects share one build (one promise per run).
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundle's directory: main.js, move-to-shared.js, moderator.js, quedada-crash-runner.js. */
    serverBundleDir: string;
  }
}

const BUNDLE_DIR = path.resolve('node_modules/.cache/entreno-test-server', String(process.pid));

let building: Promise<void> | undefined;

async function build(): Promise<void> {
  await rm(BUNDLE_DIR, { recursive: true, force: true });
  await promisify(execFile)(process.execPath, [
    'scripts/build-server.mjs',
    BUNDLE_DIR,
    'quedada-crash-runner=tests/helpers/quedada-crash-runner.ts',
  ]);
}

export default async function setup(project: TestProject) {
  building ??= build();
  await building;
  project.provide('serverBundleDir', BUNDLE_DIR);
  return async () => {
    await rm(BUNDLE_DIR, { recursive: true, force: true });
  };
}
