/**
 * A job-runner node that dies by SIGKILL right after its claim committed, before it sends
 * anything (tests/integration/quedadas-multi-node.test.ts). Usage:
 * `node <bundle>/quedada-crash-runner.js <now ISO>` with DATABASE_URL set (the run's server bundle:
 * `fromBundle` in tests/helpers/node-process.ts).
 */
import { openDatabase } from '../../src/server/db/client.ts';
import { createQuedadaRepository } from '../../src/server/features/quedadas/quedada-repository.ts';
import { createQuedadaService } from '../../src/server/features/quedadas/quedada-service.ts';
import { createSuggestionRepository } from '../../src/server/features/quedadas/suggestion-repository.ts';
import { createMemoryRateLimiter } from '../../src/server/infra/rate-limit.ts';

const now = new Date(process.argv[2] ?? Date.now());
const clock = { now: () => now };
const silent = { info() {}, warn() {}, error() {} };
const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: '/tmp' });
const service = createQuedadaService({
  quedadas: createQuedadaRepository(database.db),
  suggestions: createSuggestionRepository(database.db),
  realtime: { emitToUser() {} },
  notifier: {
    async notify() {
      process.stdout.write('SENT\n');
    },
  },
  settings: {
    async get() {
      return { quedadas: { reminderMinutes: 120, showReliability: true }, privacy: { allowTrainingRequests: true } };
    },
  },
  limiter: createMemoryRateLimiter({ clock }),
  clock,
  logger: silent,
  afterClaim: () => {
    process.stdout.write('CLAIMED\n');
    process.kill(process.pid, 'SIGKILL');
  },
});
await service.runDueJobs();
process.stdout.write('NOTHING-CLAIMED\n');
await database.close();
