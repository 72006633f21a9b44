import { useSyncExternalStore } from 'react';

/**
 * The colour theme (spec 000 §2 "Theme", spec 001 §3 settings): light, dark or system, kept in
 * local storage under `theme`, applied as the `dark` class on <html>. With `system` the page
 * follows the operating system live.
 */
export type ThemePreference = 'light' | 'dark' | 'system';

export const THEME_STORAGE_KEY = 'theme';
export const THEME_PREFERENCES: readonly ThemePreference[] = ['light', 'system', 'dark'];

const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();
let isStarted = false;

function isThemePreference(value: unknown): value is ThemePreference {
  return value === 'light' || value === 'dark' || value === 'system';
}

/** The stored preference; `system` when none (or an unknown value) is stored. */
export function readThemePreference(): ThemePreference {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isThemePreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** Whether a preference means dark, given what the system prefers. */
export function resolveIsDark(preference: ThemePreference, isSystemDark: boolean): boolean {
  return preference === 'dark' || (preference === 'system' && isSystemDark);
}

function applyTheme(): void {
  const isDark = resolveIsDark(readThemePreference(), systemPrefersDark());
  document.documentElement.classList.toggle('dark', isDark);
}

function notify(): void {
  applyTheme();
  for (const listener of listeners) listener();
}

/** Stores a preference, applies it at once and tells every subscriber. */
export function setThemePreference(preference: ThemePreference): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage blocked: the choice still applies to this page.
  }
  notify();
}

/**
 * Applies the stored theme and keeps it in step with the system and with other tabs. Called once,
 * synchronously, before the first render (main.tsx), so the page never flashes the wrong theme.
 */
export function startThemeSync(): void {
  applyTheme();
  if (isStarted) return;
  isStarted = true;
  if (typeof window.matchMedia === 'function') {
    window.matchMedia(DARK_QUERY).addEventListener('change', notify);
  }
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key === THEME_STORAGE_KEY) notify();
  });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current preference, re-rendering when it changes here or in another tab. */
export function useThemePreference(): ThemePreference {
  return useSyncExternalStore(subscribe, readThemePreference, () => 'system');
}
