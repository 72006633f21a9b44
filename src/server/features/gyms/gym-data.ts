// Long on purpose: data: the seeded gym chains, their cities and streets.
/**
 * The gyms the search starts with: real Spanish chains in the cities where they operate.
 *
 * Chains, cities, neighbourhoods and streets are real (each street runs through its neighbourhood
 * in Madrid and Barcelona; elsewhere it is a main street of the city); the street number is
 * made up, so an address is plausible, not verified, and its coordinates are the city centre plus
 * a small deterministic offset (within ~4 km). Good enough to suggest names while typing and to
 * rank nearby clubs first; not a directory. Generated deterministically, so re-seeding inserts
 * the same rows (and the unique key makes it idempotent).
 */

export type GymSeed = {
  name: string;
  chain: string;
  address: string;
  city: string;
  latitude: number;
  longitude: number;
};

type City = {
  name: string;
  latitude: number;
  longitude: number;
  districts: readonly string[];
  streets: readonly string[];
  /** Chains with clubs in the city, and how many we list. */
  chains: Readonly<Record<string, number>>;
};

const CITIES: readonly City[] = [
  {
    name: 'Madrid',
    latitude: 40.4168,
    longitude: -3.7038,
    districts: [
      'Chamberí',
      'Salamanca',
      'Retiro',
      'Chamartín',
      'Tetuán',
      'Moncloa',
      'Arganzuela',
      'Carabanchel',
      'Usera',
      'Vallecas',
      'Ciudad Lineal',
      'Hortaleza',
      'Fuencarral',
      'Latina',
      'Moratalaz',
      'Centro',
      'Las Tablas',
      'Sanchinarro',
      'Méndez Álvaro',
      'Argüelles',
    ],
    streets: [
      'Calle de Santa Engracia',
      'Calle de Goya',
      'Avenida de Menéndez Pelayo',
      'Calle de López de Hoyos',
      'Calle de Bravo Murillo',
      'Calle de la Princesa',
      'Paseo de las Delicias',
      'Calle del General Ricardos',
      'Calle de Marcelo Usera',
      'Avenida de la Albufera',
      'Calle de Arturo Soria',
      'Avenida de Manoteras',
      'Avenida de Monforte de Lemos',
      'Paseo de Extremadura',
      'Calle del Arroyo de la Media Legua',
      'Calle de Atocha',
      'Calle de Palas de Rey',
      'Calle de Oña',
      'Calle de Méndez Álvaro',
      'Calle de Alberto Aguilera',
    ],
    chains: {
      'Basic-Fit': 8,
      McFIT: 5,
      Altafit: 6,
      'Anytime Fitness': 5,
      VivaGym: 6,
      Synergym: 3,
      'Holmes Place': 3,
      Metropolitan: 3,
      'Go fit': 4,
      Forus: 3,
      'Sport Life': 2,
      Dreamfit: 3,
      'Duet Fit': 2,
      'Fitness Park': 2,
      'O2 Centro Wellness': 2,
      UFit: 2,
    },
  },
  {
    name: 'Barcelona',
    latitude: 41.3874,
    longitude: 2.1686,
    districts: [
      'Eixample',
      'Gràcia',
      'Sants',
      'Les Corts',
      'Sarrià',
      'Poblenou',
      'Sant Martí',
      'Horta',
      'Nou Barris',
      'Sant Andreu',
      'Ciutat Vella',
      'Poble-sec',
      'Diagonal Mar',
      'Sagrada Família',
    ],
    streets: [
      'Carrer d’Aragó',
      'Carrer Gran de Gràcia',
      'Carrer de Sants',
      'Travessera de les Corts',
      'Via Augusta',
      'Rambla del Poblenou',
      'Carrer de Pujades',
      'Passeig de Maragall',
      'Passeig de Fabra i Puig',
      'Carrer Gran de Sant Andreu',
      'Carrer de Pelai',
      'Avinguda del Paral·lel',
      'Avinguda Diagonal',
      'Carrer de Mallorca',
    ],
    chains: {
      DiR: 8,
      'Basic-Fit': 5,
      McFIT: 3,
      'Anytime Fitness': 4,
      VivaGym: 3,
      'Holmes Place': 2,
      Metropolitan: 3,
      'Fitness Park': 2,
      Accura: 2,
      Forus: 2,
    },
  },
  {
    name: 'Valencia',
    latitude: 39.4699,
    longitude: -0.3763,
    districts: [
      'Ruzafa',
      'Benimaclet',
      'Campanar',
      'El Carmen',
      'Patraix',
      'Malvarrosa',
      'Cabanyal',
      'Benicalap',
      'Ciutat Vella',
      'Quatre Carreres',
    ],
    streets: [
      'Calle de Colón',
      'Avenida del Puerto',
      'Calle de Cuba',
      'Avenida de Blasco Ibáñez',
      'Gran Vía Marqués del Turia',
      'Avenida de Aragón',
      'Calle de San Vicente Mártir',
      'Avenida de Pío XII',
      'Calle de Sueca',
      'Avenida del Cid',
    ],
    chains: {
      'Basic-Fit': 4,
      McFIT: 2,
      Altafit: 2,
      'Anytime Fitness': 3,
      VivaGym: 2,
      Synergym: 3,
      Forus: 2,
      'Duet Fit': 2,
    },
  },
  {
    name: 'Sevilla',
    latitude: 37.3891,
    longitude: -5.9845,
    districts: [
      'Triana',
      'Nervión',
      'Los Remedios',
      'Macarena',
      'Bellavista',
      'Sevilla Este',
      'Heliópolis',
      'Casco Antiguo',
      'San Bernardo',
    ],
    streets: [
      'Calle San Jacinto',
      'Avenida de Eduardo Dato',
      'Calle Asunción',
      'Avenida de la Constitución',
      'Calle Luis Montoto',
      'Avenida de Kansas City',
      'Calle Feria',
      'Avenida de la Palmera',
      'Calle Betis',
    ],
    chains: {
      'Basic-Fit': 3,
      McFIT: 2,
      Altafit: 3,
      'Anytime Fitness': 2,
      VivaGym: 2,
      Synergym: 3,
      Metropolitan: 1,
      'Go fit': 2,
    },
  },
  {
    name: 'Zaragoza',
    latitude: 41.6488,
    longitude: -0.8891,
    districts: ['Delicias', 'Actur', 'Universidad', 'Centro', 'San José', 'Las Fuentes', 'Valdespartera', 'Torrero'],
    streets: [
      'Paseo de la Independencia',
      'Avenida de Madrid',
      'Calle del Coso',
      'Avenida de Goya',
      'Paseo de Sagasta',
      'Avenida de Valencia',
      'Calle de Delicias',
      'Avenida de Cesáreo Alierta',
    ],
    chains: { 'Basic-Fit': 3, McFIT: 2, 'Anytime Fitness': 2, Supera: 3, Forus: 2, VivaGym: 1 },
  },
  {
    name: 'Málaga',
    latitude: 36.7213,
    longitude: -4.4214,
    districts: [
      'Centro',
      'Teatinos',
      'El Palo',
      'Huelin',
      'Carretera de Cádiz',
      'La Malagueta',
      'Ciudad Jardín',
      'Cruz de Humilladero',
    ],
    streets: [
      'Calle Larios',
      'Avenida de Andalucía',
      'Paseo Marítimo Antonio Banderas',
      'Calle Héroe de Sostoa',
      'Avenida de Plutarco',
      'Alameda Principal',
      'Calle Cuarteles',
      'Avenida de Juan XXIII',
    ],
    chains: { Synergym: 4, 'Basic-Fit': 3, McFIT: 2, Altafit: 2, 'Anytime Fitness': 2, Metropolitan: 1, VivaGym: 1 },
  },
  {
    name: 'Bilbao',
    latitude: 43.263,
    longitude: -2.935,
    districts: ['Abando', 'Indautxu', 'Deusto', 'Santutxu', 'Casco Viejo', 'Zorrotza', 'Rekalde', 'San Ignacio'],
    streets: [
      'Gran Vía de Don Diego López de Haro',
      'Calle de Licenciado Poza',
      'Alameda de Urquijo',
      'Calle de Iparraguirre',
      'Avenida de Lehendakari Aguirre',
      'Calle de Autonomía',
      'Calle de Zabalbide',
      'Calle de Rodríguez Arias',
    ],
    chains: { 'Basic-Fit': 2, McFIT: 2, VivaGym: 2, 'Anytime Fitness': 2, Forus: 2, Synergym: 1 },
  },
  {
    name: 'Alicante',
    latitude: 38.3452,
    longitude: -0.481,
    districts: ['Centro', 'San Blas', 'Playa de San Juan', 'Benalúa', 'Carolinas', 'Altozano', 'Garbinet'],
    streets: [
      'Avenida de Maisonnave',
      'Rambla de Méndez Núñez',
      'Avenida de Alfonso X el Sabio',
      'Calle de Pintor Baeza',
      'Avenida de Novelda',
      'Calle del Doctor Gadea',
      'Avenida de Denia',
    ],
    chains: { Synergym: 3, 'Basic-Fit': 2, McFIT: 1, 'Anytime Fitness': 2, Altafit: 1, VivaGym: 1 },
  },
  {
    name: 'Valladolid',
    latitude: 41.6523,
    longitude: -4.7245,
    districts: ['Centro', 'Parquesol', 'Delicias', 'La Rondilla', 'Arturo Eyries', 'Covaresa'],
    streets: [
      'Calle de Santiago',
      'Paseo de Zorrilla',
      'Calle de Labradores',
      'Avenida de Salamanca',
      'Calle de la Mantería',
      'Paseo del Cauce',
    ],
    chains: { 'Basic-Fit': 2, McFIT: 1, Supera: 2, 'Anytime Fitness': 1, VivaGym: 1, Altafit: 1 },
  },
  {
    name: 'Murcia',
    latitude: 37.9922,
    longitude: -1.1307,
    districts: ['Centro', 'El Carmen', 'Juan Carlos I', 'Vistalegre', 'La Flota', 'Santa María de Gracia'],
    streets: [
      'Gran Vía Escultor Salzillo',
      'Avenida de la Libertad',
      'Avenida Juan Carlos I',
      'Calle Trapería',
      'Ronda de Levante',
      'Avenida Primero de Mayo',
    ],
    chains: { Synergym: 3, 'Basic-Fit': 2, McFIT: 1, 'Anytime Fitness': 1, Altafit: 1 },
  },
  {
    name: 'Palma',
    latitude: 39.5696,
    longitude: 2.6502,
    districts: ['Centro', 'Santa Catalina', 'Son Armadans', 'Pere Garau', 'El Molinar', 'Son Espanyolet'],
    streets: [
      'Avinguda de Jaume III',
      'Passeig Mallorca',
      'Carrer de Blanquerna',
      'Avinguda d’Alexandre Rosselló',
      'Carrer d’Aragó',
      'Passeig Marítim',
    ],
    chains: { Synergym: 2, 'Basic-Fit': 2, McFIT: 1, Supera: 1, 'Anytime Fitness': 1, VivaGym: 1 },
  },
  {
    name: 'Granada',
    latitude: 37.1773,
    longitude: -3.5986,
    districts: ['Centro', 'Zaidín', 'Chana', 'Realejo', 'Ronda', 'Albaicín'],
    streets: [
      'Calle Recogidas',
      'Camino de Ronda',
      'Gran Vía de Colón',
      'Avenida de la Constitución',
      'Calle Arabial',
      'Calle Reyes Católicos',
    ],
    chains: { 'Basic-Fit': 1, Synergym: 2, 'Anytime Fitness': 1, Altafit: 1, VivaGym: 1 },
  },
  {
    name: 'Córdoba',
    latitude: 37.8882,
    longitude: -4.7794,
    districts: ['Centro', 'Ciudad Jardín', 'Poniente', 'Fuensanta', 'Santa Rosa'],
    streets: [
      'Avenida del Gran Capitán',
      'Ronda de los Tejares',
      'Avenida de la República Argentina',
      'Calle Cruz Conde',
      'Avenida de Barcelona',
    ],
    chains: { Synergym: 1, 'Basic-Fit': 1, Altafit: 1, 'Anytime Fitness': 1 },
  },
  {
    name: 'Vigo',
    latitude: 42.2406,
    longitude: -8.7207,
    districts: ['Centro', 'Bouzas', 'Teis', 'Coia', 'Travesía'],
    streets: ['Gran Vía', 'Calle del Príncipe', 'Avenida de Castelao', 'Calle de Urzaiz', 'Avenida de Europa'],
    chains: { 'Go fit': 1, 'Basic-Fit': 1, McFIT: 1, 'Anytime Fitness': 1 },
  },
  {
    name: 'San Sebastián',
    latitude: 43.3183,
    longitude: -1.9812,
    districts: ['Centro', 'Gros', 'Amara', 'Antiguo', 'Egia'],
    streets: ['Avenida de la Libertad', 'Calle de Easo', 'Paseo de Colón', 'Calle de San Martín', 'Avenida de Tolosa'],
    chains: { 'Anytime Fitness': 1, VivaGym: 1, Forus: 1 },
  },
  {
    name: 'Santander',
    latitude: 43.4623,
    longitude: -3.8099,
    districts: ['Centro', 'El Sardinero', 'Cuatro Caminos', 'Valdecilla'],
    streets: ['Paseo de Pereda', 'Calle de Burgos', 'Avenida de los Castros', 'Calle de Castilla'],
    chains: { 'Go fit': 1, 'Basic-Fit': 1, 'Anytime Fitness': 1 },
  },
  {
    name: 'Pamplona',
    latitude: 42.8125,
    longitude: -1.6458,
    districts: ['Ensanche', 'Iturrama', 'San Juan', 'Mendebaldea', 'Rochapea'],
    streets: ['Avenida de Carlos III', 'Avenida de Pío XII', 'Calle de Iturrama', 'Avenida de Bayona', 'Calle Mayor'],
    chains: { 'Anytime Fitness': 1, VivaGym: 1, Forus: 1 },
  },
  {
    name: 'A Coruña',
    latitude: 43.3623,
    longitude: -8.4115,
    districts: ['Centro', 'Los Castros', 'Matogrande', 'Los Mallos', 'Riazor'],
    streets: ['Avenida de la Marina', 'Calle Real', 'Avenida de Finisterre', 'Ronda de Outeiro', 'Calle de San Andrés'],
    chains: { 'Basic-Fit': 1, McFIT: 1, 'Anytime Fitness': 1, VivaGym: 1 },
  },
];

/** A small deterministic hash → [0, 1), so the generated list never changes between runs. */
function unit(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 16777619);
  }
  return (hash >>> 0) / 2 ** 32;
}

function pick<T>(items: readonly T[], seed: string): T {
  return items[Math.floor(unit(seed) * items.length)] as T;
}

function generate(): GymSeed[] {
  const seeds: GymSeed[] = [];
  for (const city of CITIES) {
    for (const [chain, count] of Object.entries(city.chains)) {
      const used = new Set<string>();
      for (let index = 0; index < count; index += 1) {
        // Each club of a chain in a city gets a different neighbourhood: "Altafit Chamberí".
        let district = pick(city.districts, `${city.name}|${chain}|${index}`);
        for (let step = 1; used.has(district) && step <= city.districts.length; step += 1) {
          district = city.districts[(city.districts.indexOf(district) + 1) % city.districts.length] as string;
        }
        used.add(district);
        const key = `${city.name}|${chain}|${district}`;
        // Streets are listed in the order of the neighbourhoods they run through.
        const street = city.streets[city.districts.indexOf(district) % city.streets.length] as string;
        const number = 1 + Math.floor(unit(`${key}|number`) * 180);
        const angle = unit(`${key}|angle`) * 2 * Math.PI;
        const radiusKm = 0.4 + unit(`${key}|radius`) * 3.6;
        const latitude = city.latitude + (radiusKm / 111.2) * Math.sin(angle);
        const longitude =
          city.longitude + (radiusKm / (111.2 * Math.cos((city.latitude * Math.PI) / 180))) * Math.cos(angle);
        seeds.push({
          name: `${chain} ${district === 'Centro' ? `${city.name} Centro` : district}`,
          chain,
          address: `${street}, ${number}`,
          city: city.name,
          latitude: Math.round(latitude * 1e5) / 1e5,
          longitude: Math.round(longitude * 1e5) / 1e5,
        });
      }
    }
  }
  return seeds;
}

export const GYM_SEEDS: readonly GymSeed[] = generate();

/** The city centres (for the demo data and tests). */
export const GYM_CITY_CENTRES: Readonly<Record<string, { latitude: number; longitude: number }>> = Object.fromEntries(
  CITIES.map((city) => [city.name, { latitude: city.latitude, longitude: city.longitude }]),
);
