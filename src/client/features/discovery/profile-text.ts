/** Spanish texts derived from a public profile for the card and the modal. */
import {
  COMMITMENT_LEVEL_OPTIONS,
  EXPERIENCE_LEVEL_OPTIONS,
  MEMBERSHIP_TYPE_OPTIONS,
  MOTIVATION_OPTIONS,
  optionLabel,
  SOCIAL_PREFERENCE_OPTIONS,
} from '#shared/profile/options';
import type { PublicProfile } from '#shared/profile/profile-views';

const DAY_MS = 86_400_000;

/** "Activo hoy", "Activo ayer", "Activo hace N días" or null when unknown or older than a month. */
export function lastActiveText(lastActive: string | null | undefined, now: Date = new Date()): string | null {
  if (!lastActive) return null;
  const time = Date.parse(lastActive);
  if (Number.isNaN(time)) return null;
  const days = Math.floor((now.getTime() - time) / DAY_MS);
  if (days <= 0) return 'Activo hoy';
  if (days === 1) return 'Activo ayer';
  if (days < 30) return `Activo hace ${days} días`;
  return null;
}

/** The card's activity line: when the person was last active and how often they train. */
export function activityLine(profile: PublicProfile, now: Date = new Date()): string {
  const parts: string[] = [];
  const active = lastActiveText(profile.stats?.last_active, now);
  if (active) parts.push(active);
  const frequency = profile.training?.frequency;
  if (frequency) parts.push(frequency === 1 ? 'Entrena 1 día por semana' : `Entrena ${frequency} días por semana`);
  if (parts.length === 0 && profile.training?.sports.length)
    parts.push(profile.training.sports.slice(0, 3).join(' · '));
  return parts.join(' · ');
}

export const labels = {
  experience: (value: string | null | undefined) => (value ? optionLabel(EXPERIENCE_LEVEL_OPTIONS, value) : null),
  commitment: (value: string | null | undefined) => (value ? optionLabel(COMMITMENT_LEVEL_OPTIONS, value) : null),
  social: (value: string | null | undefined) => (value ? optionLabel(SOCIAL_PREFERENCE_OPTIONS, value) : null),
  membership: (value: string | null | undefined) => (value ? optionLabel(MEMBERSHIP_TYPE_OPTIONS, value) : null),
  motivation: (values: readonly string[]) => values.map((value) => optionLabel(MOTIVATION_OPTIONS, value)),
};

export type SocialLink = { network: 'Instagram' | 'Spotify' | 'Strava'; handle: string; href: string };

export function socialLinks(social: PublicProfile['social']): SocialLink[] {
  if (!social) return [];
  const links: SocialLink[] = [];
  if (social.instagram)
    links.push({
      network: 'Instagram',
      handle: `@${social.instagram}`,
      href: `https://www.instagram.com/${encodeURIComponent(social.instagram)}`,
    });
  if (social.spotify)
    links.push({
      network: 'Spotify',
      handle: social.spotify,
      href: `https://open.spotify.com/user/${encodeURIComponent(social.spotify)}`,
    });
  if (social.strava)
    links.push({
      network: 'Strava',
      handle: social.strava,
      href: `https://www.strava.com/athletes/${encodeURIComponent(social.strava)}`,
    });
  return links;
}
