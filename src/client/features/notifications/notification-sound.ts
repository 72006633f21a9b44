/**
 * The short chime of spec 001 §9 ("A notification sound is played on alerts"). Browsers refuse
 * audio before the person has interacted with the page, so it plays only after a first tap or
 * key press, only while the page is on screen (a hidden page gets the push instead), and only
 * when the "Sonido de notificaciones" preference of this browser is on.
 */
import { useSyncExternalStore } from 'react';
import {
  readLocalPreference,
  subscribeLocalPreferences,
  writeLocalPreference,
} from '../../services/local-preferences.ts';

export const NOTIFICATION_SOUND_URL = '/sounds/notification.wav';
const SOUND_PREFERENCE_KEY = 'notification-sound';

let hasInteracted = false;
let audio: HTMLAudioElement | null = null;

/** Remembers the first interaction (the browser's autoplay rule); call once at start-up. */
export function trackFirstInteraction(): void {
  if (typeof window === 'undefined' || hasInteracted) return;
  const mark = () => {
    hasInteracted = true;
    window.removeEventListener('pointerdown', mark, true);
    window.removeEventListener('keydown', mark, true);
  };
  window.addEventListener('pointerdown', mark, true);
  window.addEventListener('keydown', mark, true);
}

export function isNotificationSoundOn(): boolean {
  return readLocalPreference(SOUND_PREFERENCE_KEY) !== 'off';
}

export function setNotificationSoundOn(isOn: boolean): void {
  writeLocalPreference(SOUND_PREFERENCE_KEY, isOn ? null : 'off');
}

export function useNotificationSoundOn(): boolean {
  return useSyncExternalStore(subscribeLocalPreferences, isNotificationSoundOn, () => true);
}

/** Plays the chime when allowed; never throws. */
export function playNotificationSound(): void {
  if (!hasInteracted || !isNotificationSoundOn()) return;
  if (typeof document !== 'undefined' && document.visibilityState !== 'visible') return;
  try {
    audio ??= new Audio(NOTIFICATION_SOUND_URL);
    audio.currentTime = 0;
    void audio.play().catch(() => {});
  } catch {
    // No audio support: the badge and the list still show the notification.
  }
}
