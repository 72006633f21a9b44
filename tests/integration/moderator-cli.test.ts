// @setup embedded
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { moderationAudit, moderatorRoles } from '../../src/server/db/schema/index.ts';
import { useTestApp } from '../helpers/auth-api.ts';
import { fromBundle } from '../helpers/node-process.ts';

/** `npm run moderator -- …` (src/server/tools/moderator-cli.ts) against the test app's database. */
describe('the moderator command', () => {
  const ctx = useTestApp();

  const run = async (...args: string[]) =>
    promisify(execFile)(process.execPath, [...fromBundle('moderator'), ...args], {
      env: { ...process.env, DATABASE_URL: ctx.app.config.databaseUrl, REDIS_URL: '', NODE_ENV: 'test' },
    });

  it('grants and removes the role, each change in the audit as the operator’s', async () => {
    const account = await ctx.api.registerUser();
    expect((await run('add', account.email, '--admin')).stdout).toContain(`${account.email} is now admin`);
    const [role] = await ctx.app.database.db
      .select()
      .from(moderatorRoles)
      .where(eq(moderatorRoles.userId, account.userId));
    expect(role?.role).toBe('admin');

    expect((await run('remove', account.email)).stdout).toContain(`${account.email} is no longer admin`);
    expect(
      await ctx.app.database.db.select().from(moderatorRoles).where(eq(moderatorRoles.userId, account.userId)),
    ).toEqual([]);

    const audit = await ctx.app.database.db
      .select()
      .from(moderationAudit)
      .where(eq(moderationAudit.targetUserId, account.userId))
      .orderBy(moderationAudit.createdAt);
    expect(audit.map((entry) => [entry.action, entry.reason, entry.moderatorId])).toEqual([
      ['role_granted', 'Operator command: admin', null],
      ['role_removed', 'Operator command', null],
    ]);
  });
});
