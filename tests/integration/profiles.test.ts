// @setup embedded
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distanceKmBucket, distanceText, haversineKm, snapToGrid } from '#shared/discovery/distance';
import { createDiscoveryApi, createSignedInUser, type DiscoveryApi, profileBody } from '../helpers/discovery-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { createTestClock } from '../helpers/test-clock.ts';

type ProfileBody = Record<string, unknown> & {
  id: string;
  location: unknown;
  distanceText: string;
  distance: number | null;
  compatibilityScore: number;
  compatibilityReasons: string[];
};

describe('profiles (spec 001 §3, §5, §7; QUALITY 8, 9, 12)', () => {
  const clock = createTestClock('2026-03-10T09:00:00.000Z');
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({}, { dependencies: { clock } });
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates, reads and updates the own profile; the position is stored snapped', async () => {
    const user = await createSignedInUser(app);
    const missing = await api.get(`/profiles/${user.userId}`, user.token);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, message: 'Perfil no encontrado' });

    const created = await api.post(
      '/profiles',
      profileBody(user.userId, { location: { latitude: 40.41234, longitude: -3.70111, city: 'Madrid' } }),
      user.token,
    );
    expect(created.status).toBe(201);
    const profile = created.body.profile as ProfileBody;
    expect(created.body.success).toBe(true);
    expect(profile).toMatchObject({
      userId: user.userId,
      name: 'Lucía',
      age: 30,
      birthDate: '1996-01-15',
      photos: [],
      gym: { name: 'Altafit Argüelles', membershipType: 'free', trainingSchedule: ['Mañana'] },
      preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
    });
    const snapped = snapToGrid(40.41234, -3.70111);
    expect(profile.location).toEqual({ latitude: snapped.latitude, longitude: snapped.longitude, city: 'Madrid' });

    // Nothing raw in the database either (QUALITY 9).
    const rows = await app.database.db.execute(
      sql`select latitude, longitude from profiles where user_id = ${user.userId}`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([snapped]);

    const read = await api.get(`/profiles/${user.userId}`, user.token);
    expect(read.status).toBe(200);
    expect(read.body.profile).toMatchObject({ userId: user.userId, birthDate: '1996-01-15' });
    // The profile's own id works too.
    expect((await api.get(`/profiles/${profile.id}`, user.token)).status).toBe(200);

    const updated = await api.put(
      `/profiles/${user.userId}`,
      {
        userId: user.userId,
        bio: 'Ahora entreno por las tardes y preparo una media maratón.',
        preferences: { distance: 20 },
      },
      user.token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.profile).toMatchObject({
      bio: 'Ahora entreno por las tardes y preparo una media maratón.',
      preferences: { distance: 20, gender_preference: 'both', age_range: { min: 18, max: 99 } },
      name: 'Lucía',
    });

    const moved = await api.put(
      `/profiles/${user.userId}/location`,
      { location: { latitude: 41.38, longitude: 2.17, city: 'Barcelona' } },
      user.token,
    );
    expect(moved.status).toBe(200);
    const barcelona = snapToGrid(41.38, 2.17);
    expect((moved.body.profile as Record<string, unknown>).location).toEqual({ ...barcelona, city: 'Barcelona' });
  });

  it('refuses a second profile (409) and a profile for someone else (403)', async () => {
    const user = await api.userWithProfile();
    expect((await api.post('/profiles', profileBody(user.userId), user.token)).status).toBe(409);
    const other = await createSignedInUser(app);
    const forged = await api.post('/profiles', profileBody(other.userId), user.token);
    expect(forged.status).toBe(403);
  });

  it("answers 403 when editing another user's profile or location, and 401 without a token", async () => {
    const owner = await api.userWithProfile();
    const intruder = await api.userWithProfile();
    const edit = await api.put(
      `/profiles/${owner.userId}`,
      { userId: owner.userId, bio: 'Perfil secuestrado, lo siento mucho.' },
      intruder.token,
    );
    expect(edit.status).toBe(403);
    const forgedBody = await api.put(
      `/profiles/${intruder.userId}`,
      { userId: owner.userId, bio: 'Otra prueba de edición ajena.' },
      intruder.token,
    );
    expect(forgedBody.status).toBe(403);
    const location = await api.put(
      `/profiles/${owner.userId}/location`,
      { location: { latitude: 1, longitude: 1 } },
      intruder.token,
    );
    expect(location.status).toBe(403);
    expect((await api.put(`/profiles/${owner.userId}`, { userId: owner.userId })).status).toBe(401);
    expect((await api.get(`/profiles/${owner.userId}`)).status).toBe(401);
    expect((await api.get(`/profiles/${owner.userId}`, owner.token)).body.profile).toMatchObject({
      bio: 'Me encanta entrenar fuerza por las mañanas y salir a correr los domingos.',
    });
  });

  it('shows another user only the public view: no coordinates, birth date, phone, e-mail or preferences', async () => {
    const viewer = await api.userWithProfile();
    const other = await api.userWithProfile(
      { location: { latitude: 40.45, longitude: -3.69, city: 'Madrid' } },
      'Carmen',
    );
    const response = await api.get(`/profiles/${other.userId}`, viewer.token);
    expect(response.status).toBe(200);
    const profile = response.body.profile as ProfileBody;
    expect(profile).toMatchObject({ userId: other.userId, name: 'Carmen', age: 30, location: { city: 'Madrid' } });
    expect(profile.location).toEqual({ city: 'Madrid' });
    for (const key of ['birthDate', 'preferences', 'email', 'phone', 'latitude', 'longitude', 'active']) {
      expect(profile).not.toHaveProperty(key);
    }
    expect(JSON.stringify(profile)).not.toContain(other.email);
    // Between the two 3 km cell centres (the viewer is at profileBody's 40.4168, -3.7038): the text
    // and its numeric twin (spec 001 §3 Profile.distance) name the same bucket.
    const km = haversineKm(snapToGrid(40.4168, -3.7038), snapToGrid(40.45, -3.69));
    expect(profile.distanceText).toBe(distanceText(km));
    expect(profile.distanceText).toBe(`A ${profile.distance} km`);
    expect(profile.distance).toBe(distanceKmBucket(km));
    expect(profile.compatibilityScore).toBeGreaterThan(50);
    expect(profile.compatibilityReasons.length).toBeGreaterThan(0);
  });

  it('answers validation errors with the spec texts', async () => {
    const user = await createSignedInUser(app);
    const cases: [Record<string, unknown>, string][] = [
      [{ birthDate: '2010-01-01' }, 'Debes tener al menos 18 años para crear un perfil'],
      [{ birthDate: '' }, 'La fecha de nacimiento es obligatoria'],
      [{ name: 'R2D2' }, 'El nombre debe contener solo letras y espacios (1-20 caracteres)'],
      [{ lastName: 'x'.repeat(31) }, 'El apellido debe contener solo letras y espacios (1-30 caracteres)'],
      [{ bio: 'corta' }, 'La bio debe tener entre 10 y 500 caracteres'],
      [
        { gym: { name: 'ab', trainingSchedule: ['Mañana'] } },
        'El nombre del gimnasio debe tener entre 3 y 50 caracteres',
      ],
      [{ gym: { name: 'Altafit', trainingSchedule: [] } }, 'Selecciona al menos un horario de entrenamiento'],
      [
        { training: { sports: [], goals: ['Tonificar'], availability: ['Lunes mañana'] } },
        'Selecciona al menos un deporte',
      ],
      [
        { training: { sports: ['Yoga'], goals: [], availability: ['Lunes mañana'] } },
        'Selecciona al menos un objetivo',
      ],
      [
        { training: { sports: ['Yoga'], goals: ['Tonificar'], availability: [] } },
        'Selecciona al menos un horario de disponibilidad',
      ],
      [{ health: { height: 90 } }, 'La altura debe estar entre 100 y 250 cm'],
      [{ health: { weight: 300 } }, 'El peso debe estar entre 30 y 250 kg'],
      [{ userId: undefined }, 'UserId es requerido'],
      [
        { location: undefined },
        'No se pudo obtener tu ubicación. Por favor, habilita el acceso a la ubicación para continuar.',
      ],
      [{ preferences: { age_range: { min: 40, max: 30 } } }, 'La edad mínima no puede ser mayor que la máxima'],
      [{ preferences: { distance: 0 } }, 'La distancia debe ser de al menos 1 km'],
      [{ photos: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, 'Puedes subir un máximo de 6 fotos'],
    ];
    for (const [overrides, message] of cases) {
      const response = await api.post('/profiles', profileBody(user.userId, overrides), user.token);
      expect(response.status, message).toBe(400);
      expect(response.body.message, JSON.stringify(overrides)).toBe(message);
    }
  });

  it('clears an optional field sent as null or "", and leaves absent ones as they are (0014)', async () => {
    const user = await api.userWithProfile({
      lastName: 'García',
      gender: 'female',
      training: {
        sports: ['Running'],
        goals: ['Mejorar resistencia'],
        availability: ['Lunes tarde'],
        experienceLevel: 'advanced',
        commitment_level: 'strict',
        socialPreference: 'both',
      },
    });
    const put = async (changes: Record<string, unknown>) => {
      const response = await api.put(`/profiles/${user.userId}`, { userId: user.userId, ...changes }, user.token);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      // What the server answers is what it stored.
      const read = await api.get(`/profiles/${user.userId}`, user.token);
      expect(read.body.profile).toEqual(response.body.profile);
      return response.body.profile as Record<string, unknown> & { training: Record<string, unknown> };
    };

    expect((await put({ lastName: '' })).lastName).toBeNull();
    expect((await put({ lastName: 'Pérez' })).lastName).toBe('Pérez');
    expect((await put({ bio: 'Sigo corriendo por el Retiro cada tarde.' })).lastName).toBe('Pérez');
    expect((await put({ lastName: null })).lastName).toBeNull();

    const cleared = await put({
      gender: null,
      training: { experienceLevel: null, commitment_level: null, socialPreference: null },
    });
    expect(cleared.gender).toBeNull();
    expect(cleared.training).toMatchObject({
      experienceLevel: null,
      commitment_level: null,
      socialPreference: null,
      sports: ['Running'],
      goals: ['Mejorar resistencia'],
    });
    // Cleared for the others too, and the deck's copies follow (no "Nivel similar" without a level).
    const viewer = await api.userWithProfile();
    const seen = await api.get(`/profiles/${user.userId}`, viewer.token);
    expect(seen.body.profile).toMatchObject({ lastName: null, gender: null, training: { experienceLevel: null } });
    const rows = await app.database.db.execute(
      sql`select experience_rank, commitment_rank, social_preference from profiles where user_id = ${user.userId}`,
    );
    expect((rows as unknown as { rows: unknown[] }).rows).toEqual([
      { experience_rank: null, commitment_rank: null, social_preference: null },
    ]);
  });

  it('keeps social links: handles or profile addresses, merged per handle, cleared with "" or null', async () => {
    const user = await api.userWithProfile({
      social: { instagram: '@lucia.fit', strava: 'https://www.strava.com/athletes/123456?ref=app' },
    });
    const socialSeenBy = async (token: string) =>
      ((await api.get(`/profiles/${user.userId}`, token)).body.profile as { social?: unknown }).social;
    const own = () => socialSeenBy(user.token);
    const put = (social: unknown) => api.put(`/profiles/${user.userId}`, { userId: user.userId, social }, user.token);
    expect(await own()).toEqual({ instagram: 'lucia.fit', strava: '123456' });

    expect((await put({ spotify: 'https://open.spotify.com/user/lucia_runs?si=abc123' })).status).toBe(200);
    expect(await own()).toEqual({ instagram: 'lucia.fit', spotify: 'lucia_runs', strava: '123456' });
    // Others see them in the profile modal.
    const viewer = await api.userWithProfile();
    expect(await socialSeenBy(viewer.token)).toEqual({
      instagram: 'lucia.fit',
      spotify: 'lucia_runs',
      strava: '123456',
    });

    expect((await put({ instagram: '' })).status).toBe(200);
    expect(await own()).toEqual({ spotify: 'lucia_runs', strava: '123456' });
    expect((await put({ strava: null })).status).toBe(200);
    expect(await own()).toEqual({ spotify: 'lucia_runs' });
    expect((await put(null)).status).toBe(200);
    expect(await own()).toBeNull();

    const cases: [unknown, string][] = [
      [
        { instagram: 'lucía fit' },
        'El usuario de Instagram debe contener solo letras, números, puntos y guiones bajos (1-30 caracteres)',
      ],
      [
        { instagram: 'a'.repeat(31) },
        'El usuario de Instagram debe contener solo letras, números, puntos y guiones bajos (1-30 caracteres)',
      ],
      [
        { spotify: 'https://open.spotify.com/user/' },
        'El usuario de Spotify debe contener solo letras, números, puntos, guiones y guiones bajos (1-30 caracteres)',
      ],
      [{ strava: 'lucia_runs' }, 'El atleta de Strava debe ser el número de tu perfil (1-12 dígitos)'],
      [{ tiktok: 'lucia' }, 'Datos del perfil no válidos: contiene campos no permitidos'],
      ['lucia.fit', 'Redes sociales no válidas'],
    ];
    for (const [social, message] of cases) {
      const update = await put(social);
      expect(update.status, message).toBe(400);
      expect(update.body.message).toBe(message);
      const create = await api.post('/profiles', profileBody(user.userId, { social }), user.token);
      expect(create.body.message).toBe(message);
    }
    expect(await own()).toBeNull();
  });

  it('never answers a profile body with a 5xx (fast-check)', async () => {
    const user = await createSignedInUser(app);
    const valid = profileBody(user.userId);
    const mutation = fc.oneof(
      fc.anything(),
      fc
        .record({
          key: fc.constantFrom(...Object.keys(valid), '__proto__', 'constructor', 'extra'),
          value: fc.anything(),
        })
        .map(({ key, value }) => ({ ...valid, [key]: value })),
      fc.dictionary(fc.string(), fc.jsonValue()),
    );
    await fc.assert(
      fc.asyncProperty(mutation, fc.constantFrom('POST', 'PUT'), async (body, method) => {
        const path = method === 'POST' ? '/profiles' : `/profiles/${user.userId}`;
        const response = await api.call(method, path, {
          body: JSON.stringify(body ?? null) ?? 'null',
          token: user.token,
        });
        expect(response.status, JSON.stringify(body)?.slice(0, 200)).toBeLessThan(500);
      }),
      { numRuns: 120 },
    );
  });
});

const healthOf = (body: Record<string, unknown>) => (body.profile as { health?: unknown }).health;

describe('who sees health data (issue #20, docs/decisions/0030)', () => {
  let app: TestApp;
  let api: DiscoveryApi;

  beforeAll(async () => {
    app = await startTestApp({});
    api = createDiscoveryApi(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps injuries and diet for the owner and their matches; height and weight only when entered', async () => {
    const owner = await api.userWithProfile(
      { health: { injuries: ['Lesión de rodilla'], dietaryPreferences: ['Vegano'], height: 168 } },
      'Lucía',
    );
    const stranger = await api.userWithProfile({}, 'Marcos');
    const partner = await api.userWithProfile({}, 'Irene');

    const own = await api.get(`/profiles/${owner.userId}`, owner.token);
    expect(healthOf(own.body)).toEqual({
      injuries: ['Lesión de rodilla'],
      dietaryPreferences: ['Vegano'],
      height: 168,
      weight: null,
    });

    // Not matched: the deck and a profile read show the height only.
    const seen = await api.get(`/profiles/${owner.userId}`, stranger.token);
    expect(healthOf(seen.body)).toEqual({ height: 168, weight: null });
    const deck = await api.get(`/profiles/${stranger.userId}/recommended`, stranger.token);
    const card = (deck.body.profiles as Array<{ userId: string; health: unknown }>).find(
      (profile) => profile.userId === owner.userId,
    );
    expect(card?.health ?? null).not.toHaveProperty('injuries');
    expect(JSON.stringify(deck.body)).not.toContain('Lesión de rodilla');

    // Matched: the full health block.
    for (const [from, to] of [
      [owner, partner],
      [partner, owner],
    ] as const) {
      const swiped = await api.post(
        `/swipes/users/${from.userId}/swipe`,
        { target_user_id: to.userId, action: 'like' },
        from.token,
      );
      expect(swiped.status).toBe(200);
    }
    const matched = await api.get(`/profiles/${owner.userId}`, partner.token);
    expect(healthOf(matched.body)).toMatchObject({ injuries: ['Lesión de rodilla'], dietaryPreferences: ['Vegano'] });

    // Nothing entered: no health block at all for others.
    const plain = await api.get(`/profiles/${stranger.userId}`, owner.token);
    expect(healthOf(plain.body) ?? null).toBeNull();
  });
});
