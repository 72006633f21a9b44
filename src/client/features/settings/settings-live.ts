import { onSignOut } from '../../services/session.ts';
import { settingsApi } from './settings-api.ts';
import { createSettingsStore } from './settings-store.ts';

/** The app's settings. */
export const settingsStore = createSettingsStore({
  api: settingsApi,
  log: (message, error) => console.warn(`[settings] ${message}`, error ?? ''),
});

onSignOut(() => settingsStore.reset());
