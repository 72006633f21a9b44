import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A browser just big enough for the chime: window events, local storage, visibility and Audio. */
function fakeBrowser() {
  const listeners = new Map<string, Set<() => void>>();
  const stored = new Map<string, string>();
  const played: string[] = [];
  const window = {
    addEventListener: (type: string, listener: () => void) => {
      if (!listeners.has(type)) listeners.set(type, new Set());
      listeners.get(type)?.add(listener);
    },
    removeEventListener: (type: string, listener: () => void) => listeners.get(type)?.delete(listener),
    localStorage: {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => stored.set(key, value),
      removeItem: (key: string) => stored.delete(key),
    },
  };
  const document = { visibilityState: 'visible' as 'visible' | 'hidden' };
  class FakeAudio {
    currentTime = 5;
    constructor(readonly src: string) {}
    play() {
      played.push(`${this.src}@${this.currentTime}`);
      return Promise.resolve();
    }
  }
  vi.stubGlobal('window', window);
  vi.stubGlobal('document', document);
  vi.stubGlobal('Audio', FakeAudio);
  const fire = (type: string) => {
    for (const listener of [...(listeners.get(type) ?? [])]) listener();
  };
  return { document, played, fire, stored };
}

async function loadSound() {
  vi.resetModules();
  return import('./notification-sound.ts');
}

describe('notification sound (spec 001 §9: a notification sound is played on alerts)', () => {
  let browser: ReturnType<typeof fakeBrowser>;
  beforeEach(() => {
    browser = fakeBrowser();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('plays the chime from the start once the person has interacted with the page', async () => {
    const sound = await loadSound();
    sound.trackFirstInteraction();
    sound.playNotificationSound();
    // Browsers refuse audio before a first interaction: nothing is tried.
    expect(browser.played).toEqual([]);
    browser.fire('pointerdown');
    sound.playNotificationSound();
    sound.playNotificationSound();
    expect(browser.played).toEqual([`${sound.NOTIFICATION_SOUND_URL}@0`, `${sound.NOTIFICATION_SOUND_URL}@0`]);
  });

  it('stays silent while the page is hidden (the push speaks then) and when the person turned it off', async () => {
    const sound = await loadSound();
    sound.trackFirstInteraction();
    browser.fire('keydown');
    browser.document.visibilityState = 'hidden';
    sound.playNotificationSound();
    expect(browser.played).toEqual([]);

    browser.document.visibilityState = 'visible';
    sound.setNotificationSoundOn(false);
    expect(sound.isNotificationSoundOn()).toBe(false);
    sound.playNotificationSound();
    expect(browser.played).toEqual([]);

    sound.setNotificationSoundOn(true);
    sound.playNotificationSound();
    expect(browser.played).toHaveLength(1);
  });
});
