/**
 * Installing Entreno (issue #22, docs/decisions/0028): the browser's install prompt captured from
 * `beforeinstallprompt`, the iPhone's manual path, and what this device remembers about the offer.
 * Everything stays on the device: nothing about installing is sent to the server.
 */
import { readLocalPreference, subscribeLocalPreferences, writeLocalPreference } from './local-preferences.ts';

/** How this device can install the app: its browser's prompt, the iPhone's share sheet, or not at all. */
export type InstallPath = 'prompt' | 'ios' | 'none';

/** Chromium's `beforeinstallprompt` event (not in the DOM typings). */
type InstallPromptEvent = Event & {
  prompt(): Promise<unknown>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
};

/** Local preference keys: the card was dismissed (or used); a moment of value has come. */
const CARD_DONE_KEY = 'install-card-done';
const MOMENT_KEY = 'install-moment';

type Environment = { userAgent: string; platform?: string; maxTouchPoints?: number };

/** An iPhone, iPad or iPod: every browser there installs through Safari's share sheet, none prompts. */
export function isIosDevice({ userAgent, platform = '', maxTouchPoints = 0 }: Environment): boolean {
  if (/iPad|iPhone|iPod/.test(userAgent)) return true;
  // iPadOS asks for desktop pages and says it is a Mac; only its touch screen tells it apart.
  return platform === 'MacIntel' && maxTouchPoints > 1;
}

/** True in the installed app (standalone or minimal-ui window, or iOS's home-screen app). */
export function isRunningInstalled(): boolean {
  if (typeof window === 'undefined') return false;
  const media = (query: string) => window.matchMedia?.(query).matches === true;
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return media('(display-mode: standalone)') || media('(display-mode: minimal-ui)') || iosStandalone;
}

let deferred: InstallPromptEvent | null = null;
let isInstalled = false;
let path: InstallPath = 'none';
const listeners = new Set<() => void>();

function computePath(): InstallPath {
  if (isInstalled || isRunningInstalled()) return 'none';
  if (deferred) return 'prompt';
  if (typeof navigator !== 'undefined' && isIosDevice(navigator)) return 'ios';
  return 'none';
}

function publish(): void {
  const next = computePath();
  if (next === path) return;
  path = next;
  for (const listener of listeners) listener();
}

let isStarted = false;

/**
 * Listens for the browser's install prompt and for the app being installed. Call it at start-up,
 * before the page has loaded: Chromium fires `beforeinstallprompt` early and only once per load.
 */
export function startInstallPrompt(): void {
  if (isStarted || typeof window === 'undefined') return;
  isStarted = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keeps the browser's own mini-infobar away: the app offers installing where it helps.
    event.preventDefault();
    deferred = event as InstallPromptEvent;
    publish();
  });
  window.addEventListener('appinstalled', () => {
    isInstalled = true;
    deferred = null;
    writeLocalPreference(CARD_DONE_KEY, 'installed');
    publish();
  });
  window.matchMedia?.('(display-mode: standalone)').addEventListener?.('change', publish);
  path = computePath();
}

/** How this device can install the app; readable with `useSyncExternalStore`. */
export const installPath = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): InstallPath => path,
};

/** Shows the browser's install dialog; the prompt can be used once, so it is dropped after. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'unavailable'> {
  const event = deferred;
  if (!event) return 'unavailable';
  deferred = null;
  await event.prompt();
  const { outcome } = await event.userChoice;
  publish();
  return outcome;
}

/** A moment the app proved useful (the first match, the first message sent): the card may show. */
export function noteMomentOfValue(now = new Date()): void {
  if (readLocalPreference(MOMENT_KEY) === null) writeLocalPreference(MOMENT_KEY, now.toISOString());
}

/** The card is shown once per device: dismissed, used or installed, it never comes back. */
export function dismissInstallCard(reason: 'dismissed' | 'prompted'): void {
  writeLocalPreference(CARD_DONE_KEY, reason);
}

/** Whether the card is due on this device (a moment of value came, and it was never dismissed). */
export function isInstallCardDue(): boolean {
  return readLocalPreference(MOMENT_KEY) !== null && readLocalPreference(CARD_DONE_KEY) === null;
}

export const installCardDue = {
  subscribe: subscribeLocalPreferences,
  getSnapshot: isInstallCardDue,
};
