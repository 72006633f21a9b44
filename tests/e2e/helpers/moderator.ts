import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';

/**
 * `npm run moderator -- add <email>` as an operator runs it in the production image: the built
 * command (`node dist/server/moderator.js`, made by `npm run build` beside the server) on the
 * suite's running server's embedded database.
 */
export async function grantModerator(email: string): Promise<void> {
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/server/moderator.js', 'add', email], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'test' },
  });
  expect(stdout).toContain(`${email} is now moderator`);
}
