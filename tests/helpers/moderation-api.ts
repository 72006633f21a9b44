import { createModeratorRoleRepository } from '../../src/server/features/moderation/moderator-role-repository.ts';
import { createSignedInUser, type TestUser } from './discovery-api.ts';
import type { TestApp } from './test-app.ts';

/** A signed-in user granted a console role, as `npm run moderator -- add` does. */
export async function createModerator(app: TestApp, role: 'moderator' | 'admin' = 'moderator'): Promise<TestUser> {
  const user = await createSignedInUser(app, 'Marta');
  await createModeratorRoleRepository(app.database.db).grant(user.email, role, app.clock.now());
  return user;
}

/**
 * Every console route with a harmless body: non-moderators must get the plain 404 on each.
 * Keep in step with moderation-routes.ts (the access test also compares it with the route table).
 */
export const CONSOLE_ROUTES: readonly { method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/moderation/me' },
  { method: 'GET', path: '/moderation/audit' },
];
