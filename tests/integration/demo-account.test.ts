// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { madridClock } from '#shared/time/madrid-calendar';
import { DEMO_PASSWORD, seedDemoData } from '../../src/server/tools/seed.ts';
import { DEMO_ACCOUNT_EMAIL, seedDemoAccountLife } from '../../src/server/tools/seed-demo-account.ts';
import { createMemoryPhotoStore } from '../../src/server/features/photos/photo-store.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Json = Record<string, unknown>;

/** #19 §4: signing in as the README's demo account shows a living app; reseeding changes nothing. */
describe('the demo account comes alive (seedDemoAccountLife)', { timeout: 120_000 }, () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let realUser: TestUser;
  let token: string;
  let demoId: string;

  beforeAll(async () => {
    app = await startTestApp({ rateLimitIpFactor: 1000 });
    api = createDiscoveryApi(app);
    // A real person signed up before the seed: nothing may touch them.
    realUser = await api.userWithProfile({}, 'Real');
    await seedDemoData(app.database.db, { photoStore: createMemoryPhotoStore(), count: 8 });
    expect(await seedDemoAccountLife(app.database.db)).toMatch(/4 matches/);
    const login = await api.post('/auth/login', {
      email: DEMO_ACCOUNT_EMAIL,
      password: DEMO_PASSWORD,
      rememberMe: true,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    token = login.body.token as string;
    demoId = (login.body.user as Json).userId as string;
  });
  afterAll(async () => {
    await app?.close();
  });

  const snapshot = async () => ({
    matches: (await api.get(`/swipes/users/${demoId}/matches`, token)).body.matches as Json[],
    conversations: (await api.get('/messages/conversations', token)).body.conversations as Json[],
    unread: (await api.get('/messages/messages/unread/count', token)).body.unreadCount as number,
    notifications: (await api.get('/notifications', token)).body.notifications as Json[],
    quedadas: (await api.get('/quedadas?upcoming=true', token)).body.quedadas as Json[] | undefined,
  });

  it('shows at least three matches, two conversations talking both ways, unread messages and notifications', async () => {
    const seen = await snapshot();
    expect(seen.matches.length).toBeGreaterThanOrEqual(3);
    const talking = seen.conversations.filter((conversation) => conversation.lastMessage);
    expect(talking.length).toBeGreaterThanOrEqual(2);
    for (const conversation of talking.slice(0, 2)) {
      const listed = await api.get(`/messages/conversations/${conversation.conversationId}/messages`, token);
      const list = listed.body.messages as Json[];
      expect(list.length).toBeGreaterThanOrEqual(3);
      const senders = new Set(list.map((message) => message.senderId ?? message.sender_id));
      expect(senders.has(demoId)).toBe(true);
      expect(senders.size).toBe(2);
      // Spanish, coherent texts.
      expect(list.map((message) => message.text).join(' ')).toMatch(/entren|Hola|gimnasio|juntos|rutina/i);
    }
    expect(seen.unread).toBeGreaterThan(0);
    expect(seen.notifications.length).toBeGreaterThanOrEqual(2);
    expect(seen.notifications.some((notification) => notification.isRead === false)).toBe(true);
    expect(seen.notifications.map((notification) => notification.title)).toContain('¡Nuevo Entrenamiento!');
  });

  it('has an upcoming training session (quedada)', async () => {
    const seen = await snapshot();
    expect(seen.quedadas?.length).toBeGreaterThanOrEqual(1);
  });

  it('looks like real people: sessions at hours people train, matches of different ages (issue #34)', async () => {
    const seen = await snapshot();
    for (const quedada of seen.quedadas ?? []) {
      // Madrid's hour of the day: one was seeded at 02:48.
      const hour = Number(madridClock(quedada.startsAt as string).slice(0, 2));
      expect(hour, `a seeded session at ${madridClock(quedada.startsAt as string)}`).toBeGreaterThanOrEqual(6);
      expect(hour).toBeLessThanOrEqual(22);
    }
    // Every match was about 20 before the ages were spread.
    const ages = new Set(seen.matches.map((match) => (match.otherUser as Json).age));
    expect(ages.size, `the matches' ages: ${[...ages].join(', ')}`).toBeGreaterThanOrEqual(3);
  });

  it('reseeding is idempotent and never touches real users', async () => {
    const before = await snapshot();
    expect(await seedDemoAccountLife(app.database.db)).toMatch(/already/);
    await seedDemoData(app.database.db, { photoStore: createMemoryPhotoStore(), count: 8 });
    const after = await snapshot();
    expect(after.matches.length).toBe(before.matches.length);
    expect(after.conversations.length).toBe(before.conversations.length);
    expect(after.notifications.length).toBe(before.notifications.length);
    expect(after.unread).toBe(before.unread);
    const realMatches = await api.get(`/swipes/users/${realUser.userId}/matches`, realUser.token);
    expect(realMatches.body.matches).toEqual([]);
    const realNotifications = await api.get('/notifications', realUser.token);
    expect(JSON.stringify(realNotifications.body.notifications)).not.toContain('Entrenamiento');
  });
});
