import type { Settings } from '#shared/settings/settings-schema';
import { currentDb, readMeta, SAVED_AT, writeMeta } from '../../services/local-db.ts';
import { onSignOut } from '../../services/session.ts';
import { settingsApi } from './settings-api.ts';
import { createSettingsStore } from './settings-store.ts';

/** The app's settings. */
export const settingsStore = createSettingsStore({
  api: settingsApi,
  // A JSON copy in the user's local store, so /config opens offline after one online visit.
  cache: {
    read: async () => {
      const db = currentDb();
      const kept = db ? await readMeta(db, SAVED_AT.settings) : undefined;
      return kept ? (JSON.parse(kept) as Settings) : null;
    },
    write: async (settings) => {
      const db = currentDb();
      if (db) await writeMeta(db, SAVED_AT.settings, JSON.stringify(settings));
    },
  },
  log: (message, error) => console.warn(`[settings] ${message}`, error ?? ''),
});

onSignOut(() => settingsStore.reset());
