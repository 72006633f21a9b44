import { count } from 'drizzle-orm';
import { snapToGrid } from '#shared/discovery/distance';
import {
  AVAILABILITY_SLOTS,
  COMMITMENT_LEVELS,
  DIETARY_PREFERENCES,
  EXPERIENCE_LEVELS,
  GOALS,
  INJURIES,
  MEMBERSHIP_TYPES,
  MOTIVATIONS,
  SOCIAL_PREFERENCES,
  SPECIALTIES,
  SPORTS,
  SUPPLEMENTS,
  TRAINING_SCHEDULES,
} from '#shared/profile/options';
import { createPasswordHasher } from '../features/auth/password-hasher.ts';
import { GYM_CITY_CENTRES, GYM_SEEDS } from '../features/gyms/gym-data.ts';
import { newPhotoKey, type PhotoStore, thumbnailKey } from '../features/photos/photo-store.ts';
import { deckColumns, type ProfileContent } from '../features/profiles/profile-model.ts';
import type { Database } from '../db/client.ts';
import { profiles, users } from '../db/schema/index.ts';
import {
  FEMALE_NAMES,
  MALE_NAMES,
  NEUTRAL_NAMES,
  SURNAMES,
  SPORT_PHRASES,
  GOAL_PHRASES,
  OPENERS,
  CLOSERS,
  PART_OF_DAY,
  pickCity,
} from './seed-people.ts';
import { portraitSvg, sceneSvg, type RenderedPhoto, render, inPool } from './seed-pictures.ts';

/** The demo account's age: its deck (20–45) then spans the demo population. */
const DEMO_ACCOUNT_AGE = 29;

/** Every demo account signs in with this password (README: "Demo users"). */
export const DEMO_PASSWORD = 'Pesas&Batidos24';
export const DEMO_EMAIL_DOMAIN = 'demo.entreno.app';
export const DEFAULT_DEMO_COUNT = 300;
const DEFAULT_SEED = 20_260_310;

/** A small seeded generator (mulberry32): the same seed gives the same demo data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(users);
  return Number(row?.value ?? 0) === 0;
}

function asciiSlug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

export type SeedOptions = {
  photoStore: PhotoStore;
  /** How many demo users (default 300). */
  count?: number;
  /** The random source (default: seeded, so every run gives the same people). */
  rng?: () => number;
  /** "Today" for the ages (default: now). */
  now?: Date;
};

/**
 * Demo data for a live first run: `count` users with complete profiles around Madrid (most) and
 * Barcelona, Valencia, Sevilla and Bilbao, each with 1-3 generated photos, all signing in with
 * DEMO_PASSWORD as <name>.<surname>.<n>@demo.entreno.app. Deterministic for a given rng.
 */
export async function seedDemoData(db: Database, options: SeedOptions): Promise<string> {
  const total = options.count ?? DEFAULT_DEMO_COUNT;
  const random = options.rng ?? seededRandom(DEFAULT_SEED);
  const now = options.now ?? new Date();
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const some = <T>(items: readonly T[], min: number, max: number): T[] => {
    const wanted = min + Math.floor(random() * (max - min + 1));
    const pool = [...items];
    const chosen: T[] = [];
    while (chosen.length < wanted && pool.length > 0)
      chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
    return items.filter((item) => chosen.includes(item));
  };

  const hasher = await createPasswordHasher();
  const passwordHash = await hasher.hash(DEMO_PASSWORD);
  const scenes = await inPool(
    Array.from({ length: 12 }, (_, index) => () => render(sceneSvg(index))),
    4,
  );

  type Person = {
    email: string;
    name: string;
    lastName: string;
    content: ProfileContent;
    extraScenes: number[];
    portrait: string;
  };
  const people: Person[] = [];
  const usedEmails = new Set<string>();
  for (let index = 0; index < total; index += 1) {
    const roll = random();
    const gender = roll < 0.46 ? 'female' : roll < 0.92 ? 'male' : 'non-binary';
    const name = gender === 'female' ? pick(FEMALE_NAMES) : gender === 'male' ? pick(MALE_NAMES) : pick(NEUTRAL_NAMES);
    const lastName = pick(SURNAMES);
    // The first one has an address people can guess (README: "Demo users").
    let email =
      index === 0 ? `demo@${DEMO_EMAIL_DOMAIN}` : `${asciiSlug(name)}.${asciiSlug(lastName)}@${DEMO_EMAIL_DOMAIN}`;
    for (let n = 2; usedEmails.has(email); n += 1)
      email = `${asciiSlug(name)}.${asciiSlug(lastName)}${n}@${DEMO_EMAIL_DOMAIN}`;
    usedEmails.add(email);

    const place = pickCity(random());
    const centre = GYM_CITY_CENTRES[place.city] ?? { latitude: 40.4168, longitude: -3.7038 };
    const angle = random() * 2 * Math.PI;
    const radiusKm = Math.sqrt(random()) * place.spreadKm;
    const position = snapToGrid(
      centre.latitude + (radiusKm / 111.2) * Math.sin(angle),
      centre.longitude + (radiusKm / (111.2 * Math.cos((centre.latitude * Math.PI) / 180))) * Math.cos(angle),
    );

    // Ages spread evenly over 20–45 (issue #34: the old curve and the demo account's own age put
    // most of its deck and every match at 20); the demo account itself is 29.
    const ageRoll = random();
    const age = index === 0 ? DEMO_ACCOUNT_AGE : 20 + Math.floor(ageRoll * 26);
    const birthYear = now.getUTCFullYear() - age - 1;
    const birthDate = `${birthYear}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`;

    const sports = some(SPORTS, 1, 3);
    const goals = some(GOALS, 1, 3);
    const trainingSchedule = some(TRAINING_SCHEDULES, 1, 2);
    const availability = some(AVAILABILITY_SLOTS, 2, 6);
    const cityGyms = GYM_SEEDS.filter((gym) => gym.city === place.city);
    const gymName =
      random() < 0.9 && cityGyms.length > 0
        ? pick(cityGyms).name
        : `Polideportivo ${pick(['Municipal', 'del Barrio', 'Central'])}`;
    const years = 1 + Math.floor(random() * 12);
    const mainSport = SPORT_PHRASES[sports[0] as string] ?? 'el deporte';
    const goal = GOAL_PHRASES[goals[0] as string] ?? 'mejorar cada semana';
    const when = trainingSchedule.map((slot) => PART_OF_DAY[slot]).join(' o ');
    const bio = [
      pick(OPENERS)(mainSport, years),
      `Ahora mismo quiero ${goal}.`,
      `Suelo entrenar ${when}.`,
      pick(CLOSERS),
    ].join(' ');

    const genderPreference =
      random() < 0.7 ? 'both' : gender === 'non-binary' ? 'both' : pick(['male', 'female'] as const);
    const [minRoll, maxRoll] = [random(), random()];
    const ageMin = index === 0 ? 20 : Math.max(18, age - 6 - Math.floor(minRoll * 8));
    const ageMax = index === 0 ? 45 : Math.min(99, age + 6 + Math.floor(maxRoll * 12));
    const content: ProfileContent = {
      name,
      lastName,
      birthDate,
      gender,
      bio,
      photos: [],
      latitude: position.latitude,
      longitude: position.longitude,
      city: place.city,
      gym: { name: gymName, membershipType: pick(MEMBERSHIP_TYPES), trainingSchedule },
      training: {
        sports,
        goals,
        experienceLevel: pick(EXPERIENCE_LEVELS),
        frequency: 2 + Math.floor(random() * 5),
        motivation: some(MOTIVATIONS, 1, 2),
        specialties: random() < 0.15 ? some(SPECIALTIES, 1, 1) : [],
        commitment_level: pick(COMMITMENT_LEVELS),
        supplements: some(SUPPLEMENTS, 0, 2),
        socialPreference: pick(SOCIAL_PREFERENCES),
        availability,
      },
      health:
        random() < 0.6
          ? {
              injuries: random() < 0.2 ? some(INJURIES, 1, 1) : [],
              height: gender === 'male' ? 168 + Math.floor(random() * 24) : 155 + Math.floor(random() * 22),
              weight: gender === 'male' ? 64 + Math.floor(random() * 30) : 50 + Math.floor(random() * 25),
              dietaryPreferences: some(DIETARY_PREFERENCES, 0, 1),
            }
          : null,
      preferences: {
        gender_preference: genderPreference,
        age_range: { min: ageMin, max: ageMax },
        distance: pick([10, 15, 25, 25, 50, 50, 50, 100]),
      },
      social: random() < 0.35 ? { instagram: `${asciiSlug(name)}_${asciiSlug(lastName)}_fit` } : null,
    };
    const extra = Math.floor(random() * 3);
    const extraScenes = Array.from({ length: extra }, () => Math.floor(random() * scenes.length));
    people.push({
      email,
      name,
      lastName,
      content,
      extraScenes,
      portrait: portraitSvg(`${name[0]}${lastName[0]}`, gender, random),
    });
  }

  const createdUsers = await db
    .insert(users)
    .values(
      people.map((person) => ({
        email: person.email,
        name: person.name,
        lastName: person.lastName,
        passwordHash,
        completeProfile: true,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  const idByEmail = new Map(createdUsers.map((user) => [user.email, user.id]));
  const seeded = people.filter((person) => idByEmail.has(person.email));

  const portraits = await inPool(
    seeded.map((person) => () => render(person.portrait)),
    8,
  );
  const rows = await inPool(
    seeded.map((person, index) => async () => {
      const userId = idByEmail.get(person.email) as string;
      const photoSet = [
        portraits[index] as RenderedPhoto,
        ...person.extraScenes.map((scene) => scenes[scene] as RenderedPhoto),
      ];
      const keys = photoSet.map(() => newPhotoKey(userId));
      await Promise.all(
        photoSet.flatMap((photo, photoIndex) => {
          const key = keys[photoIndex] as string;
          return [options.photoStore.put(key, photo.photo), options.photoStore.put(thumbnailKey(key), photo.thumbnail)];
        }),
      );
      const content = { ...person.content, photos: keys };
      return { userId, ...content, ...deckColumns(content), lastActiveAt: now, createdAt: now, updatedAt: now };
    }),
    16,
  );
  for (let start = 0; start < rows.length; start += 200) {
    await db
      .insert(profiles)
      .values(rows.slice(start, start + 200))
      .onConflictDoNothing();
  }
  return `Demo data: ${rows.length} users with profiles and photos (password ${DEMO_PASSWORD}, e-mails @${DEMO_EMAIL_DOMAIN}).`;
}
