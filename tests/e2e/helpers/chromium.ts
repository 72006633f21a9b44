/** Debian's Chromium (the full browser); Playwright never downloads a browser here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Debian's old headless shell of the same Chromium (package chromium-headless-shell), which the
 * journeys run in unless they need the full browser: the same Blink, V8 and network stack without
 * the browser's UI layers, at two thirds of the CPU (docs/decisions/0058). The journeys that show
 * system notifications (push.spec.ts) and the ones that launch a browser of their own (a restart
 * with a profile, a camera, installability) run in the full browser.
 */
export const HEADLESS_SHELL_PATH =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/lib/chromium/chromium-headless-shell';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-quic',
  '--no-first-run',
  '--disable-sync',
];
