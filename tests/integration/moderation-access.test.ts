// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi } from '../helpers/auth-api.ts';
import { createSignedInUser } from '../helpers/discovery-api.ts';
import { CONSOLE_ROUTES, createModerator } from '../helpers/moderation-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/** The console is invisible to everyone but moderators: the same 404 as a path that does not exist. */
describe('moderation console access', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('answers every console route with the unknown-path 404 for anonymous callers, bad tokens and plain users', async () => {
    const api = createApi(app);
    const plain = await createSignedInUser(app, 'Pablo');
    const unknown = await api.call('GET', '/no-such-path', { token: plain.token });
    expect(unknown.status).toBe(404);
    for (const route of CONSOLE_ROUTES) {
      for (const token of [undefined, 'not-a-token', plain.token]) {
        const answer = await api.call(route.method, route.path, { token, body: route.body });
        expect(answer.status, `${route.method} ${route.path}`).toBe(404);
        expect(answer.body).toEqual(unknown.body);
        expect(answer.headers.get('x-new-token')).toBeNull();
      }
      // A broken body gets exactly what it gets on a path that does not exist.
      const broken = await api.call('POST', route.path, { token: plain.token, body: '{"broken' });
      const brokenUnknown = await api.call('POST', '/no-such-path', { token: plain.token, body: '{"broken' });
      expect({ status: broken.status, body: broken.body }).toEqual({
        status: brokenUnknown.status,
        body: brokenUnknown.body,
      });
    }
  });

  it('opens to a moderator, and closes at once when the role is removed', async () => {
    const api = createApi(app);
    const moderator = await createModerator(app);
    const me = await api.get('/moderation/me', moderator.token);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, role: 'moderator', email: moderator.email });
    expect((await api.get('/moderation/audit', moderator.token)).status).toBe(200);
    const { createModeratorRoleRepository } = await import(
      '../../src/server/features/moderation/moderator-role-repository.ts'
    );
    expect(await createModeratorRoleRepository(app.database.db).revoke(moderator.email)).toBe(true);
    expect((await api.get('/moderation/me', moderator.token)).status).toBe(404);
  });

  it('refuses to edit or delete the audit log, even in plain SQL', async () => {
    const moderator = await createModerator(app);
    const { createModerationAuditRepository } = await import(
      '../../src/server/features/moderation/moderation-audit-repository.ts'
    );
    await createModerationAuditRepository(app.database.db).record({
      moderator: { userId: moderator.userId, email: moderator.email },
      action: 'dismiss',
      reason: 'Prueba',
      now: app.clock.now(),
    });
    const { sql } = await import('drizzle-orm');
    await expect(app.database.db.execute(sql`update moderation_audit set reason = 'cambiado'`)).rejects.toThrow();
    await expect(app.database.db.execute(sql`delete from moderation_audit`)).rejects.toThrow();
    await expect(app.database.db.execute(sql`truncate moderation_audit`)).rejects.toThrow();
  });
});
