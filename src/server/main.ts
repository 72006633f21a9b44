import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { type Config, ConfigError, configWarnings, loadConfig } from './config.ts';
import { EmbeddedDatabaseError } from './db/embedded-postgres.ts';
import { GoogleConfigError } from './features/google/google-config.ts';
import { type DemoSeeder, seedDemoInChildProcess } from './tools/demo-start.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The built server seeds a first start's demo data in a child (`seed-demo.js` beside this file):
 * the memory the seeding leaves behind is not the server's for the rest of its life. Run from the
 * sources, or with an in-memory photo store the child could not reach, it seeds in process.
 */
function demoSeeder(config: Config): DemoSeeder | undefined {
  const script = fileURLToPath(new URL('./seed-demo.js', import.meta.url));
  const isStoreShared = !config.isEphemeral || config.databaseUrl !== undefined;
  return config.demoData && isStoreShared && existsSync(script) ? seedDemoInChildProcess(script) : undefined;
}

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    // A bad setting is the operator's to fix: its message names the variables, a stack trace adds nothing.
    if (error instanceof ConfigError || error instanceof GoogleConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config, { seedDemo: demoSeeder(config) });
  } catch (error) {
    // The embedded database's problems (DATA_DIR held by another server, a cluster of another
    // version, a full disk) say what to do in one line; a stack trace adds nothing.
    if (error instanceof EmbeddedDatabaseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A stray rejection from a library's background work (a Redis blip) is logged, not fatal.
  process.on('unhandledRejection', (reason) => {
    app.http.log.error({ err: reason }, 'unhandled rejection');
  });
  for (const warning of configWarnings(config)) app.http.log.warn(warning);
  await app.http.listen({ port: config.port, host: config.host });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.http.log.info({ signal }, 'shutting down');
    // Readiness fails first, so a load balancer or orchestrator stops routing here, and it gets
    // SHUTDOWN_DELAY_MS to notice before the node stops accepting connections.
    app.readiness.markDraining();
    const timer = setTimeout(() => {
      app.http.log.error('graceful shutdown timed out');
      process.exit(1);
    }, config.shutdownDelayMs + SHUTDOWN_GRACE_MS);
    timer.unref();
    try {
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
      await app.close();
      process.exit(0);
    } catch (error) {
      app.http.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
