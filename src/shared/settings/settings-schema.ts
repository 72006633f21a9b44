import * as v from 'valibot';
import { DEFAULT_REMINDER_MINUTES, REMINDER_MINUTES_OPTIONS } from '../quedadas/quedada-schemas.ts';
import { SETTINGS_MESSAGES } from './settings-messages.ts';

/*
 * The Settings of spec 001 §3, kept on the server so they follow the user across devices
 * (docs/decisions/0008-settings.md). `GET /api/settings` answers the whole object; `PUT` takes any
 * part of it (per section, per field) and answers the whole result.
 */

export const SEARCH_MAX_DISTANCE_MIN = 1;
export const SEARCH_MAX_DISTANCE_MAX = 100;
/** Spec 001 §9: "settings slider 1-100 default 25". */
export const SEARCH_MAX_DISTANCE_DEFAULT = 25;

export const PREFERRED_GENDERS = ['all', 'male', 'female'] as const;
export const SEARCH_EXPERIENCE_LEVELS = ['all', 'beginner', 'intermediate', 'advanced'] as const;
/** flexible; morning 6-12; afternoon 12-18; evening 18-23 (spec 001 §3). */
export const PREFERRED_SCHEDULES = ['flexible', 'morning', 'afternoon', 'evening'] as const;
export const THEMES = ['light', 'system', 'dark'] as const;

/** The per-type switches of the notifications section; they decide what is pushed. */
export const NOTIFICATION_SWITCHES = [
  'matches',
  'messages',
  'superlikes',
  'trainingRequests',
  'trainingReminders',
  'achievements',
] as const;
export type NotificationSwitch = (typeof NOTIFICATION_SWITCHES)[number];

export const PRIVACY_SWITCHES = [
  'showProfile',
  'showAgeRange',
  'shareLocation',
  'showTrainingStats',
  'allowTrainingRequests',
] as const;
export type PrivacySwitch = (typeof PRIVACY_SWITCHES)[number];

export type Settings = {
  notifications: Record<NotificationSwitch, boolean>;
  privacy: Record<PrivacySwitch, boolean>;
  search: {
    maxDistance: number;
    preferredGender: (typeof PREFERRED_GENDERS)[number];
    experienceLevel: (typeof SEARCH_EXPERIENCE_LEVELS)[number];
    preferredSchedule: (typeof PREFERRED_SCHEDULES)[number];
  };
  twoFactor: boolean;
  cookies: { necessary: true; analytics: boolean; marketing: boolean; preferences: boolean };
  theme: (typeof THEMES)[number];
  /** Quedadas (issue #21): how long before a session the reminder goes out; the reliability line. */
  quedadas: { reminderMinutes: (typeof REMINDER_MINUTES_OPTIONS)[number]; showReliability: boolean };
};

/**
 * Defaults: the spec's where it gives them (notifications all on; distance 25; cookies necessary,
 * analytics and preferences on, marketing off); the rest are recorded in docs/decisions/0008.
 */
export const DEFAULT_SETTINGS: Settings = {
  notifications: {
    matches: true,
    messages: true,
    superlikes: true,
    trainingRequests: true,
    trainingReminders: true,
    achievements: true,
  },
  privacy: {
    showProfile: true,
    showAgeRange: true,
    shareLocation: true,
    showTrainingStats: true,
    allowTrainingRequests: true,
  },
  search: {
    maxDistance: SEARCH_MAX_DISTANCE_DEFAULT,
    preferredGender: 'all',
    experienceLevel: 'all',
    preferredSchedule: 'flexible',
  },
  twoFactor: false,
  cookies: { necessary: true, analytics: true, marketing: false, preferences: true },
  theme: 'system',
  quedadas: { reminderMinutes: DEFAULT_REMINDER_MINUTES, showReliability: true },
};

const Switch = v.optional(v.boolean(SETTINGS_MESSAGES.invalidSwitch));

const switches = <const TKeys extends readonly string[]>(keys: TKeys) =>
  v.strictObject(
    Object.fromEntries(keys.map((key) => [key, Switch])) as { [K in TKeys[number]]: typeof Switch },
    SETTINGS_MESSAGES.invalidSettings,
  );

/** `PUT /api/settings`: any subset; unknown sections or fields are a 400. */
export const SettingsPatchSchema = v.pipe(
  v.strictObject(
    {
      notifications: v.optional(switches(NOTIFICATION_SWITCHES)),
      privacy: v.optional(switches(PRIVACY_SWITCHES)),
      search: v.optional(
        v.strictObject(
          {
            maxDistance: v.optional(
              v.pipe(
                v.number(SETTINGS_MESSAGES.maxDistance),
                v.integer(SETTINGS_MESSAGES.maxDistance),
                v.minValue(SEARCH_MAX_DISTANCE_MIN, SETTINGS_MESSAGES.maxDistance),
                v.maxValue(SEARCH_MAX_DISTANCE_MAX, SETTINGS_MESSAGES.maxDistance),
              ),
            ),
            preferredGender: v.optional(v.picklist(PREFERRED_GENDERS, SETTINGS_MESSAGES.preferredGender)),
            experienceLevel: v.optional(v.picklist(SEARCH_EXPERIENCE_LEVELS, SETTINGS_MESSAGES.experienceLevel)),
            preferredSchedule: v.optional(v.picklist(PREFERRED_SCHEDULES, SETTINGS_MESSAGES.preferredSchedule)),
          },
          SETTINGS_MESSAGES.invalidSettings,
        ),
      ),
      twoFactor: Switch,
      cookies: v.optional(
        v.strictObject(
          {
            necessary: v.optional(v.literal(true, SETTINGS_MESSAGES.necessaryCookies)),
            analytics: Switch,
            marketing: Switch,
            preferences: Switch,
          },
          SETTINGS_MESSAGES.invalidSettings,
        ),
      ),
      theme: v.optional(v.picklist(THEMES, SETTINGS_MESSAGES.theme)),
      quedadas: v.optional(
        v.strictObject(
          {
            reminderMinutes: v.optional(v.picklist(REMINDER_MINUTES_OPTIONS, SETTINGS_MESSAGES.reminderMinutes)),
            showReliability: Switch,
          },
          SETTINGS_MESSAGES.invalidSettings,
        ),
      ),
    },
    SETTINGS_MESSAGES.invalidSettings,
  ),
  v.check((patch) => Object.values(patch).some((value) => value !== undefined), SETTINGS_MESSAGES.emptyPatch),
);
export type SettingsPatch = v.InferOutput<typeof SettingsPatchSchema>;

export type SettingsResponse = { success: true; settings: Settings };

type Section = 'notifications' | 'privacy' | 'search' | 'cookies' | 'quedadas';
const SECTIONS: readonly Section[] = ['notifications', 'privacy', 'search', 'cookies', 'quedadas'];

/**
 * The complete settings from whatever is stored (possibly older, partial, or hand-edited):
 * every field the stored value gets right is kept, everything else is the default.
 */
export function resolveSettings(stored: unknown): Settings {
  const source = isRecord(stored) ? stored : {};
  const patch: Record<string, unknown> = {};
  for (const section of SECTIONS) {
    const value = source[section];
    if (!isRecord(value)) continue;
    const fields: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) {
      const single = v.safeParse(SettingsPatchSchema, { [section]: { [key]: field } });
      if (single.success) fields[key] = field;
    }
    patch[section] = fields;
  }
  for (const key of ['twoFactor', 'theme'] as const) {
    if (v.safeParse(SettingsPatchSchema, { [key]: source[key] }).success) patch[key] = source[key];
  }
  return mergeSettings(DEFAULT_SETTINGS, patch as SettingsPatch);
}

/** Applies a patch section by section; `cookies.necessary` stays true whatever happens. */
export function mergeSettings(base: Settings, patch: SettingsPatch): Settings {
  return {
    notifications: { ...base.notifications, ...definedOnly(patch.notifications) },
    privacy: { ...base.privacy, ...definedOnly(patch.privacy) },
    search: { ...base.search, ...definedOnly(patch.search) },
    twoFactor: patch.twoFactor ?? base.twoFactor,
    cookies: { ...base.cookies, ...definedOnly(patch.cookies), necessary: true },
    theme: patch.theme ?? base.theme,
    quedadas: { ...base.quedadas, ...definedOnly(patch.quedadas) },
  };
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (!value) return {};
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
