/** The three sample profiles of the login demo (spec 000 §2). Fictional people, no real photos. */
export type DemoProfile = {
  readonly name: string;
  readonly age: number;
  readonly distanceKm: number;
  /** The 'Entreno' compatibility percentage. */
  readonly compatibility: number;
  readonly activity: string;
  readonly bio: string;
  /** UnoCSS gradient stops for the illustrated photo. */
  readonly gradient: string;
  readonly glow: string;
  readonly motif: 'dumbbell' | 'run' | 'flame';
};

export const DEMO_PROFILES: readonly DemoProfile[] = [
  {
    name: 'Lucía',
    age: 27,
    distanceKm: 2,
    compatibility: 94,
    activity: 'Powerlifting',
    bio: 'Busco compañera para sentadilla y peso muerto. Martes y jueves a las 19:00.',
    gradient: 'from-amber-300 via-orange-500 to-rose-600',
    glow: 'bg-amber-200/60',
    motif: 'dumbbell',
  },
  {
    name: 'Marcos',
    age: 31,
    distanceKm: 5,
    compatibility: 88,
    activity: 'Running',
    bio: 'Preparando la media maratón. ¿Rodamos juntos por el Retiro los domingos?',
    gradient: 'from-sky-300 via-blue-500 to-indigo-700',
    glow: 'bg-sky-100/60',
    motif: 'run',
  },
  {
    name: 'Sara',
    age: 24,
    distanceKm: 3,
    compatibility: 81,
    activity: 'CrossFit',
    bio: 'Entreno a primera hora, antes del trabajo. Me vendría genial alguien con quien motivarme.',
    gradient: 'from-lime-300 via-emerald-500 to-teal-700',
    glow: 'bg-lime-100/60',
    motif: 'flame',
  },
];
