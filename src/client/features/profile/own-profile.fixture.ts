/** A complete own profile for the profile feature's unit tests (not part of the app). */
import type { OwnProfile } from '#shared/profile/profile-views';

export function ownProfileFixture(overrides: Partial<OwnProfile> = {}): OwnProfile {
  return {
    id: 'p1',
    userId: 'u1',
    name: 'Lucía',
    lastName: 'García',
    birthDate: '1995-04-12',
    age: 31,
    gender: 'female',
    bio: 'Entreno todas las mañanas.',
    photos: ['photos/u1/a.webp'],
    location: { latitude: 40.42, longitude: -3.7, city: 'Madrid' },
    verified: false,
    active: true,
    gym: { name: 'Basic-Fit Centro', membershipType: 'free', trainingSchedule: ['Mañana'] },
    training: {
      sports: ['Musculación'],
      goals: ['Ganar músculo'],
      experienceLevel: 'advanced',
      frequency: 4,
      motivation: [],
      specialties: [],
      commitment_level: 'strict',
      supplements: [],
      socialPreference: 'both',
      availability: ['Lunes mañana'],
    },
    health: null,
    preferences: { gender_preference: 'both', age_range: { min: 18, max: 99 }, distance: 50 },
    social: { instagram: 'lucia.fit', strava: '123456' },
    ...overrides,
  };
}
