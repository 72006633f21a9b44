/**
 * `npm run moderator -- add <email> [--admin] | remove <email> | list`: the only way to grant the
 * console's roles (docs/decisions/0033). It works on the configured database: DATABASE_URL's, or
 * the embedded PostgreSQL in DATA_DIR/pg — through the running app's socket when the app is up,
 * otherwise started for the command and stopped after it.
 */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { createModerationAuditRepository, createModeratorRoleRepository } from '../features/moderation/index.ts';

const USAGE = [
  'Usage:',
  '  npm run moderator -- add <email> [--admin]   grant the moderator role (or admin) to an existing account',
  '  npm run moderator -- remove <email>          take the role away (effective on the next console request)',
  '  npm run moderator -- list                    list moderators and admins',
].join('\n');

const [command, ...rest] = process.argv.slice(2);
const email = rest.find((arg) => !arg.startsWith('--'))?.trim();
const isAdmin = rest.includes('--admin');
if (!command || !['add', 'remove', 'list'].includes(command) || (command !== 'list' && !email)) {
  console.error(USAGE);
  process.exit(command === undefined || command === 'help' || command === '--help' ? 0 : 1);
}

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.dataDir,
  canShareRunningServer: true,
  // The pool's own notices when the command stops the server it started are not news.
  logger: {
    debug() {},
    info() {},
    warn: (message) => !message.startsWith('database: ') && console.warn(message),
    error: console.error,
  },
});
let exitCode = 0;
try {
  const roles = createModeratorRoleRepository(database.db);
  const audit = createModerationAuditRepository(database.db);
  const now = new Date();
  /** An operator's role change, in the moderation audit (no moderator: the operator ran it). */
  const recordRoleChange = (action: 'role_granted' | 'role_removed', targetUserId: string, reason: string) =>
    audit.record({ moderator: undefined, action, targetUserId, reason, now });
  if (command === 'list') {
    const all = await roles.list();
    if (all.length === 0) console.log('No moderators yet. Grant the role with: npm run moderator -- add <email>');
    for (const moderator of all) {
      console.log(
        `${moderator.role.padEnd(9)} ${moderator.email}  (${moderator.name}, since ${moderator.grantedAt.toISOString()})`,
      );
    }
  } else if (command === 'add') {
    const role = isAdmin ? 'admin' : 'moderator';
    const granted = await roles.grant(email as string, role, now);
    if (!granted) {
      console.error(`No account with the e-mail ${email}. The person must register first.`);
      exitCode = 1;
    } else {
      await recordRoleChange('role_granted', granted.userId, `Operator command: ${role}`);
      console.log(
        `${granted.email} is now ${role}. The console is at /moderacion (sign in again if the app was open).`,
      );
    }
  } else {
    const found = await roles.list();
    const target = found.find((moderator) => moderator.email.toLowerCase() === (email as string).toLowerCase());
    if (!target || !(await roles.revoke(email as string))) {
      console.error(`${email} has no moderator role.`);
      exitCode = 1;
    } else {
      await recordRoleChange('role_removed', target.userId, 'Operator command');
      console.log(`${target.email} is no longer ${target.role}.`);
    }
  }
} finally {
  await database.close();
}
process.exit(exitCode);
