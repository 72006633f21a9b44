import { resolveSettings, type Settings, type SettingsPatch } from '#shared/settings/settings-schema';
import type { Clock } from '../../infra/clock.ts';
import type { SettingsRepository } from './settings-repository.ts';

export type SettingsService = ReturnType<typeof createSettingsService>;

/**
 * The user's settings (spec 001 §3), kept on the server (docs/decisions/0008). `get` is the port
 * other features read: notifications check the per-type push switches, discovery will read
 * `privacy.showProfile` and `search`.
 */
export function createSettingsService(deps: { settings: SettingsRepository; clock: Clock }) {
  const listeners = new Set<(userId: string, settings: Settings, patch: SettingsPatch) => Promise<void>>();
  return {
    /** Features that act on a setting (discovery hides a profile) follow changes here. */
    onChange(listener: (userId: string, settings: Settings, patch: SettingsPatch) => Promise<void>): void {
      listeners.add(listener);
    },

    /** The complete settings: what the user chose, defaults for the rest. */
    async get(userId: string): Promise<Settings> {
      return resolveSettings(await deps.settings.find(userId));
    },

    /** The privacy switches of several users at once (what others may see of them), defaults filled. */
    async privacyOf(userIds: readonly string[]): Promise<Map<string, Settings['privacy']>> {
      const stored = new Map(
        (await deps.settings.findMany([...new Set(userIds)])).map((row) => [row.userId, row.settings]),
      );
      return new Map(userIds.map((userId) => [userId, resolveSettings(stored.get(userId)).privacy]));
    },

    /** Applies a partial change (already validated) and returns the complete result. */
    async update(userId: string, patch: SettingsPatch): Promise<Settings> {
      const settings = resolveSettings(await deps.settings.merge(userId, storedPart(patch), deps.clock.now()));
      for (const listener of listeners) await listener(userId, settings, patch);
      return settings;
    },
  };
}

/** The fields a patch sets, without undefined ones; `cookies.necessary` is always on, so never stored. */
function storedPart(patch: SettingsPatch): Record<string, unknown> {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null) {
      stored[key] = value;
      continue;
    }
    const fields = Object.entries(value).filter(
      ([field, fieldValue]) => fieldValue !== undefined && !(key === 'cookies' && field === 'necessary'),
    );
    if (fields.length > 0) stored[key] = Object.fromEntries(fields);
  }
  return stored;
}
