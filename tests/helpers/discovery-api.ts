import { expect } from 'vitest';
import { type Api, createApi, uniqueEmail } from './auth-api.ts';
import type { TestApp } from './test-app.ts';

export type TestUser = { userId: string; token: string; email: string };

/**
 * A signed-in user made through the auth module (the registration wizard is covered by the auth
 * suites, and its per-IP limits would stop a test that needs dozens of users).
 */
export async function createSignedInUser(app: TestApp, name = 'Lucía'): Promise<TestUser> {
  const email = uniqueEmail('disc');
  const user = await app.auth.users.createUser({ name, lastName: 'Prueba', email, phone: null, password: null });
  const { token } = await app.auth.sessions.issueSession(user.id, { rememberMe: true });
  return { userId: user.id, token, email };
}

/** A valid `POST /api/profiles` body: a 30-year-old in central Madrid, open to everyone within 50 km. */
export function profileBody(userId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    userId,
    name: 'Lucía',
    lastName: 'García',
    birthDate: '1996-01-15',
    bio: 'Me encanta entrenar fuerza por las mañanas y salir a correr los domingos.',
    gender: 'female',
    location: { latitude: 40.4168, longitude: -3.7038, city: 'Madrid' },
    gym: { name: 'Altafit Argüelles', trainingSchedule: ['Mañana'] },
    training: {
      sports: ['Musculación', 'Running'],
      goals: ['Aumentar fuerza'],
      availability: ['Lunes mañana', 'Miércoles mañana'],
      experienceLevel: 'intermediate',
      frequency: 4,
    },
    preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
    ...overrides,
  };
}

export function createDiscoveryApi(app: TestApp) {
  const api: Api = createApi(app);
  return {
    ...api,
    put: (path: string, body: unknown, token?: string) => api.call('PUT', path, { body, token }),

    /** A user with a profile (201), built from profileBody plus overrides. */
    async userWithProfile(overrides: Record<string, unknown> = {}, name = 'Lucía'): Promise<TestUser> {
      const user = await createSignedInUser(app, name);
      const response = await api.post('/profiles', profileBody(user.userId, { name, ...overrides }), user.token);
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return user;
    },

    /** Multipart upload of files to `POST /api/profiles/{id}/photos`. */
    async upload(
      profileId: string,
      files: { data: Buffer; name?: string; type?: string; field?: string }[],
      token?: string,
    ) {
      const form = new FormData();
      for (const file of files) {
        form.append(
          file.field ?? 'photos',
          new Blob([new Uint8Array(file.data)], { type: file.type ?? 'image/jpeg' }),
          file.name ?? 'foto.jpg',
        );
      }
      const response = await fetch(`${app.url}/api/profiles/${profileId}/photos`, {
        method: 'POST',
        headers: token ? { authorization: `Bearer ${token}` } : {},
        body: form,
      });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
    },
  };
}

export type DiscoveryApi = ReturnType<typeof createDiscoveryApi>;
