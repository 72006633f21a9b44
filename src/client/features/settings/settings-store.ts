/**
 * The settings of /config (spec 001 §3 "Settings"), kept on the server (docs/decisions/0008).
 * Every change shows at once and is sent as a partial PUT; when the server refuses, the changed
 * fields go back to the last values it confirmed and a toast says so. The distance slider sends
 * only once it has been still for a moment.
 */
import { proxy } from 'valtio';
import {
  mergeSettings,
  type Settings,
  type SettingsPatch,
  SEARCH_MAX_DISTANCE_MAX,
  SEARCH_MAX_DISTANCE_MIN,
} from '#shared/settings/settings-schema';
import { toast } from '../../ui/toast-store.ts';
import type { SettingsApi } from './settings-api.ts';

export const SETTINGS_LOAD_FAILED = 'No se pudo cargar la configuración.';
export const SETTINGS_SAVE_FAILED = 'No se pudo guardar el cambio. Hemos restaurado el valor anterior.';
/** How long the distance slider must stay still before its value is sent. */
export const SLIDER_SAVE_DELAY_MS = 400;

export type SettingsStatus =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; settings: Settings }
  | { status: 'error'; message: string };

type Timers = {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
};

/** The device's copy of the confirmed settings, for /config offline (issue #22). */
export type SettingsCache = {
  read(): Promise<Settings | null>;
  write(settings: Settings): Promise<void>;
};

type Options = {
  api: SettingsApi;
  cache?: SettingsCache;
  notify?: Pick<typeof toast, 'error'>;
  log?: (message: string, error?: unknown) => void;
  timers?: Timers;
};

/**
 * The inverse of a patch: for every field it sets, the value in `base`. Applying it to the current
 * settings undoes exactly those fields and leaves later, unrelated changes alone.
 */
export function revertPatch(base: Settings, patch: SettingsPatch): SettingsPatch {
  const inverse: Record<string, unknown> = {};
  for (const [section, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const original = base[section as keyof Settings];
    if (typeof value === 'object' && value !== null && typeof original === 'object') {
      inverse[section] = Object.fromEntries(
        Object.keys(value).map((key) => [key, (original as Record<string, unknown>)[key]]),
      );
    } else {
      inverse[section] = original;
    }
  }
  return inverse as SettingsPatch;
}

export function clampDistance(value: number): number {
  if (!Number.isFinite(value)) return SEARCH_MAX_DISTANCE_MIN;
  return Math.min(SEARCH_MAX_DISTANCE_MAX, Math.max(SEARCH_MAX_DISTANCE_MIN, Math.round(value)));
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

export function createSettingsStore({
  api,
  cache,
  notify = toast,
  log = () => {},
  timers = { set: (callback, ms) => setTimeout(callback, ms), clear: (handle) => clearTimeout(handle as number) },
}: Options) {
  const state = proxy<{ current: SettingsStatus }>({ current: { status: 'idle' } });
  /** What the server last confirmed: the target of a rollback. */
  let confirmed: Settings | null = null;
  let generation = 0;
  /** Changes the person made here: a load answered after one of them is older than what is shown. */
  let changes = 0;
  let sliderTimer: unknown;

  const apply = (patch: SettingsPatch) => {
    if (state.current.status !== 'ready') return;
    state.current = { status: 'ready', settings: mergeSettings(state.current.settings, patch) };
  };

  const persist = async (patch: SettingsPatch): Promise<boolean> => {
    const current = generation;
    try {
      const answer = await api.update(patch);
      if (current === generation) {
        confirmed = mergeSettings(confirmed ?? answer.settings, revertPatch(answer.settings, patch));
        void cache?.write(answer.settings).catch(() => undefined);
      }
      return true;
    } catch (error) {
      if (current !== generation || !confirmed) return false;
      log('saving settings failed', error);
      apply(revertPatch(confirmed, patch));
      notify.error(SETTINGS_SAVE_FAILED);
      return false;
    }
  };

  const store = {
    state,

    async load(): Promise<void> {
      const current = ++generation;
      const changesBefore = changes;
      if (state.current.status !== 'ready') state.current = { status: 'loading' };
      try {
        const answer = await api.get();
        if (current !== generation) return;
        // A switch flipped while this was on its way (/config reloads as it opens): the answer was
        // read before the change and would flip it back. The change's own answer confirms it.
        if (changes !== changesBefore) return;
        confirmed = answer.settings;
        state.current = { status: 'ready', settings: answer.settings };
        void cache?.write(answer.settings).catch(() => undefined);
      } catch (error) {
        if (current !== generation) return;
        log('loading settings failed', error);
        if (state.current.status === 'ready') return;
        // Offline (or the server down): the copy this device kept, if it has one.
        const kept = await cache?.read().catch(() => null);
        if (current !== generation) return;
        if (kept) {
          confirmed = kept;
          state.current = { status: 'ready', settings: kept };
        } else {
          state.current = { status: 'error', message: SETTINGS_LOAD_FAILED };
        }
      }
    },

    /** A switch or a choice: shown at once, sent at once, undone if the server refuses. */
    update(patch: SettingsPatch): Promise<boolean> {
      if (state.current.status !== 'ready') return Promise.resolve(false);
      changes++;
      apply(patch);
      return persist(patch);
    },

    /** The distance slider: shown at every step, sent once it has been still for a moment. */
    setMaxDistance(value: number): void {
      if (state.current.status !== 'ready') return;
      const maxDistance = clampDistance(value);
      changes++;
      apply({ search: { maxDistance } });
      if (sliderTimer !== undefined) timers.clear(sliderTimer);
      sliderTimer = timers.set(() => {
        sliderTimer = undefined;
        void persist({ search: { maxDistance } });
      }, SLIDER_SAVE_DELAY_MS);
    },

    /** Sign-out: the next user starts from the server's copy. */
    reset(): void {
      generation++;
      confirmed = null;
      if (sliderTimer !== undefined) timers.clear(sliderTimer);
      sliderTimer = undefined;
      state.current = { status: 'idle' };
    },
  };
  return store;
}
