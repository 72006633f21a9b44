/**
 * Browser code of the stand-in for Google Identity Services (https://accounts.google.com/gsi/client).
 * It is served as text, so it is plain ES2017 without backticks; it never runs on the server.
 * It follows Google's documented API (developers.google.com/identity/gsi/web/reference/js-reference):
 * `google.accounts.id.initialize`, `renderButton`, `prompt`, `disableAutoSelect`, `cancel`, `revoke`,
 * and calls the callback with `{ credential, select_by: 'btn' }` like Google's library.
 */

/** The message the sign-in popup posts to its opener; the script accepts nothing else. */
export const STAND_IN_MESSAGE_TYPE = 'entreno-gsi-credential';

/** Google's button texts in Spanish, keyed by the `text` option of renderButton. */
export const GSI_BUTTON_TEXTS = {
  signin_with: 'Iniciar sesión con Google',
  signup_with: 'Registrarse con Google',
  continue_with: 'Continuar con Google',
  signin: 'Iniciar sesión',
} as const;

/** Google's four-colour "G", drawn with presentation attributes only (CSP forbids style attributes). */
export const GOOGLE_G_PATHS = [
  [
    '#EA4335',
    'M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z',
  ],
  [
    '#4285F4',
    'M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z',
  ],
  [
    '#FBBC05',
    'M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z',
  ],
  [
    '#34A853',
    'M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z',
  ],
] as const;

/**
 * The script. `basePath` is where the stand-in is mounted (e.g. `/api/dev/google`); the script
 * resolves it against its own `src`, so the popup opens on the origin that served the script.
 */
export function renderGsiClientScript(basePath: string): string {
  return `/* Entreno: local stand-in for Google Identity Services. Development and tests only. */
(function () {
  'use strict';
  if (window.google && window.google.accounts && window.google.accounts.id) return;

  var BASE_PATH = ${JSON.stringify(`${basePath.replace(/\/+$/, '')}/`)};
  var MESSAGE_TYPE = ${JSON.stringify(STAND_IN_MESSAGE_TYPE)};
  var TEXTS = ${JSON.stringify(GSI_BUTTON_TEXTS)};
  var G_PATHS = ${JSON.stringify(GOOGLE_G_PATHS)};
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var current = document.currentScript;
  var base = new URL(BASE_PATH, current && current.src ? current.src : window.location.href);

  var settings = null;
  var popup = null;
  var stylesAdded = false;

  function log(level, message) {
    console[level]('[GSI_LOGGER]: ' + message);
  }

  function pick(value, allowed, fallback) {
    return allowed.indexOf(value) >= 0 ? value : fallback;
  }

  function ensureStyles() {
    if (stylesAdded) return;
    stylesAdded = true;
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = new URL('gsi/style', base).href;
    document.head.appendChild(link);
  }

  function googleLogo() {
    var svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('viewBox', '0 0 48 48');
    svg.setAttribute('aria-hidden', 'true');
    svg.setAttribute('focusable', 'false');
    svg.setAttribute('class', 'entreno-gsi-logo');
    G_PATHS.forEach(function (item) {
      var path = document.createElementNS(SVG_NS, 'path');
      path.setAttribute('fill', item[0]);
      path.setAttribute('d', item[1]);
      svg.appendChild(path);
    });
    return svg;
  }

  function initialize(config) {
    if (!config || typeof config.client_id !== 'string' || !config.client_id) {
      log('error', 'Missing required parameter "client_id".');
      return;
    }
    if (config.ux_mode === 'redirect') log('warn', 'ux_mode "redirect" is not simulated by the stand-in; using "popup".');
    settings = {
      client_id: config.client_id,
      callback: typeof config.callback === 'function' ? config.callback : null,
      nonce: typeof config.nonce === 'string' ? config.nonce : null,
    };
  }

  function openPopup() {
    if (!settings) {
      log('error', 'google.accounts.id.initialize() must be called before the button is used.');
      return;
    }
    var url = new URL('signin', base);
    url.searchParams.set('client_id', settings.client_id);
    if (settings.nonce) url.searchParams.set('nonce', settings.nonce);
    var width = 480;
    var height = 640;
    var left = Math.max(0, Math.round(window.screenX + (window.outerWidth - width) / 2));
    var top = Math.max(0, Math.round(window.screenY + (window.outerHeight - height) / 2));
    if (popup && !popup.closed) popup.close();
    popup = window.open(url.href, 'entreno_gsi_signin', 'popup,width=' + width + ',height=' + height + ',left=' + left + ',top=' + top);
    if (!popup) log('warn', 'The sign-in popup was blocked by the browser.');
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== base.origin) return;
    if (!popup || event.source !== popup) return;
    var data = event.data;
    if (!data || data.type !== MESSAGE_TYPE || typeof data.credential !== 'string') return;
    if (!settings || data.client_id !== settings.client_id) return;
    // The opener closes the popup once the credential is in hand: a popup that closed itself right
    // after posting could be gone before this event ran, leaving event.source null.
    var source = popup;
    popup = null;
    source.close();
    if (settings.callback) settings.callback({ credential: data.credential, select_by: 'btn' });
  });

  function renderButton(parent, options) {
    if (!parent || typeof parent.appendChild !== 'function') {
      log('error', 'renderButton needs a parent element.');
      return;
    }
    options = options || {};
    ensureStyles();
    var type = pick(options.type, ['standard', 'icon'], 'standard');
    var theme = pick(options.theme, ['outline', 'filled_blue', 'filled_black'], 'outline');
    var size = pick(options.size, ['large', 'medium', 'small'], 'large');
    var text = pick(options.text, Object.keys(TEXTS), 'signin_with');
    var shape = pick(options.shape, ['rectangular', 'pill', 'circle', 'square'], 'rectangular');
    var alignment = pick(options.logo_alignment, ['left', 'center'], 'left');
    var label = TEXTS[text];

    var button = document.createElement('button');
    button.type = 'button';
    button.className = ['entreno-gsi-button', 'entreno-gsi-' + type, 'entreno-gsi-' + theme, 'entreno-gsi-' + size,
      'entreno-gsi-' + shape, 'entreno-gsi-logo-' + alignment].join(' ');
    var logo = document.createElement('span');
    logo.className = 'entreno-gsi-logo-box';
    logo.appendChild(googleLogo());
    button.appendChild(logo);
    if (type === 'icon') {
      button.setAttribute('aria-label', label);
    } else {
      var caption = document.createElement('span');
      caption.className = 'entreno-gsi-label';
      caption.textContent = label;
      button.appendChild(caption);
      var width = Number(options.width);
      // CSSOM, not a style attribute: allowed under style-src 'self'. Google clamps to 200-400 px.
      if (width > 0) button.style.width = Math.min(400, Math.max(200, Math.round(width))) + 'px';
    }
    button.addEventListener('click', function () {
      openPopup();
      if (typeof options.click_listener === 'function') options.click_listener();
    });
    parent.textContent = '';
    parent.appendChild(button);
  }

  function prompt(listener) {
    // One Tap is not simulated: report the moment Google reports when it cannot show the prompt.
    if (typeof listener !== 'function') return;
    var notification = {
      getMomentType: function () { return 'display'; },
      isDisplayMoment: function () { return true; },
      isDisplayed: function () { return false; },
      isNotDisplayed: function () { return true; },
      getNotDisplayedReason: function () { return 'unknown_reason'; },
      isSkippedMoment: function () { return false; },
      getSkippedReason: function () { return undefined; },
      isDismissedMoment: function () { return false; },
      getDismissedReason: function () { return undefined; },
    };
    setTimeout(function () { listener(notification); }, 0);
  }

  function cancel() {
    if (popup && !popup.closed) popup.close();
    popup = null;
  }

  window.google = window.google || {};
  window.google.accounts = window.google.accounts || {};
  window.google.accounts.id = {
    initialize: initialize,
    renderButton: renderButton,
    prompt: prompt,
    cancel: cancel,
    disableAutoSelect: function () {},
    storeCredential: function (credential, callback) { if (typeof callback === 'function') callback(); },
    revoke: function (hint, callback) {
      if (typeof callback === 'function') callback({ successful: true });
    },
  };
})();
`;
}

/** Button styles after Google's branding guidelines; loaded by the script as a stylesheet. */
export const GSI_BUTTON_STYLES = `/* Entreno: stand-in for Google's sign-in button styles. */
.entreno-gsi-button {
  -webkit-appearance: none;
  appearance: none;
  box-sizing: border-box;
  display: inline-flex;
  align-items: center;
  gap: 12px;
  min-width: 200px;
  max-width: 400px;
  height: 40px;
  padding: 0 12px;
  margin: 0;
  border: 1px solid #747775;
  border-radius: 4px;
  background: #fff;
  color: #1f1f1f;
  font: 500 14px/20px Roboto, Arial, system-ui, sans-serif;
  letter-spacing: 0.25px;
  white-space: nowrap;
  cursor: pointer;
  transition: background-color 0.218s, box-shadow 0.218s;
}
.entreno-gsi-button:hover { background: #f8fafe; box-shadow: 0 1px 2px rgba(60, 64, 67, 0.3), 0 1px 3px 1px rgba(60, 64, 67, 0.15); }
.entreno-gsi-button:active { background: #e8eef9; }
.entreno-gsi-button:focus-visible { outline: 2px solid #0b57d0; outline-offset: 2px; }
.entreno-gsi-logo-center { justify-content: center; }
.entreno-gsi-logo-left .entreno-gsi-label { flex: 1; text-align: center; }
.entreno-gsi-logo-box { display: inline-flex; align-items: center; justify-content: center; width: 20px; height: 20px; flex: none; }
.entreno-gsi-logo { width: 18px; height: 18px; display: block; }
.entreno-gsi-filled_blue { background: #0b57d0; border-color: #0b57d0; color: #fff; }
.entreno-gsi-filled_blue:hover { background: #1a64d6; }
.entreno-gsi-filled_blue .entreno-gsi-logo-box,
.entreno-gsi-filled_black .entreno-gsi-logo-box { background: #fff; border-radius: 50%; width: 28px; height: 28px; margin-left: -8px; }
.entreno-gsi-filled_black { background: #131314; border-color: #131314; color: #e3e3e3; }
.entreno-gsi-filled_black:hover { background: #2b2b2d; }
.entreno-gsi-medium { height: 32px; font-size: 14px; }
.entreno-gsi-small { height: 20px; min-width: 0; font-size: 11px; gap: 6px; padding: 0 6px; }
.entreno-gsi-small .entreno-gsi-logo { width: 14px; height: 14px; }
.entreno-gsi-pill { border-radius: 20px; }
.entreno-gsi-icon { min-width: 0; width: 40px; padding: 0; justify-content: center; }
.entreno-gsi-icon.entreno-gsi-medium { width: 32px; }
.entreno-gsi-icon.entreno-gsi-small { width: 20px; }
.entreno-gsi-circle { border-radius: 50%; }
@media (prefers-reduced-motion: reduce) { .entreno-gsi-button { transition: none; } }
`;
