// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, createApi, GOOD_PASSWORD, uniqueEmail, uniquePhone } from '../helpers/auth-api.ts';
import { createMatchedPair } from '../helpers/chat-api.ts';
import { createDiscoveryApi, createSignedInUser, profileBody } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * A client written to the specs (000 §7 "Requests carry a JSON content type", 001 §7 "JSON content
 * type unless stated"): it sets `Content-Type: application/json` on EVERY call, and sends no body
 * where the spec's call has none. Each spec call, as that client sends it, must be answered as the
 * spec says (#32 §6): before, the bodiless PATCH and DELETE calls got 400 «El cuerpo de la
 * petición no es un JSON válido». Not here: the three Google calls (bodies with a signed
 * credential, sent with the same header in auth-google.test.ts) and the photo upload (multipart,
 * as 001 §7 states).
 */
describe('every spec call as a client that always sends Content-Type: application/json (#32 §6)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  /** The spec client's one way to call: the JSON content type always, the body only when there is one. */
  async function specCall(method: string, path: string, token?: string, body?: unknown): Promise<ApiResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${app.url}/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  }

  /** A spec call that must succeed; the label names it in a failure. */
  async function expectOk(method: string, path: string, token?: string, body?: unknown, status = 200) {
    const response = await specCall(method, path, token, body);
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBe(status);
    return response;
  }

  it('runs the access area (spec 000 §7) end to end', async () => {
    const api = createApi(app);
    const email = uniqueEmail('spec-client');
    const phone = uniquePhone();
    expect((await expectOk('POST', '/auth/check-email', undefined, { email })).body.data).toEqual({ exists: false });
    await expectOk('POST', '/auth/send-code', undefined, { phone });
    const verified = await expectOk('POST', '/auth/verify-code', undefined, {
      phone,
      code: await api.latestCode(phone),
    });
    // No account exists yet at this step: no user and no token (decision 0046).
    expect(verified.body).toEqual({ success: true, message: 'Teléfono verificado correctamente' });
    const account = { name: 'Lucía', lastName: 'García', email, phone, password: GOOD_PASSWORD };
    await expectOk('POST', '/auth/register', undefined, account, 201);
    const completed = await expectOk('POST', '/auth/complete-registration', undefined, {
      phone,
      password: GOOD_PASSWORD,
    });
    expect(completed.body).toMatchObject({ token: expect.any(String), user: { email } });
    const login = await expectOk('POST', '/auth/login', undefined, {
      email,
      password: GOOD_PASSWORD,
      rememberMe: true,
      latitude: 40.4168,
      longitude: -3.7038,
    });
    const token = login.body.token as string;
    const userId = (login.body.user as { userId: string }).userId;
    // GET /auth/validate-session: no body.
    expect((await expectOk('GET', '/auth/validate-session', token)).body.success).toBe(true);
    await expectOk('POST', '/auth/update-streak', token, {
      userId,
      streak: 1,
      lastLoginDate: new Date().toISOString(),
    });
    await expectOk('POST', '/auth/forgot-password', undefined, { email });
    const [mail] = await api.waitForOutbox(email);
    const resetToken = new URL(mail?.link as string).searchParams.get('token') as string;
    expect(
      (await expectOk('POST', '/auth/validate-reset-token', undefined, { token: resetToken, email })).body,
    ).toEqual(expect.objectContaining({ valid: true }));
    await expectOk('POST', '/auth/reset-password', undefined, {
      token: resetToken,
      email,
      newPassword: 'Otra&Clave2028',
    });
  });

  it('runs the signed-in area (spec 001 §7), the bodiless calls without a body', async () => {
    const api = createDiscoveryApi(app);
    const pair = await createMatchedPair(api, { names: ['Ana', 'Bruno'] });
    const { a, b, conversationId } = pair;
    const third = await api.userWithProfile({}, 'Carla');

    // Profiles: create, read, update, location (the wizard's and the editor's calls).
    const fresh = await api.userWithProfile({}, 'Diana');
    await expectOk('GET', `/profiles/${fresh.userId}`, fresh.token);
    await expectOk('PUT', `/profiles/${fresh.userId}`, fresh.token, {
      userId: fresh.userId,
      bio: 'Entreno fuerza y corro.',
    });
    await expectOk('PUT', `/profiles/${fresh.userId}/location`, fresh.token, {
      location: { latitude: 40.42, longitude: -3.7 },
    });
    const newcomer = await createSignedInUser(app, 'Fátima');
    const created = await expectOk(
      'POST',
      '/profiles',
      newcomer.token,
      profileBody(newcomer.userId, { name: 'Fátima' }),
      201,
    );
    expect(created.body.success).toBe(true);

    // Deck, swipe, matches, the partner's profile.
    await expectOk('POST', '/mcp/tool', a.token, {
      server_name: 'gyms',
      tool_name: 'search_gyms',
      arguments: { query: 'Alta', location: { latitude: 40.4168, longitude: -3.7038 } },
    });
    await expectOk('GET', `/profiles/${a.userId}/recommended?page=1&limit=10`, a.token);
    await expectOk('POST', `/swipes/users/${a.userId}/swipe`, a.token, {
      target_user_id: third.userId,
      action: 'dislike',
    });
    await expectOk('GET', `/swipes/users/${a.userId}/matches`, a.token);
    await expectOk('GET', `/messages/conversations/profile/${b.userId}`, a.token);

    // Chat.
    await expectOk('GET', '/messages/conversations?page=1&limit=20', a.token);
    await expectOk('POST', '/messages/messages', b.token, { conversationId, receiverId: a.userId, text: 'Hola' }, 201);
    await expectOk('GET', `/messages/conversations/${conversationId}/messages?page=1&limit=50`, a.token);
    await expectOk('GET', '/messages/messages/unread/count', a.token);
    const read = await expectOk('PATCH', `/messages/conversations/${conversationId}/read`, a.token);
    expect(read.body).toMatchObject({ success: true, unreadCount: 0 });
    await expectOk('PATCH', `/messages/conversations/${conversationId}/pin`, a.token, { isPinned: true });
    await expectOk('PATCH', `/messages/conversations/${conversationId}/mute`, a.token, { isMuted: true });
    await expectOk('PATCH', `/messages/conversations/${conversationId}/swipetype`, a.token, { swipeType: 'like' });
    await expectOk('PATCH', `/messages/conversations/${conversationId}/archive`, a.token, {});

    // Notifications: list, count, and the four bodiless mutations.
    const listed = await expectOk('GET', '/notifications?page=1&limit=20', a.token);
    const ids = (listed.body.notifications as { _id: string }[]).map((notification) => notification._id);
    expect(ids.length).toBeGreaterThan(0);
    await expectOk('GET', '/notifications/unread-count', a.token);
    const first = ids[0] as string;
    expect((await expectOk('PATCH', `/notifications/${first}/read`, a.token)).body.success).toBe(true);
    // Beyond the spec (its path is not shown), and bodiless too.
    expect((await expectOk('PATCH', `/notifications/${first}/unread`, a.token)).body.success).toBe(true);
    expect((await expectOk('PATCH', '/notifications/read-all', a.token)).body.success).toBe(true);
    expect((await expectOk('GET', '/notifications/unread-count', a.token)).body.count).toBe(0);
    expect((await expectOk('DELETE', `/notifications/${first}`, a.token)).body.success).toBe(true);
    const after = await expectOk('GET', '/notifications?page=1&limit=20', a.token);
    expect((after.body.notifications as { _id: string }[]).map((notification) => notification._id)).not.toContain(
      first,
    );

    // Sign-out (beyond the spec's table, bodiless): the token stops working.
    await expectOk('POST', '/auth/logout', b.token);
    expect((await specCall('GET', '/auth/validate-session', b.token)).status).toBe(401);
  });

  it('keeps the preferences music, groupClasses and personalTraining as sent (decision 0047)', async () => {
    const user = await createSignedInUser(app, 'Inés');
    const preferences = {
      gender_preference: 'both',
      age_range: { min: 18, max: 99 },
      distance: 50,
      music: true,
      groupClasses: false,
      personalTraining: true,
    };
    await expectOk('POST', '/profiles', user.token, profileBody(user.userId, { name: 'Inés', preferences }), 201);
    const read = await expectOk('GET', `/profiles/${user.userId}`, user.token);
    expect((read.body.profile as { preferences: unknown }).preferences).toMatchObject(preferences);
    await expectOk('PUT', `/profiles/${user.userId}`, user.token, {
      userId: user.userId,
      preferences: { ...preferences, music: false, groupClasses: true },
    });
    const again = await expectOk('GET', `/profiles/${user.userId}`, user.token);
    expect((again.body.profile as { preferences: unknown }).preferences).toMatchObject({
      music: false,
      groupClasses: true,
      personalTraining: true,
    });
  });

  it('still refuses broken JSON, and a call that needs a body answers its own Spanish 400 without one', async () => {
    const api = createDiscoveryApi(app);
    const user = await api.userWithProfile({}, 'Gema');
    const broken = await fetch(`${app.url}/api/notifications/read-all`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
      body: '{"x": ',
    });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ success: false, message: 'El cuerpo de la petición no es un JSON válido' });
    const poisoned = await fetch(`${app.url}/api/auth/check-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"a@b.co","__proto__":{"x":1}}',
    });
    expect(poisoned.status).toBe(400);
    expect((await poisoned.json()).message).toBe('El cuerpo de la petición no es un JSON válido');
    for (const [method, path] of [
      ['POST', '/auth/check-email'],
      ['POST', '/messages/messages'],
      ['PATCH', '/messages/conversations/00000000-0000-4000-8000-000000000000/pin'],
    ] as const) {
      const response = await specCall(method, path, user.token);
      expect(response.status, `${method} ${path}`).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.message, `${method} ${path}`).toMatch(/[áéíóúñ]|[A-Z][a-z]+ /);
    }
  });
});
