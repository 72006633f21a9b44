import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, mergeSettings, type Settings, type SettingsPatch } from '#shared/settings/settings-schema';
import { ApiRequestError } from '../../services/http.ts';
import type { SettingsApi } from './settings-api.ts';
import { clampDistance, createSettingsStore, revertPatch, SETTINGS_SAVE_FAILED } from './settings-store.ts';

function setup() {
  let server: Settings = structuredClone(DEFAULT_SETTINGS);
  const api = {
    get: vi.fn(async () => ({ success: true as const, settings: server })),
    update: vi.fn(async (patch: SettingsPatch) => {
      server = mergeSettings(server, patch);
      return { success: true as const, settings: server };
    }),
  } satisfies SettingsApi;
  const notify = { error: vi.fn() };
  const timers: Array<{ callback: () => void; isCleared: boolean }> = [];
  const store = createSettingsStore({
    api,
    notify,
    timers: {
      set: (callback) => {
        const timer = { callback, isCleared: false };
        timers.push(timer);
        return timer;
      },
      clear: (handle) => {
        (handle as { isCleared: boolean }).isCleared = true;
      },
    },
  });
  const settings = () => (store.state.current.status === 'ready' ? store.state.current.settings : null);
  const fire = () => {
    for (const timer of timers.splice(0)) if (!timer.isCleared) timer.callback();
  };
  return { api, notify, store, settings, fire };
}

const refused = () => Promise.reject(new ApiRequestError('http', 'No', 500));

describe('settings store', () => {
  it('loads, then saves a change optimistically', async () => {
    const { api, store, settings } = setup();
    await store.load();
    const saving = store.update({ notifications: { messages: false } });
    expect(settings()?.notifications.messages).toBe(false);
    await expect(saving).resolves.toBe(true);
    expect(api.update).toHaveBeenCalledWith({ notifications: { messages: false } });
  });

  it('keeps a change made while a reload is in flight: the older answer does not undo it', async () => {
    const { api, store, settings } = setup();
    await store.load();
    // /config reloads the settings when it opens; the person flips a switch before the answer.
    let answer: (value: { success: true; settings: Settings }) => void = () => {};
    api.get.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const reloading = store.load();
    const stale = structuredClone(DEFAULT_SETTINGS);
    await store.update({ notifications: { messages: false } });
    answer({ success: true, settings: stale });
    await reloading;
    expect(settings()?.notifications.messages).toBe(false);
    // A later reload, with nothing changed meanwhile, shows the server's copy again.
    await store.load();
    expect(settings()?.notifications.messages).toBe(false);
    expect(api.get).toHaveBeenCalledTimes(3);
  });

  it('rolls back only the refused fields and shows a toast', async () => {
    const { api, notify, store, settings } = setup();
    await store.load();
    await store.update({ theme: 'dark' });
    api.update.mockImplementationOnce(refused);
    const failing = store.update({ privacy: { showProfile: false } });
    expect(settings()?.privacy.showProfile).toBe(false);
    await expect(failing).resolves.toBe(false);
    expect(settings()?.privacy.showProfile).toBe(true);
    expect(settings()?.theme).toBe('dark');
    expect(notify.error).toHaveBeenCalledWith(SETTINGS_SAVE_FAILED);
  });

  it('sends the distance slider once it is still, and rolls it back to the saved value', async () => {
    const { api, store, settings, fire } = setup();
    await store.load();
    store.setMaxDistance(30);
    store.setMaxDistance(42);
    expect(settings()?.search.maxDistance).toBe(42);
    expect(api.update).not.toHaveBeenCalled();
    fire();
    await vi.waitFor(() => expect(api.update).toHaveBeenCalledTimes(1));
    expect(api.update).toHaveBeenCalledWith({ search: { maxDistance: 42 } });
    api.update.mockImplementationOnce(refused);
    store.setMaxDistance(80);
    fire();
    await vi.waitFor(() => expect(settings()?.search.maxDistance).toBe(42));
  });

  it('builds the inverse of a patch and clamps the distance', () => {
    expect(revertPatch(DEFAULT_SETTINGS, { search: { maxDistance: 9 }, twoFactor: true })).toEqual({
      search: { maxDistance: 25 },
      twoFactor: false,
    });
    expect(clampDistance(0)).toBe(1);
    expect(clampDistance(250)).toBe(100);
    expect(clampDistance(12.6)).toBe(13);
  });
});

describe('the device copy (issue #22: /config offline)', () => {
  function withCache(kept: Settings | null) {
    const written: Settings[] = [];
    const api = {
      get: vi.fn(async () => ({ success: true as const, settings: structuredClone(DEFAULT_SETTINGS) })),
      update: vi.fn(async () => ({ success: true as const, settings: structuredClone(DEFAULT_SETTINGS) })),
    } satisfies SettingsApi;
    const cache = {
      read: vi.fn(async () => kept),
      write: vi.fn(async (settings: Settings) => {
        written.push(settings);
      }),
    };
    const store = createSettingsStore({ api, cache, notify: { error: vi.fn() } });
    return { api, cache, store, written };
  }

  it('keeps what the server confirmed', async () => {
    const { store, written } = withCache(null);
    await store.load();
    expect(written).toEqual([DEFAULT_SETTINGS]);
  });

  it('shows the kept copy when the server cannot be reached', async () => {
    const kept = mergeSettings(DEFAULT_SETTINGS, { search: { maxDistance: 7 } });
    const { api, store } = withCache(kept);
    api.get.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    await store.load();
    expect(store.state.current).toEqual({ status: 'ready', settings: kept });
  });

  it('is an error only when this device never kept a copy', async () => {
    const { api, store } = withCache(null);
    api.get.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')));
    await store.load();
    expect(store.state.current.status).toBe('error');
  });
});
