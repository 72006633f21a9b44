import { onSignOut, parseStoredUser } from '../../services/session.ts';
import { readLocalPreference, writeLocalPreference } from '../../services/local-preferences.ts';
import { tokenStorage } from '../../services/token-storage.ts';
import { settingsApi } from './settings-api.ts';
import { createSettingsStore } from './settings-store.ts';

/** The app's settings. */
export const settingsStore = createSettingsStore({
  api: settingsApi,
  log: (message, error) => console.warn(`[settings] ${message}`, error ?? ''),
});

onSignOut(() => settingsStore.reset());

/**
 * "Iniciar verificación" (spec 001 §2): there is no verification call, so the request is only
 * remembered in this browser, per user, until a server side exists.
 */
function verificationKey(): string | null {
  const userId = parseStoredUser(tokenStorage.readUser())?.userId;
  return userId ? `verification-requested:${userId}` : null;
}

export function readVerificationRequestedAt(): string | null {
  const key = verificationKey();
  return key ? readLocalPreference(key) : null;
}

export function requestVerification(now = new Date()): void {
  const key = verificationKey();
  if (key) writeLocalPreference(key, now.toISOString());
}
