import { count } from 'drizzle-orm';
import sharp from 'sharp';
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
import type { Database } from './client.ts';
import { profiles, users } from './schema/index.ts';

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

// ---------------------------------------------------------------------------------------------
// Names, places and words

const FEMALE_NAMES = [
  'Lucía',
  'María',
  'Paula',
  'Laura',
  'Marta',
  'Sara',
  'Carmen',
  'Ana',
  'Elena',
  'Irene',
  'Claudia',
  'Nerea',
  'Cristina',
  'Alba',
  'Sofía',
  'Julia',
  'Raquel',
  'Beatriz',
  'Patricia',
  'Andrea',
  'Natalia',
  'Rocío',
  'Silvia',
  'Noelia',
  'Inés',
  'Carla',
  'Lorena',
  'Miriam',
  'Ainhoa',
  'Leire',
  'Marina',
  'Eva',
  'Celia',
  'Aitana',
  'Rosa',
];
const MALE_NAMES = [
  'Alejandro',
  'Pablo',
  'Daniel',
  'Javier',
  'Sergio',
  'Carlos',
  'David',
  'Adrián',
  'Álvaro',
  'Diego',
  'Hugo',
  'Mario',
  'Jorge',
  'Iván',
  'Rubén',
  'Raúl',
  'Marcos',
  'Víctor',
  'Miguel',
  'Andrés',
  'Manuel',
  'Antonio',
  'Fernando',
  'Íker',
  'Gonzalo',
  'Rodrigo',
  'Óscar',
  'Héctor',
  'Asier',
  'Unai',
  'Jaime',
  'Nicolás',
  'Guillermo',
  'Samuel',
  'Lucas',
];
const NEUTRAL_NAMES = ['Alex', 'Noa', 'Ariel', 'Sasha', 'Cris', 'Dani', 'Eli', 'Nico', 'Robin', 'Alexis'];
const SURNAMES = [
  'García',
  'Fernández',
  'González',
  'Rodríguez',
  'López',
  'Martínez',
  'Sánchez',
  'Pérez',
  'Gómez',
  'Martín',
  'Jiménez',
  'Ruiz',
  'Hernández',
  'Díaz',
  'Moreno',
  'Muñoz',
  'Álvarez',
  'Romero',
  'Alonso',
  'Gutiérrez',
  'Navarro',
  'Torres',
  'Domínguez',
  'Vázquez',
  'Ramos',
  'Gil',
  'Ramírez',
  'Serrano',
  'Blanco',
  'Molina',
  'Morales',
  'Suárez',
  'Ortega',
  'Delgado',
  'Castro',
  'Ortiz',
  'Rubio',
  'Marín',
  'Sanz',
  'Iglesias',
  'Núñez',
  'Medina',
  'Garrido',
  'Cortés',
  'Castillo',
  'Santos',
  'Lozano',
  'Guerrero',
  'Cano',
  'Prieto',
  'Méndez',
  'Cruz',
  'Calvo',
  'Gallego',
  'Herrera',
  'Peña',
  'Vidal',
  'Cabrera',
  'Aguirre',
  'Etxeberria',
];

/** City, share of the demo users, and how far from the centre they may live (km). */
const DEMO_CITIES = [
  { city: 'Madrid', share: 0.6, spreadKm: 14 },
  { city: 'Barcelona', share: 0.13, spreadKm: 9 },
  { city: 'Valencia', share: 0.1, spreadKm: 7 },
  { city: 'Sevilla', share: 0.09, spreadKm: 7 },
  { city: 'Bilbao', share: 0.08, spreadKm: 6 },
] as const;

const SPORT_PHRASES: Record<string, string> = {
  Musculación: 'la musculación',
  CrossFit: 'el CrossFit',
  Calistenia: 'la calistenia',
  Yoga: 'el yoga',
  Cardio: 'el cardio',
  HIIT: 'los entrenamientos HIIT',
  Spinning: 'el spinning',
  Pilates: 'el pilates',
  Boxeo: 'el boxeo',
  Natación: 'la natación',
  Running: 'el running',
  Zumba: 'la zumba',
};

const GOAL_PHRASES: Record<string, string> = {
  'Ganar músculo': 'ganar algo de músculo sin perder agilidad',
  'Perder peso': 'perder los kilos que me sobran con constancia y sin dietas milagro',
  Tonificar: 'tonificar y sentirme más fuerte en el día a día',
  'Mejorar resistencia': 'mejorar mi resistencia',
  'Aumentar fuerza': 'subir mis marcas en sentadilla y peso muerto',
  Flexibilidad: 'ganar flexibilidad, que buena falta me hace',
  'Preparar competición': 'preparar mi próxima competición',
  'Salud general': 'cuidarme y llegar bien a los cincuenta',
  Rehabilitación: 'volver a entrenar a tope después de una lesión',
  'Rendimiento deportivo': 'rendir mejor en mi deporte',
};

const OPENERS = [
  (sport: string, years: number) => `Entreno ${sport} desde hace ${years} años y no pienso parar.`,
  (sport: string, years: number) =>
    `Me enganché a ${sport} hace ${years} años y desde entonces es mi rato favorito del día.`,
  (sport: string) => `Lo mío es ${sport}, aunque me apunto a casi todo.`,
  (sport: string) => `Si me buscas, seguramente esté dándolo todo con ${sport}.`,
  (sport: string, years: number) => `Llevo ${years} años con ${sport} y cada semana aprendo algo nuevo.`,
];

const CLOSERS = [
  'Busco a alguien constante para motivarnos mutuamente.',
  'Si te apetece compartir series y algún café después, escríbeme.',
  'Me vendría genial un compañero o compañera que no me deje saltarme el día de pierna.',
  'Entrenar con alguien hace que las horas pasen volando, ¿te animas?',
  'Prefiero entrenar acompañado: se rinde más y se sufre menos.',
  'Busco gente con buen rollo para entrenar y, de paso, descubrir rutas nuevas por la ciudad.',
  'Puntualidad, buena música y cero excusas: eso es lo que pido.',
  'Me encantaría encontrar a alguien con quien preparar un reto juntos.',
];

const PART_OF_DAY: Record<string, string> = { Mañana: 'por la mañana', Tarde: 'por la tarde', Noche: 'por la noche' };

function pickCity(roll: number): (typeof DEMO_CITIES)[number] {
  let rest = roll;
  for (const entry of DEMO_CITIES) {
    rest -= entry.share;
    if (rest < 0) return entry;
  }
  return DEMO_CITIES[0];
}

// ---------------------------------------------------------------------------------------------
// Pictures: a portrait per person (gradient, a stylised figure, the initials) and a shared set
// of training scenes for the extra photos. SVG rendered to WebP by sharp.

const PALETTES = [
  ['#f97316', '#7c3aed'],
  ['#0ea5e9', '#22c55e'],
  ['#ef4444', '#f59e0b'],
  ['#14b8a6', '#6366f1'],
  ['#ec4899', '#8b5cf6'],
  ['#84cc16', '#0891b2'],
  ['#f43f5e', '#fb923c'],
  ['#3b82f6', '#a855f7'],
] as const;
const SKIN = ['#f5d0b5', '#e8b48f', '#c98e64', '#a56b45', '#7a4a2c', '#fde3cf'];
const HAIR = ['#1f2937', '#4b2e1e', '#8b5a2b', '#d4a24c', '#111827', '#7c2d12'];
const SHIRTS = ['#111827', '#f8fafc', '#1e3a8a', '#065f46', '#9f1239', '#374151'];

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);

function portraitSvg(initials: string, random: () => number): string {
  const [from, to] = PALETTES[Math.floor(random() * PALETTES.length)] as readonly [string, string];
  const skin = SKIN[Math.floor(random() * SKIN.length)];
  const hair = HAIR[Math.floor(random() * HAIR.length)];
  const shirt = SHIRTS[Math.floor(random() * SHIRTS.length)];
  const isLongHair = random() < 0.5;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" viewBox="0 0 480 640">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="480" height="640" fill="url(#bg)"/>
  <circle cx="400" cy="90" r="150" fill="#ffffff" opacity="0.08"/>
  <circle cx="60" cy="560" r="120" fill="#ffffff" opacity="0.06"/>
  ${isLongHair ? `<path d="M150 250 Q150 120 240 118 Q330 120 330 250 L338 380 L142 380 Z" fill="${hair}"/>` : ''}
  <path d="M90 640 C90 450 390 450 390 640 Z" fill="${shirt}"/>
  <rect x="215" y="330" width="50" height="70" rx="18" fill="${skin}"/>
  <ellipse cx="240" cy="250" rx="82" ry="95" fill="${skin}"/>
  <path d="M158 235 Q160 150 240 148 Q322 150 322 235 Q300 190 240 188 Q180 190 158 235 Z" fill="${hair}"/>
  <!-- The dumbbell stays in the upper right: the card's name and bio overlay the bottom third. -->
  <rect x="352" y="170" width="110" height="22" rx="8" fill="#e5e7eb" opacity="0.9"/>
  <rect x="340" y="155" width="22" height="52" rx="6" fill="#9ca3af"/>
  <rect x="452" y="155" width="22" height="52" rx="6" fill="#9ca3af"/>
  <text x="240" y="600" font-family="DejaVu Sans, Liberation Sans, sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="#ffffff" opacity="0.92">${escapeXml(initials)}</text>
</svg>`;
}

function sceneSvg(index: number): string {
  const [from, to] = PALETTES[index % PALETTES.length] as readonly [string, string];
  const kind = index % 3;
  const shapes =
    kind === 0
      ? // a barbell
        '<rect x="90" y="300" width="300" height="16" rx="8" fill="#e5e7eb"/><rect x="70" y="240" width="36" height="136" rx="10" fill="#111827"/><rect x="374" y="240" width="36" height="136" rx="10" fill="#111827"/><rect x="40" y="262" width="28" height="92" rx="8" fill="#374151"/><rect x="412" y="262" width="28" height="92" rx="8" fill="#374151"/>'
      : kind === 1
        ? // a running track
          '<ellipse cx="240" cy="360" rx="200" ry="120" fill="none" stroke="#f8fafc" stroke-width="18" opacity="0.85"/><ellipse cx="240" cy="360" rx="160" ry="88" fill="none" stroke="#f8fafc" stroke-width="6" opacity="0.5"/><circle cx="360" cy="270" r="22" fill="#fde68a"/>'
        : // a kettlebell
          '<path d="M190 250 Q190 180 240 180 Q290 180 290 250" fill="none" stroke="#111827" stroke-width="26"/><circle cx="240" cy="340" r="105" fill="#111827"/><rect x="200" y="320" width="80" height="26" rx="6" fill="#f59e0b"/>';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="640" viewBox="0 0 480 640">
  <defs><linearGradient id="bg" x1="0" y1="1" x2="1" y2="0"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="480" height="640" fill="url(#bg)"/>
  <circle cx="${80 + ((index * 53) % 320)}" cy="${90 + ((index * 37) % 120)}" r="70" fill="#ffffff" opacity="0.1"/>
  ${shapes}
</svg>`;
}

type RenderedPhoto = { photo: Buffer; thumbnail: Buffer };

async function render(svg: string): Promise<RenderedPhoto> {
  const photo = await sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
  const thumbnail = await sharp(photo).resize(300, 400, { fit: 'inside' }).webp({ quality: 70 }).toBuffer();
  return { photo, thumbnail };
}

/** Runs the tasks with at most `size` at a time (sharp already uses several threads per image). */
async function inPool<T>(tasks: readonly (() => Promise<T>)[], size: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, tasks.length) }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await (tasks[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

// ---------------------------------------------------------------------------------------------

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

    const age = 19 + Math.floor(random() ** 1.4 * 38);
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
    const ageMin = Math.max(18, age - 6 - Math.floor(random() * 8));
    const ageMax = Math.min(99, age + 6 + Math.floor(random() * 12));
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
      portrait: portraitSvg(`${name[0]}${lastName[0]}`, random),
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
