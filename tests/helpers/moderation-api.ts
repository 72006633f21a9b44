import { createModeratorRoleRepository } from '../../src/server/features/moderation/moderator-role-repository.ts';
import { createApi, GOOD_PASSWORD, uniqueEmail } from './auth-api.ts';
import { createDiscoveryApi, createSignedInUser, profileBody, type TestUser } from './discovery-api.ts';
import type { TestApp } from './test-app.ts';

/** A signed-in user granted a console role, as `npm run moderator -- add` does. */
export async function createModerator(app: TestApp, role: 'moderator' | 'admin' = 'moderator'): Promise<TestUser> {
  const user = await createSignedInUser(app, 'Marta');
  await createModeratorRoleRepository(app.database.db).grant(user.email, role, app.clock.now());
  return user;
}

const SOME_ID = '00000000-0000-4000-8000-000000000000';

/**
 * Every console route with a harmless body: non-moderators must get the plain 404 on each.
 * Keep in step with moderation-routes.ts.
 */
export const CONSOLE_ROUTES: readonly { method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { method: 'GET', path: '/moderation/me' },
  { method: 'GET', path: '/moderation/audit' },
  { method: 'GET', path: '/moderation/queue' },
  { method: 'GET', path: `/moderation/reports/${SOME_ID}` },
  { method: 'POST', path: `/moderation/reports/${SOME_ID}/resolve`, body: { action: 'dismiss', note: 'x' } },
  { method: 'POST', path: `/moderation/restrictions/${SOME_ID}/lift`, body: { note: 'x' } },
  { method: 'POST', path: `/moderation/appeals/${SOME_ID}/decide`, body: { decision: 'grant', note: 'x' } },
  // Verification requests (docs/decisions/0034).
  { method: 'GET', path: '/moderation/verifications' },
  { method: 'GET', path: `/moderation/verifications/${SOME_ID}/selfie` },
  { method: 'POST', path: `/moderation/verifications/${SOME_ID}/approve`, body: { photoKeys: [] } },
  { method: 'POST', path: `/moderation/verifications/${SOME_ID}/reject`, body: { reason: 'pose' } },
];

/** A person with a password (so they can try to sign in again) and a profile in the decks. */
export async function createMember(app: TestApp, name: string): Promise<TestUser> {
  const email = uniqueEmail('mod');
  const user = await app.auth.users.createUser({
    name,
    lastName: 'Prueba',
    email,
    phone: null,
    password: GOOD_PASSWORD,
  });
  const { token } = await app.auth.sessions.issueSession(user.id, { rememberMe: true });
  const response = await createDiscoveryApi(app).post('/profiles', profileBody(user.id, { name }), token);
  if (response.status !== 201) throw new Error(`profile not created: ${JSON.stringify(response.body)}`);
  return { userId: user.id, token, email };
}

/** The console's calls for one moderator. */
export function createModerationClient(app: TestApp, moderator: TestUser) {
  const api = createApi(app);
  return {
    queue: () => api.get('/moderation/queue', moderator.token),
    report: (reportId: string) => api.get(`/moderation/reports/${reportId}`, moderator.token),
    resolve: (reportId: string, body: Record<string, unknown>) =>
      api.post(`/moderation/reports/${reportId}/resolve`, body, moderator.token),
    lift: (restrictionId: string, note = 'Revisado de nuevo') =>
      api.post(`/moderation/restrictions/${restrictionId}/lift`, { note }, moderator.token),
    decide: (appealId: string, decision: 'grant' | 'uphold', note = 'Apelación revisada') =>
      api.post(`/moderation/appeals/${appealId}/decide`, { decision, note }, moderator.token),
    audit: () => api.get('/moderation/audit', moderator.token),
  };
}

/** `reporter` reports `reported` (from their chat when a conversation is given); the report's id. */
export async function report(
  app: TestApp,
  reporter: TestUser,
  reported: TestUser,
  extra: { conversationId?: string; reason?: string; details?: string } = {},
): Promise<string> {
  const answer = await createApi(app).post(
    '/safety/reports',
    { userId: reported.userId, reason: extra.reason ?? 'harassment', details: extra.details, ...extra },
    reporter.token,
  );
  if (answer.status !== 201) throw new Error(`report refused: ${JSON.stringify(answer.body)}`);
  return answer.body.reportId as string;
}
