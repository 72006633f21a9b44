// `npm test`: every test layer, laid out so that both cores of a small machine stay busy
// (issue #33; the measurements are docs/performance.md "The test suite"):
//
//   1. vitest (unit, then the integration files)   ‖  the client's build (Vite, prerender, compression)
//   2. the server's build (esbuild, ~1 s)
//   3. Playwright's journeys                         ‖  the fault tests (private PostgreSQL and Redis
//                                                       stopped under traffic: mostly waiting)
//
// The side job's output is held and printed after the main one's, so the two never interleave.
// Each layer runs alone too: `npm run test:unit`, `test:integration`, `test:e2e`, `test:faults`.
//
// The fault tests start a PostgreSQL and a Redis of their own from Debian's binaries: they run where
// the scaled layer runs (DATABASE_URL and REDIS_URL set, as CI sets them), and `--no-faults` leaves
// them out.
import { spawn } from 'node:child_process';

const withFaults = !!process.env.DATABASE_URL && !!process.env.REDIS_URL && !process.argv.includes('--no-faults');
if (!withFaults) process.stdout.write('npm test: the fault tests need DATABASE_URL and REDIS_URL; left out\n');

/** Runs `command` through the shell; `held` keeps its output to print later instead of streaming it. */
function run(command, { held = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, {
      shell: true,
      stdio: held ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    const chunks = [];
    child.stdout?.on('data', (chunk) => chunks.push(chunk));
    child.stderr?.on('data', (chunk) => chunks.push(chunk));
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      resolve({ command, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString(), seconds });
    });
  });
}

/** Prints a held job's output under a heading, with how long it took. */
function report(outcome) {
  process.stdout.write(`\n--- ${outcome.command} (exit ${outcome.code}, ${outcome.seconds} s)\n${outcome.output}`);
}

const failed = [];
const settle = (outcome) => {
  if (outcome.code !== 0) failed.push(outcome.command);
  return outcome;
};

// 1. The vitest layers, with the client's build beside them (no integration test reads dist/client).
const [vitest, client] = await Promise.all([
  run("vitest run --project unit --project 'integration-*'").then(settle),
  run('npm run --silent build:client', { held: true }).then(settle),
]);
report(client);

// 2 and 3. The journeys need both builds, and come only after a green vitest run (as `&&` did);
// the fault tests run beside them.
if (vitest.code === 0 && client.code === 0 && settle(await run('npm run --silent build:server')).code === 0) {
  const [, faults] = await Promise.all([
    run('playwright test').then(settle),
    withFaults ? run('vitest run --project faults', { held: true, env: { ENTRENO_FAULTS: '1' } }).then(settle) : null,
  ]);
  if (faults) report(faults);
}

if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.join('; ')}\n`);
  process.exit(1);
}
