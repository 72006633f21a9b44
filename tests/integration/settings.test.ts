// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '#shared/settings/settings-schema';
import { type Api, createApi } from '../helpers/auth-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('settings kept on the server (spec 001 §3, docs/decisions/0008)', () => {
  let app: TestApp;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = createApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const signIn = async () => {
    const account = await api.registerUser();
    const { token } = await api.login(account.email);
    return { ...account, token };
  };
  // One account for the many refusal cases (registration is rate-limited per IP).
  let sharedUser: Awaited<ReturnType<typeof signIn>> | undefined;
  const shared = async () => {
    sharedUser ??= await signIn();
    return sharedUser;
  };
  const put = (token: string, body: unknown) => api.call('PUT', '/settings', { token, body });
  const get = async (token: string) => {
    const response = await api.get('/settings', token);
    expect(response.status).toBe(200);
    return (response.body as { settings: Settings }).settings;
  };

  it('starts from the spec defaults', async () => {
    const user = await signIn();
    expect(await get(user.token)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.search.maxDistance).toBe(25);
    expect(Object.values(DEFAULT_SETTINGS.notifications).every(Boolean)).toBe(true);
    expect(DEFAULT_SETTINGS.cookies).toEqual({ necessary: true, analytics: true, marketing: false, preferences: true });
    expect(await app.notifications.settings.get(user.userId)).toEqual(DEFAULT_SETTINGS);
  });

  it('saves partial changes field by field and answers the whole result', async () => {
    const user = await signIn();
    const first = await put(user.token, { notifications: { messages: false }, search: { maxDistance: 80 } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      settings: {
        ...DEFAULT_SETTINGS,
        notifications: { ...DEFAULT_SETTINGS.notifications, messages: false },
        search: { ...DEFAULT_SETTINGS.search, maxDistance: 80 },
      },
    });
    // A later change to other fields of the same sections keeps the earlier ones.
    await put(user.token, {
      notifications: { matches: false },
      search: { preferredGender: 'female', experienceLevel: 'advanced', preferredSchedule: 'evening' },
      privacy: { showProfile: false },
      twoFactor: true,
      cookies: { necessary: true, marketing: true },
      theme: 'dark',
      quedadas: { reminderMinutes: 30 },
    });
    const settings = await get(user.token);
    expect(settings).toEqual({
      notifications: { ...DEFAULT_SETTINGS.notifications, messages: false, matches: false },
      privacy: { ...DEFAULT_SETTINGS.privacy, showProfile: false },
      search: { maxDistance: 80, preferredGender: 'female', experienceLevel: 'advanced', preferredSchedule: 'evening' },
      twoFactor: true,
      cookies: { necessary: true, analytics: true, marketing: true, preferences: true },
      theme: 'dark',
      quedadas: { reminderMinutes: 30, showReliability: true },
    });
    expect((await app.notifications.settings.get(user.userId)).privacy.showProfile).toBe(false);
  });

  it('keeps both of two changes saved at the same time from two devices', async () => {
    const user = await signIn();
    await Promise.all([
      put(user.token, { notifications: { superlikes: false } }),
      put(user.token, { notifications: { achievements: false } }),
      put(user.token, { theme: 'light' }),
    ]);
    const settings = await get(user.token);
    expect(settings.notifications).toMatchObject({ superlikes: false, achievements: false, messages: true });
    expect(settings.theme).toBe('light');
  });

  it('keeps each user to their own settings', async () => {
    const a = await signIn();
    const b = await signIn();
    await put(a.token, { theme: 'dark', privacy: { shareLocation: false } });
    expect(await get(b.token)).toEqual(DEFAULT_SETTINGS);
    expect((await get(a.token)).theme).toBe('dark');
  });

  it.each([
    [{}, 'Indica al menos una opción de configuración'],
    [{ search: { maxDistance: 0 } }, 'La distancia máxima debe estar entre 1 y 100 km'],
    [{ search: { maxDistance: 101 } }, 'La distancia máxima debe estar entre 1 y 100 km'],
    [{ search: { maxDistance: 25.5 } }, 'La distancia máxima debe estar entre 1 y 100 km'],
    [{ search: { maxDistance: '25' } }, 'La distancia máxima debe estar entre 1 y 100 km'],
    [{ search: { preferredGender: 'both' } }, 'El género preferido debe ser all, male o female'],
    [{ search: { experienceLevel: 'pro' } }, 'El nivel de experiencia debe ser all, beginner, intermediate o advanced'],
    [
      { search: { preferredSchedule: 'night' } },
      'El horario preferido debe ser flexible, morning, afternoon o evening',
    ],
    [{ cookies: { necessary: false } }, 'Las cookies necesarias no se pueden desactivar'],
    [{ theme: 'blue' }, 'El tema debe ser light, system o dark'],
    [{ notifications: { messages: 'no' } }, 'El valor de la opción debe ser verdadero o falso'],
    [{ notifications: { sms: true } }, 'La configuración enviada no es válida'],
    [{ extra: 1 }, 'La configuración enviada no es válida'],
    [{ twoFactor: null }, 'El valor de la opción debe ser verdadero o falso'],
    [[], 'La configuración enviada no es válida'],
    [[1], 'La configuración enviada no es válida'],
    ['"texto"', 'La configuración enviada no es válida'],
  ])('refuses %j with a Spanish 400', async (body, message) => {
    const user = await shared();
    const response = await put(user.token, body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, message });
    expect(await get(user.token)).toEqual(DEFAULT_SETTINGS);
  });

  it('refuses __proto__, broken JSON and anonymous callers without a 5xx', async () => {
    const user = await shared();
    const proto = await api.call('PUT', '/settings', {
      token: user.token,
      body: '{"__proto__": {"theme": "dark"}, "theme": "light"}',
    });
    expect(proto.status).toBe(400);
    const broken = await api.call('PUT', '/settings', { token: user.token, body: '{"theme":' });
    expect(broken.status).toBe(400);
    expect((await api.get('/settings')).status).toBe(401);
    expect((await api.call('PUT', '/settings', { body: { theme: 'dark' } })).status).toBe(401);
  });
});
