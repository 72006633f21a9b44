// Long on purpose: every rule of spec 001 §5, field by field, with its property tests.
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { PROFILE_MESSAGES } from './profile-messages.ts';
import {
  LocationUpdateRequestSchema,
  profileCreateRequestSchema,
  profileUpdateRequestSchema,
} from './profile-schema.ts';
import { OwnProfileSchema, PublicProfileSchema } from './profile-views.ts';
import {
  fieldErrors,
  photoFileError,
  validateAdditionalStep,
  validateGymStep,
  validatePersonalStep,
  validateTrainingStep,
  validateWizardStep,
} from './profile-wizard.ts';

// 15 June 2025, noon in Madrid.
const NOW = new Date('2025-06-15T10:00:00Z');
const createSchema = profileCreateRequestSchema(() => NOW);
const updateSchema = profileUpdateRequestSchema(() => NOW);

function validBody(): Record<string, unknown> {
  return {
    userId: '0b6c1e0e-9f3a-4d43-9c47-5a6f2f0f6a11',
    name: 'María José',
    lastName: 'Núñez',
    birthDate: '1995-03-20',
    bio: 'Me encanta entrenar por las mañanas.',
    gender: 'female',
    location: { latitude: 40.4168, longitude: -3.7038, city: 'Madrid' },
    gym: { name: 'Altafit Chamberí', trainingSchedule: ['Mañana'] },
    training: { sports: ['CrossFit'], goals: ['Ganar músculo'], availability: ['Lunes mañana'] },
  };
}

function withField(path: string, value: unknown): Record<string, unknown> {
  const body = JSON.parse(JSON.stringify(validBody())) as Record<string, unknown>;
  const keys = path.split('.');
  let target: Record<string, unknown> = body;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return body;
}

/** The first message the server would answer with (it parses with abortEarly). */
function firstMessage(schema: v.GenericSchema, input: unknown): string | null {
  const result = v.safeParse(schema, input, { abortEarly: true });
  return result.success ? null : (result.issues[0]?.message ?? null);
}

function createMessage(path: string, value: unknown): string | null {
  return firstMessage(createSchema, withField(path, value));
}

const SPANISH_MESSAGES = new Set<string>(Object.values(PROFILE_MESSAGES));

describe('profile create request (POST /api/profiles)', () => {
  it('accepts a complete profile and fills in the spec defaults', () => {
    const result = v.parse(createSchema, validBody());
    expect(result.gym.membershipType).toBe('free');
    expect(result.training.frequency).toBe(3);
    expect(result.training.motivation).toEqual([]);
    expect(result.preferences).toEqual({ gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 });
    expect(result.photos).toEqual([]);
    expect(result.health).toBeUndefined();
    // Body data is never made up (issue #20): absent height and weight are none, not 170 / 70.
    expect(v.parse(createSchema, withField('health', {})).health).toEqual({
      injuries: [],
      height: null,
      weight: null,
      dietaryPreferences: [],
    });
  });

  it("leaves an absent gender unset instead of the spec's default 'male', and takes no age (decision 0047)", () => {
    // Spec 001 §3: "age (number, default 18), gender (…; default male)". Deliberately not followed:
    // a missing gender stays unknown, and the age is always computed from the required birth date.
    const body = validBody();
    delete body.gender;
    const parsed = v.parse(createSchema, body);
    expect(parsed.gender).toBeUndefined();
    expect(v.parse(createSchema, withField('gender', null)).gender).toBeNull();
    expect('age' in parsed).toBe(false);
    // An age sent by a client is refused, never stored (a default of 18 would be a made-up age).
    expect(createMessage('age', 18)).not.toBeNull();
  });

  it('requires the userId', () => {
    expect(createMessage('userId', undefined)).toBe('UserId es requerido');
    expect(createMessage('userId', '   ')).toBe('UserId es requerido');
    expect(createMessage('userId', 42)).toBe('UserId es requerido');
    expect(createMessage('userId', 'a/b')).toBe(PROFILE_MESSAGES.userIdInvalid);
  });

  describe('birth date and age', () => {
    it('requires it', () => {
      expect(createMessage('birthDate', undefined)).toBe('La fecha de nacimiento es obligatoria');
      expect(createMessage('birthDate', '')).toBe('La fecha de nacimiento es obligatoria');
      expect(createMessage('birthDate', null)).toBe('La fecha de nacimiento es obligatoria');
    });

    it('accepts 18 today and refuses 18 tomorrow', () => {
      expect(createMessage('birthDate', '2007-06-15')).toBeNull();
      expect(createMessage('birthDate', '2007-06-16')).toBe('Debes tener al menos 18 años para crear un perfil');
      expect(createMessage('birthDate', '2030-01-01')).toBe('Debes tener al menos 18 años para crear un perfil');
    });

    it('counts the age on the Madrid calendar day', () => {
      const justAfterMidnightInMadrid = profileCreateRequestSchema(() => new Date('2025-06-14T22:30:00Z'));
      expect(firstMessage(justAfterMidnightInMadrid, withField('birthDate', '2007-06-15'))).toBeNull();
      const justBeforeMidnightInMadrid = profileCreateRequestSchema(() => new Date('2025-06-14T21:30:00Z'));
      expect(firstMessage(justBeforeMidnightInMadrid, withField('birthDate', '2007-06-15'))).toBe(
        PROFILE_MESSAGES.minAge,
      );
    });

    it('refuses dates before 1900-01-01 and dates that do not exist', () => {
      expect(createMessage('birthDate', '1900-01-01')).toBeNull();
      expect(createMessage('birthDate', '1899-12-31')).toBe(PROFILE_MESSAGES.birthDateTooEarly);
      expect(createMessage('birthDate', '2001-02-30')).toBe(PROFILE_MESSAGES.birthDateInvalid);
      expect(createMessage('birthDate', '20/03/1995')).toBe(PROFILE_MESSAGES.birthDateInvalid);
      expect(createMessage('birthDate', '1995-03-20T00:00:00Z')).toBe(PROFILE_MESSAGES.birthDateInvalid);
    });
  });

  describe('name and last name', () => {
    const nameMessage = 'El nombre debe contener solo letras y espacios (1-20 caracteres)';
    const lastNameMessage = 'El apellido debe contener solo letras y espacios (1-30 caracteres)';

    it('accepts letters of any accent, ñ and spaces, 1-20 characters', () => {
      for (const name of ['Ana', 'José Ñandú', 'Zoë', 'Ángel', 'A', 'a'.repeat(20)]) {
        expect(createMessage('name', name)).toBeNull();
      }
    });

    it('refuses digits, symbols, empty names and names over 20 characters', () => {
      for (const name of ['', '   ', 'Ana2', 'Ana-María', "D'Ángelo", 'Ana_', 'a'.repeat(21), 'Ana\tMaría', 42, null]) {
        expect(createMessage('name', name)).toBe(nameMessage);
      }
      expect(createMessage('name', undefined)).toBe(nameMessage);
    });

    it('trims, collapses spaces and composes accents before counting', () => {
      const output = v.parse(createSchema, withField('name', '  Ana    María  '));
      expect(output.name).toBe('Ana María');
      // "Jose" + combining acute accent is 5 code units but 4 letters once composed.
      expect(v.parse(createSchema, withField('name', 'Jose\u0301')).name).toBe('José');
    });

    it('makes the last name optional: absent, empty or null means none', () => {
      expect(v.parse(createSchema, withField('lastName', undefined)).lastName).toBeUndefined();
      expect(v.parse(createSchema, withField('lastName', '')).lastName).toBeNull();
      expect(v.parse(createSchema, withField('lastName', null)).lastName).toBeNull();
      expect(v.parse(createSchema, withField('lastName', 'García Márquez')).lastName).toBe('García Márquez');
    });

    it('refuses last names that are not letters and spaces of 1-30 characters', () => {
      expect(createMessage('lastName', 'a'.repeat(30))).toBeNull();
      expect(createMessage('lastName', 'a'.repeat(31))).toBe(lastNameMessage);
      expect(createMessage('lastName', "O'Connor")).toBe(lastNameMessage);
    });
  });

  it('keeps the bio between 10 and 500 characters after trimming', () => {
    const message = 'La bio debe tener entre 10 y 500 caracteres';
    expect(createMessage('bio', 'a'.repeat(10))).toBeNull();
    expect(createMessage('bio', 'a'.repeat(500))).toBeNull();
    expect(createMessage('bio', `Dos líneas\nde bio.`)).toBeNull();
    expect(createMessage('bio', '😀'.repeat(500))).toBeNull();
    expect(createMessage('bio', 'a'.repeat(9))).toBe(message);
    expect(createMessage('bio', `   ${'a'.repeat(9)}   `)).toBe(message);
    expect(createMessage('bio', 'a'.repeat(501))).toBe(message);
    expect(createMessage('bio', 'Hola\u0000 mundo, qué tal')).toBe(message);
    expect(createMessage('bio', 'x'.repeat(1_000_000))).toBe(message);
  });

  it('accepts an optional gender from the list', () => {
    expect(createMessage('gender', undefined)).toBeNull();
    expect(createMessage('gender', null)).toBeNull();
    expect(createMessage('gender', 'non-binary')).toBeNull();
    expect(createMessage('gender', 'otro')).toBe(PROFILE_MESSAGES.gender);
  });

  describe('gym', () => {
    it('keeps the gym name between 3 and 50 characters', () => {
      const message = 'El nombre del gimnasio debe tener entre 3 y 50 caracteres';
      expect(createMessage('gym.name', 'Abc')).toBeNull();
      expect(createMessage('gym.name', 'a'.repeat(50))).toBeNull();
      expect(createMessage('gym.name', 'Ab')).toBe(message);
      expect(createMessage('gym.name', 'a'.repeat(51))).toBe(message);
      expect(createMessage('gym.name', 'Gym\nNorte')).toBe(message);
      expect(createMessage('gym', undefined)).toBe(message);
    });

    it('needs at least one known training schedule', () => {
      expect(createMessage('gym.trainingSchedule', [])).toBe('Selecciona al menos un horario de entrenamiento');
      expect(createMessage('gym.trainingSchedule', undefined)).toBe('Selecciona al menos un horario de entrenamiento');
      expect(createMessage('gym.trainingSchedule', ['Madrugada'])).toBe(PROFILE_MESSAGES.trainingScheduleInvalid);
    });

    it('accepts a membership type from the list only', () => {
      expect(v.parse(createSchema, withField('gym.membershipType', 'annual')).gym.membershipType).toBe('annual');
      expect(createMessage('gym.membershipType', 'vip')).toBe(PROFILE_MESSAGES.membershipType);
    });
  });

  describe('training', () => {
    it('needs at least one sport, one goal and one availability slot', () => {
      expect(createMessage('training.sports', [])).toBe('Selecciona al menos un deporte');
      expect(createMessage('training.goals', [])).toBe('Selecciona al menos un objetivo');
      expect(createMessage('training.availability', [])).toBe('Selecciona al menos un horario de disponibilidad');
      expect(createMessage('training', undefined)).toBe('Selecciona al menos un deporte');
    });

    it('refuses values that are not in the option lists', () => {
      expect(createMessage('training.sports', ['Curling'])).toBe('Deporte no válido');
      expect(createMessage('training.goals', ['Ser famoso'])).toBe('Objetivo no válido');
      expect(createMessage('training.availability', ['Lunes noche'])).toBe('Horario de disponibilidad no válido');
      expect(createMessage('training.motivation', ['dinero'])).toBe('Motivación no válida');
      expect(createMessage('training.specialties', ['Astronauta'])).toBe('Especialidad no válida');
      expect(createMessage('training.supplements', ['Azúcar'])).toBe('Suplemento no válido');
      expect(createMessage('training.experienceLevel', 'pro')).toBe(PROFILE_MESSAGES.experienceLevel);
      expect(createMessage('training.commitment_level', 'total')).toBe(PROFILE_MESSAGES.commitmentLevel);
      expect(createMessage('training.socialPreference', 'party')).toBe(PROFILE_MESSAGES.socialPreference);
      expect(createMessage('training.sports', 'CrossFit')).toBe('Selecciona al menos un deporte');
    });

    it('drops duplicates and refuses absurdly long lists before reading them', () => {
      const output = v.parse(createSchema, withField('training.sports', ['Yoga', 'Yoga', 'Boxeo']));
      expect(output.training.sports).toEqual(['Yoga', 'Boxeo']);
      expect(createMessage('training.sports', Array(100_000).fill('Yoga'))).toBe('Deporte no válido');
    });

    it('keeps the weekly frequency a whole number of days from 1 to 7', () => {
      expect(createMessage('training.frequency', 1)).toBeNull();
      expect(createMessage('training.frequency', 7)).toBeNull();
      for (const frequency of [0, 8, 3.5, '3', Number.NaN]) {
        expect(createMessage('training.frequency', frequency)).toBe(PROFILE_MESSAGES.frequency);
      }
    });
  });

  it('keeps height in 100-250 cm and weight in 30-250 kg', () => {
    expect(createMessage('health', { height: 100, weight: 30 })).toBeNull();
    expect(createMessage('health', { height: 250, weight: 250 })).toBeNull();
    expect(createMessage('health', { height: 99 })).toBe('La altura debe estar entre 100 y 250 cm');
    expect(createMessage('health', { height: 251 })).toBe('La altura debe estar entre 100 y 250 cm');
    expect(createMessage('health', { weight: 29.9 })).toBe('El peso debe estar entre 30 y 250 kg');
    expect(createMessage('health', { weight: Number.POSITIVE_INFINITY })).toBe('El peso debe estar entre 30 y 250 kg');
    expect(createMessage('health', { injuries: ['Lesión de rodilla', 'Torcedura de alma'] })).toBe(
      PROFILE_MESSAGES.injuryInvalid,
    );
    expect(createMessage('health', { dietaryPreferences: ['Carnívoro extremo'] })).toBe(
      PROFILE_MESSAGES.dietaryPreferenceInvalid,
    );
  });

  describe('preferences', () => {
    it('keeps the age range within 18-99 with min ≤ max', () => {
      expect(createMessage('preferences', { age_range: { min: 18, max: 99 } })).toBeNull();
      expect(createMessage('preferences', { age_range: { min: 30, max: 30 } })).toBeNull();
      expect(createMessage('preferences', { age_range: { min: 17, max: 40 } })).toBe(PROFILE_MESSAGES.ageRangeMin);
      expect(createMessage('preferences', { age_range: { min: 20, max: 100 } })).toBe(PROFILE_MESSAGES.ageRangeMax);
      expect(createMessage('preferences', { age_range: { min: 40, max: 30 } })).toBe(PROFILE_MESSAGES.ageRangeOrder);
      expect(createMessage('preferences', { age_range: { min: 20.5, max: 30 } })).toBe(PROFILE_MESSAGES.ageRangeMin);
    });

    it('fills a missing end of the age range with its default', () => {
      const output = v.parse(createSchema, withField('preferences', { age_range: { min: 30 } }));
      expect(output.preferences.age_range).toEqual({ min: 30, max: 99 });
    });

    it('needs a distance of at least 1 km', () => {
      expect(createMessage('preferences', { distance: 1 })).toBeNull();
      expect(createMessage('preferences', { distance: 0 })).toBe(PROFILE_MESSAGES.distanceMin);
      expect(createMessage('preferences', { distance: -5 })).toBe(PROFILE_MESSAGES.distanceMin);
      expect(createMessage('preferences', { distance: 1e9 })).toBe(PROFILE_MESSAGES.distanceMax);
    });

    it('accepts a gender preference from the list only', () => {
      expect(createMessage('preferences', { gender_preference: 'female' })).toBeNull();
      expect(createMessage('preferences', { gender_preference: 'non-binary' })).toBe(PROFILE_MESSAGES.genderPreference);
    });
  });

  describe('photos', () => {
    it('accepts up to 6 photo keys, and none before the upload', () => {
      expect(createMessage('photos', [])).toBeNull();
      expect(createMessage('photos', ['photos/u1/a.webp', 'b-2_c.jpg'])).toBeNull();
      expect(
        createMessage(
          'photos',
          Array.from({ length: 6 }, (_, i) => `p/${i}.webp`),
        ),
      ).toBeNull();
      expect(
        createMessage(
          'photos',
          Array.from({ length: 7 }, (_, i) => `p/${i}.webp`),
        ),
      ).toBe('Puedes subir un máximo de 6 fotos');
    });

    it('refuses addresses, paths that climb, scripts and markup', () => {
      const refused = [
        'https://tracker.example.com/pixel.jpg',
        '//tracker.example.com/a.jpg',
        '/etc/passwd',
        '../secrets',
        'photos/../../etc/passwd',
        'javascript:alert(1)',
        '"><script>',
        '',
        'a b',
      ];
      for (const photo of refused) {
        expect(createMessage('photos', [photo])).toBe(PROFILE_MESSAGES.photoInvalid);
      }
      expect(createMessage('photos', [`p/${'a'.repeat(600)}`])).toBe(PROFILE_MESSAGES.photoInvalid);
    });
  });

  describe('location', () => {
    it('is required to save the profile', () => {
      expect(createMessage('location', undefined)).toBe(PROFILE_MESSAGES.locationRequired);
      expect(createMessage('location', null)).toBe(PROFILE_MESSAGES.locationRequired);
    });

    it('keeps coordinates on the globe and the city short', () => {
      expect(createMessage('location', { latitude: 91, longitude: 0 })).toBe(PROFILE_MESSAGES.latitude);
      expect(createMessage('location', { latitude: 0, longitude: -181 })).toBe(PROFILE_MESSAGES.longitude);
      expect(createMessage('location', { latitude: '40', longitude: 0 })).toBe(PROFILE_MESSAGES.latitude);
      expect(createMessage('location', { longitude: 0 })).toBe(PROFILE_MESSAGES.latitude);
      expect(createMessage('location', { latitude: 0, longitude: 0, city: 'c'.repeat(101) })).toBe(
        PROFILE_MESSAGES.city,
      );
      expect(createMessage('location', { latitude: 0, longitude: 0, accuracy: 5 })).toBe(PROFILE_MESSAGES.unknownField);
    });
  });

  it('accepts social handles and clears empty ones', () => {
    const output = v.parse(createSchema, withField('social', { instagram: '@ana.fit', spotify: '', strava: '12345' }));
    expect(output.social).toEqual({ instagram: 'ana.fit', spotify: null, strava: '12345' });
    expect(createMessage('social', { instagram: 'ana fit' })).toBe(PROFILE_MESSAGES.instagram);
    expect(createMessage('social', { tiktok: 'ana' })).toBe(PROFILE_MESSAGES.unknownField);
  });

  it('reads a handle out of a pasted profile address', () => {
    const social = (value: Record<string, string>) => v.parse(createSchema, withField('social', value)).social;
    expect(
      social({
        instagram: 'https://www.instagram.com/ana.fit/?igsh=abc',
        spotify: 'https://open.spotify.com/intl-es/user/ana_runs?si=1f2e',
        strava: 'strava.com/athletes/987654',
      }),
    ).toEqual({ instagram: 'ana.fit', spotify: 'ana_runs', strava: '987654' });
    expect(social({ spotify: 'spotify:user:ana-runs' })).toEqual({ spotify: 'ana-runs' });
    // Another site's address is not a handle.
    expect(createMessage('social', { instagram: 'https://evil.example/ana' })).toBe(PROFILE_MESSAGES.instagram);
    expect(createMessage('social', { spotify: 'https://open.spotify.com/artist/x' })).toBe(PROFILE_MESSAGES.spotify);
  });

  it('states each network rule in the messages, as §5 does', () => {
    expect(PROFILE_MESSAGES.instagram).toBe(
      'El usuario de Instagram debe contener solo letras, números, puntos y guiones bajos (1-30 caracteres)',
    );
    expect(createMessage('social', { instagram: 'a'.repeat(31) })).toBe(PROFILE_MESSAGES.instagram);
    expect(createMessage('social', { instagram: 'a'.repeat(30) })).toBeNull();
    expect(createMessage('social', { spotify: 's'.repeat(31) })).toBe(PROFILE_MESSAGES.spotify);
    expect(createMessage('social', { strava: 'ana' })).toBe(PROFILE_MESSAGES.strava);
    expect(createMessage('social', { strava: '1'.repeat(13) })).toBe(PROFILE_MESSAGES.strava);
    expect(createMessage('social', { strava: 42 })).toBe(PROFILE_MESSAGES.strava);
    expect(createMessage('social', 'ana')).toBe(PROFILE_MESSAGES.social);
    expect(createMessage('social', null)).toBeNull();
  });

  describe('unknown and server-owned fields', () => {
    it('refuses fields it does not know, at any depth', () => {
      expect(createMessage('isAdmin', true)).toBe(PROFILE_MESSAGES.unknownField);
      expect(createMessage('training.isAdmin', true)).toBe(PROFILE_MESSAGES.unknownField);
      expect(createMessage('preferences', { age_range: { min: 20, max: 30, extra: 1 } })).toBe(
        PROFILE_MESSAGES.unknownField,
      );
    });

    it('refuses server-owned fields', () => {
      for (const field of ['id', 'age', 'verified', 'active', 'stats', 'compatibilityScore', 'distance']) {
        expect(createMessage(field, 1)).toBe(PROFILE_MESSAGES.unknownField);
      }
    });

    it('refuses __proto__ without polluting anything', () => {
      const body = JSON.parse(`{"__proto__": {"polluted": true}, ${JSON.stringify(validBody()).slice(1)}`);
      expect(Object.hasOwn(body, '__proto__')).toBe(true);
      expect(firstMessage(createSchema, body)).toBe(PROFILE_MESSAGES.unknownField);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const nested = withField(
        'gym',
        JSON.parse('{"name":"Altafit","trainingSchedule":["Tarde"],"__proto__":{"x":1}}'),
      );
      expect(firstMessage(createSchema, nested)).toBe(PROFILE_MESSAGES.unknownField);
    });

    it('answers anything that is not an object with a Spanish message', () => {
      for (const input of [null, undefined, 'perfil', 42, true]) {
        expect(firstMessage(createSchema, input)).toBe('Datos del perfil no válidos');
      }
    });
  });

  it('answers every kind of bad value in Spanish, from its own catalogue', () => {
    const paths = [
      'userId',
      'name',
      'lastName',
      'birthDate',
      'bio',
      'gender',
      'photos',
      'location',
      'location.latitude',
      'location.city',
      'gym',
      'gym.name',
      'gym.membershipType',
      'gym.trainingSchedule',
      'training',
      'training.sports',
      'training.frequency',
      'training.experienceLevel',
      'health',
      'health.height',
      'health.injuries',
      'preferences',
      'preferences.age_range',
      'preferences.age_range.min',
      'preferences.distance',
      'preferences.music',
      'social',
      'social.instagram',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.anything({ withNullPrototype: true }), (path, value) => {
        const result = v.safeParse(createSchema, withField(path, value));
        for (const issue of result.issues ?? []) expect(SPANISH_MESSAGES).toContain(issue.message);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('profile update request (PUT /api/profiles/{userId})', () => {
  const userId = '0b6c1e0e-9f3a-4d43-9c47-5a6f2f0f6a11';

  it('requires the userId', () => {
    expect(firstMessage(updateSchema, { bio: 'Nueva bio de prueba' })).toBe('UserId es requerido');
    expect(firstMessage(updateSchema, { userId: '' })).toBe('UserId es requerido');
  });

  it('takes only the changed fields and fills in nothing', () => {
    expect(v.parse(updateSchema, { userId })).toEqual({ userId });
    expect(v.parse(updateSchema, { userId, bio: '  Nueva bio de prueba ' })).toEqual({
      userId,
      bio: 'Nueva bio de prueba',
    });
    expect(v.parse(updateSchema, { userId, gym: { name: 'Nuevo Gym' } })).toEqual({
      userId,
      gym: { name: 'Nuevo Gym' },
    });
    expect(v.parse(updateSchema, { userId, training: { frequency: 5 } })).toEqual({
      userId,
      training: { frequency: 5 },
    });
  });

  it('applies the same rules to what it does change', () => {
    expect(firstMessage(updateSchema, { userId, training: { sports: [] } })).toBe('Selecciona al menos un deporte');
    expect(firstMessage(updateSchema, { userId, birthDate: '2010-01-01' })).toBe(PROFILE_MESSAGES.minAge);
    expect(firstMessage(updateSchema, { userId, photos: Array(7).fill('p/a.webp') })).toBe(PROFILE_MESSAGES.photosMax);
    expect(firstMessage(updateSchema, { userId, preferences: { age_range: { min: 50, max: 40 } } })).toBe(
      PROFILE_MESSAGES.ageRangeOrder,
    );
  });

  it('clears the last name and gender with null', () => {
    expect(v.parse(updateSchema, { userId, lastName: null, gender: null })).toEqual({
      userId,
      lastName: null,
      gender: null,
    });
  });

  it('clears text fields with "" too, and social links one by one or as a block (0014)', () => {
    expect(v.parse(updateSchema, { userId, lastName: '  ' })).toEqual({ userId, lastName: null });
    expect(v.parse(updateSchema, { userId, social: { instagram: '', strava: null } })).toEqual({
      userId,
      social: { instagram: null, strava: null },
    });
    expect(v.parse(updateSchema, { userId, social: null })).toEqual({ userId, social: null });
    expect(v.parse(updateSchema, { userId, training: { experienceLevel: null, commitment_level: null } })).toEqual({
      userId,
      training: { experienceLevel: null, commitment_level: null },
    });
  });

  it('refuses unknown and server-owned fields', () => {
    expect(firstMessage(updateSchema, { userId, verified: true })).toBe(PROFILE_MESSAGES.unknownField);
    expect(firstMessage(updateSchema, { userId, age: 30 })).toBe(PROFILE_MESSAGES.unknownField);
    expect(firstMessage(updateSchema, { userId, gym: { owner: 'x' } })).toBe(PROFILE_MESSAGES.unknownField);
  });
});

describe('location update request (PUT /api/profiles/{userId}/location)', () => {
  it('takes latitude, longitude and an optional city', () => {
    expect(v.parse(LocationUpdateRequestSchema, { location: { latitude: 40.42, longitude: -3.7 } })).toEqual({
      location: { latitude: 40.42, longitude: -3.7 },
    });
    expect(firstMessage(LocationUpdateRequestSchema, {})).toBe(PROFILE_MESSAGES.locationRequired);
    expect(firstMessage(LocationUpdateRequestSchema, { location: { latitude: -91, longitude: 0 } })).toBe(
      PROFILE_MESSAGES.latitude,
    );
    expect(firstMessage(LocationUpdateRequestSchema, { location: { latitude: 1, longitude: 0 }, x: 1 })).toBe(
      PROFILE_MESSAGES.unknownField,
    );
  });

  it('refuses 0, 0: what a failed reading sends (#19 §2)', () => {
    expect(firstMessage(LocationUpdateRequestSchema, { location: { latitude: 0, longitude: 0 } })).toBe(
      PROFILE_MESSAGES.locationNullIsland,
    );
    expect(v.parse(LocationUpdateRequestSchema, { location: { latitude: 0, longitude: 0.5 } }).location.latitude).toBe(
      0,
    );
  });
});

describe('profile responses', () => {
  const stored = {
    id: 'p1',
    userId: 'u1',
    name: 'Lucía',
    lastName: 'Gómez',
    birthDate: '1994-04-02',
    age: 31,
    gender: 'female',
    bio: 'Corredora de fondo y fan del CrossFit.',
    photos: ['photos/u1/a.webp'],
    location: { latitude: 40.4169, longitude: -3.7035, city: 'Madrid' },
    verified: true,
    active: true,
    phone: '+34600000000',
    email: 'lucia@example.com',
    gym: { name: 'Altafit', membershipType: 'monthly', trainingSchedule: ['Mañana', 'Amanecer'] },
    training: {
      sports: ['Running', 'CrossFit', 'Paracaidismo'],
      goals: ['Mejorar resistencia'],
      experienceLevel: 'advanced',
      frequency: 5,
      motivation: ['salud'],
      specialties: [],
      commitment_level: 'strict',
      supplements: [],
      socialPreference: 'both',
      availability: ['Lunes mañana'],
    },
    preferences: { gender_preference: 'both', age_range: { min: 25, max: 40 }, distance: 20 },
    stats: { matches_count: 3, streak: 4, last_active: '2025-06-15T08:00:00.000Z' },
    distanceText: 'A 3 km',
    distance: 3,
    compatibilityScore: 72,
    compatibilityReasons: ['Entrenáis en el mismo gimnasio'],
  };

  it('shows another user only their city, a distance text and the compatibility', () => {
    const view = v.parse(PublicProfileSchema, stored);
    expect(view.location).toEqual({ city: 'Madrid' });
    expect(view.distanceText).toBe('A 3 km');
    expect(view.distance).toBe(3);
    expect(view.compatibilityScore).toBe(72);
    const json = JSON.stringify(view);
    for (const secret of ['latitude', 'longitude', 'phone', 'email', 'birthDate', 'preferences', '+34600000000']) {
      expect(json).not.toContain(secret);
    }
  });

  it('drops option values this client does not know instead of failing', () => {
    const own = v.parse(OwnProfileSchema, stored);
    expect(own.training.sports).toEqual(['Running', 'CrossFit']);
    expect(own.gym.trainingSchedule).toEqual(['Mañana']);
    expect(own.location.latitude).toBe(40.4169);
    expect(JSON.stringify(own)).not.toContain('phone');
  });
});

describe('wizard steps', () => {
  it('step 1 reports each personal field by name', () => {
    expect(validatePersonalStep({}, NOW)).toEqual({
      name: PROFILE_MESSAGES.name,
      birthDate: 'La fecha de nacimiento es obligatoria',
      bio: PROFILE_MESSAGES.bio,
    });
    expect(validatePersonalStep({ name: 'Ana', birthDate: '2010-01-01', bio: 'corta', lastName: 'X1' }, NOW)).toEqual({
      lastName: PROFILE_MESSAGES.lastName,
      birthDate: PROFILE_MESSAGES.minAge,
      bio: PROFILE_MESSAGES.bio,
    });
    expect(validatePersonalStep(validBody(), NOW)).toEqual({});
  });

  it('step 2 checks the gym name and the schedules', () => {
    expect(validateGymStep({ gym: { name: 'Ab', trainingSchedule: [] } })).toEqual({
      'gym.name': PROFILE_MESSAGES.gymName,
      'gym.trainingSchedule': PROFILE_MESSAGES.trainingScheduleRequired,
    });
    expect(validateGymStep({ gym: { name: 'Altafit', trainingSchedule: ['Noche'] } })).toEqual({});
  });

  it('step 3 checks training and preferences', () => {
    expect(
      validateTrainingStep({
        training: { sports: [], goals: [], availability: [], frequency: 9 },
        preferences: { age_range: { min: 50, max: 20 }, distance: 0 },
      }),
    ).toEqual({
      'training.sports': PROFILE_MESSAGES.sportsRequired,
      'training.goals': PROFILE_MESSAGES.goalsRequired,
      'training.frequency': PROFILE_MESSAGES.frequency,
      'training.availability': PROFILE_MESSAGES.availabilityRequired,
      'preferences.age_range.min': PROFILE_MESSAGES.ageRangeOrder,
      'preferences.distance': PROFILE_MESSAGES.distanceMin,
    });
    expect(validateTrainingStep({ training: validBody().training })).toEqual({});
  });

  it('step 4 needs 1 to 6 picked photos and sane health data', () => {
    const file = { name: 'a.jpg' };
    expect(validateAdditionalStep({ photos: [] })).toEqual({ photos: 'Debes subir al menos una foto' });
    expect(validateAdditionalStep({})).toEqual({ photos: 'Debes subir al menos una foto' });
    expect(validateAdditionalStep({ photos: Array(7).fill(file) })).toEqual({
      photos: 'Puedes subir un máximo de 6 fotos',
    });
    expect(validateAdditionalStep({ photos: [file], health: { height: 90, weight: 300 } })).toEqual({
      'health.height': PROFILE_MESSAGES.height,
      'health.weight': PROFILE_MESSAGES.weight,
    });
    expect(validateAdditionalStep({ photos: [file], health: { height: 180, weight: 80 } })).toEqual({});
  });

  it('dispatches by step number', () => {
    expect(validateWizardStep(1, {}, NOW)).toHaveProperty('name');
    expect(validateWizardStep(2, {}, NOW)).toEqual({ gym: PROFILE_MESSAGES.gymName });
    expect(validateWizardStep(3, {}, NOW)).toEqual({ training: PROFILE_MESSAGES.sportsRequired });
    expect(validateWizardStep(4, {}, NOW)).toEqual({ photos: PROFILE_MESSAGES.photosRequired });
  });
});

describe('fieldErrors', () => {
  it('keeps the first message per field and treats "__proto__" as a plain key', () => {
    const result = v.safeParse(createSchema, JSON.parse('{"__proto__": 1}'));
    const errors = fieldErrors(result.issues ?? []);
    expect(Object.entries(errors)).toContainEqual(['__proto__', PROFILE_MESSAGES.unknownField]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(errors.userId).toBe(PROFILE_MESSAGES.userIdRequired);
  });
});

describe('photoFileError', () => {
  it('accepts JPG, PNG and WEBP up to 5 MB', () => {
    expect(photoFileError({ type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(photoFileError({ type: 'image/webp', size: 5 * 1024 * 1024 })).toBeNull();
    expect(photoFileError({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe(
      'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
    );
    expect(photoFileError({ type: 'image/gif', size: 1000 })).toBe(
      'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
    );
    expect(photoFileError({ type: 'image/jpeg', size: 0 })).toBe(PROFILE_MESSAGES.photoInvalid);
  });
});
