import { GOOGLE_G_PATHS, STAND_IN_MESSAGE_TYPE } from './google-stand-in-gsi-script.ts';
import type { GoogleStandInAccount } from './google-stand-in.ts';

/**
 * The stand-in's "Elige una cuenta" popup: an HTML page with its script and styles served as
 * separate files, so it runs under the app's CSP (`script-src 'self'`, `style-src 'self'`).
 */

/** Demo Google accounts offered by the popup. `example.com` addresses never reach a real person. */
export const STAND_IN_DEMO_ACCOUNTS = [
  { email: 'lucia.martin@example.com', givenName: 'Lucía', familyName: 'Martín García' },
  { email: 'javier.romero@example.com', givenName: 'Javier', familyName: 'Romero' },
  { email: 'carmen.ortega@example.com', givenName: 'Carmen', familyName: 'Ortega Ruiz' },
  { email: 'diego.navarro@example.com', givenName: 'Diego', familyName: 'Navarro' },
] as const satisfies readonly GoogleStandInAccount[];

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const initials = (account: GoogleStandInAccount) =>
  `${account.givenName.charAt(0)}${account.familyName?.charAt(0) ?? ''}`.toUpperCase();

const googleLogoSvg = (className: string) =>
  `<svg class="${className}" viewBox="0 0 48 48" aria-hidden="true" focusable="false">${GOOGLE_G_PATHS.map(
    ([fill, d]) => `<path fill="${fill}" d="${d}"></path>`,
  ).join('')}</svg>`;

/** The popup's tab icon: Google's "G". */
export const STAND_IN_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48">${GOOGLE_G_PATHS.map(
  ([fill, d]) => `<path fill="${fill}" d="${d}"/>`,
).join('')}</svg>`;

function page(options: { basePath: string; title: string; body: string; withScript: boolean }): string {
  const base = escapeHtml(options.basePath);
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="${base}/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${base}/signin.css">
${options.withScript ? `<script src="${base}/signin.js" defer></script>\n` : ''}</head>
<body>
<main class="card">
<header class="card-header">
${googleLogoSvg('logo')}
<p class="brand">Cuentas de Google · simulador local</p>
</header>
${options.body}
</main>
</body>
</html>
`;
}

/** The account chooser. Texts are Spanish; nothing from the request is echoed into it. */
export function renderSigninPage(options: {
  basePath: string;
  appName: string;
  accounts: readonly GoogleStandInAccount[];
}): string {
  const accounts = options.accounts
    .map((account, index) => {
      const fullName = [account.givenName, account.familyName].filter(Boolean).join(' ');
      return `<li><button type="button" class="account" data-email="${escapeHtml(account.email)}" data-given-name="${escapeHtml(
        account.givenName,
      )}" data-family-name="${escapeHtml(account.familyName ?? '')}"><span class="avatar avatar-${(index % 4) + 1}" aria-hidden="true">${escapeHtml(
        initials(account),
      )}</span><span class="who"><span class="name">${escapeHtml(fullName)}</span><span class="email">${escapeHtml(
        account.email,
      )}</span></span></button></li>`;
    })
    .join('\n');
  const body = `<h1 id="title">Elige una cuenta</h1>
<p class="subtitle">para ir a <strong>${escapeHtml(options.appName)}</strong></p>
<p class="notice" role="note">Esta página sustituye a Google en desarrollo y pruebas: no se conecta con Google y las cuentas son de demostración.</p>
<ul class="accounts" aria-labelledby="title">
${accounts}
</ul>
<section class="other" aria-labelledby="other-title">
<h2 id="other-title">Usar otra cuenta</h2>
<form id="other-account" novalidate>
<div class="field">
<label for="email">Correo electrónico</label>
<input id="email" name="email" type="email" autocomplete="email" inputmode="email" maxlength="254" required>
</div>
<div class="field">
<label for="given-name">Nombre</label>
<input id="given-name" name="givenName" type="text" autocomplete="given-name" maxlength="100" required>
</div>
<div class="field">
<label for="family-name">Apellidos <span class="optional">(opcional)</span></label>
<input id="family-name" name="familyName" type="text" autocomplete="family-name" maxlength="100">
</div>
<p id="form-error" class="error" role="alert"></p>
<button type="submit" class="primary">Continuar</button>
</form>
</section>
<p id="status" class="status" role="status" aria-live="polite"></p>`;
  return page({ basePath: options.basePath, title: 'Iniciar sesión: cuentas de Google', body, withScript: true });
}

/** Google's answer to an unknown client id, in the stand-in's words. */
export function renderInvalidClientPage(options: { basePath: string }): string {
  const body = `<h1>Acceso bloqueado: error de autorización</h1>
<p class="subtitle">El <code>client_id</code> de la solicitud no está registrado en el simulador local de Google.</p>
<p class="error-code">Error 401: invalid_client</p>`;
  return page({ basePath: options.basePath, title: 'Acceso bloqueado', body, withScript: false });
}

/** The popup's behaviour: choose or type an account, get a signed ID token, post it to the opener. */
export const SIGNIN_SCRIPT = `/* Entreno: the Google stand-in's account chooser. Development and tests only. */
(function () {
  'use strict';
  var MESSAGE_TYPE = ${JSON.stringify(STAND_IN_MESSAGE_TYPE)};
  var params = new URLSearchParams(window.location.search);
  var clientId = params.get('client_id') || '';
  var nonce = params.get('nonce');
  var tokenUrl = new URL('token', window.location.href).href;
  var statusEl = document.getElementById('status');
  var errorEl = document.getElementById('form-error');
  var form = document.getElementById('other-account');
  var busy = false;

  function setBusy(value) {
    busy = value;
    document.querySelectorAll('button').forEach(function (button) { button.disabled = value; });
    document.body.setAttribute('aria-busy', value ? 'true' : 'false');
  }

  function fieldError(input, message) {
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', 'form-error');
    errorEl.textContent = message;
    input.focus();
  }

  function clearErrors() {
    errorEl.textContent = '';
    form.querySelectorAll('input').forEach(function (input) {
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
    });
  }

  function choose(account) {
    if (busy) return;
    if (!window.opener || window.opener.closed) {
      statusEl.textContent = 'No se encuentra la ventana de Entreno que abrió esta página. Ciérrala y vuelve a intentarlo.';
      return;
    }
    setBusy(true);
    statusEl.textContent = 'Iniciando sesión…';
    var body = { email: account.email, givenName: account.givenName };
    if (account.familyName) body.familyName = account.familyName;
    if (nonce) body.nonce = nonce;
    fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body),
    })
      .then(function (response) {
        return response.json().catch(function () { return null; }).then(function (data) {
          if (!response.ok || !data || typeof data.credential !== 'string') {
            throw new Error((data && data.message) || 'No se ha podido iniciar sesión. Inténtalo de nuevo.');
          }
          return data.credential;
        });
      })
      .then(function (credential) {
        // Only our own origin may receive the credential: the opener is this app's page.
        window.opener.postMessage({ type: MESSAGE_TYPE, credential: credential, client_id: clientId }, window.location.origin);
        // The opener closes this window once it has the credential (see the GSI script).
        statusEl.textContent = 'Sesión iniciada. Ya puedes cerrar esta ventana.';
      })
      .catch(function (error) {
        statusEl.textContent = error && error.message ? error.message : 'No se ha podido iniciar sesión. Inténtalo de nuevo.';
        setBusy(false);
      });
  }

  document.querySelectorAll('button.account').forEach(function (button) {
    button.addEventListener('click', function () {
      choose({
        email: button.getAttribute('data-email') || '',
        givenName: button.getAttribute('data-given-name') || '',
        familyName: button.getAttribute('data-family-name') || '',
      });
    });
  });

  form.addEventListener('input', clearErrors);
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    clearErrors();
    var email = form.elements.namedItem('email');
    var givenName = form.elements.namedItem('givenName');
    var familyName = form.elements.namedItem('familyName');
    var emailValue = email.value.trim();
    if (!emailValue) return fieldError(email, 'El campo Email es obligatorio');
    if (!/^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/.test(emailValue)) return fieldError(email, 'Por favor ingresa un Email válido');
    if (!givenName.value.trim()) return fieldError(givenName, 'El campo Nombre es obligatorio');
    choose({ email: emailValue, givenName: givenName.value.trim(), familyName: familyName.value.trim() });
  });
})();
`;

/** The popup's look: Google's account chooser, simplified; light and dark. */
export const SIGNIN_STYLES = `/* Entreno: the Google stand-in's account chooser. */
*, *::before, *::after { box-sizing: border-box; }
html { color-scheme: light dark; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding: 24px 16px;
  background: #f0f4f9;
  color: #1f1f1f;
  font: 14px/1.45 Roboto, Arial, system-ui, sans-serif;
}
.card { width: 100%; max-width: 448px; background: #fff; border-radius: 28px; padding: 28px 24px 24px; }
.card-header { display: flex; align-items: center; gap: 10px; margin-bottom: 16px; }
.logo { width: 24px; height: 24px; flex: none; }
.brand { margin: 0; font-size: 14px; color: #444746; }
h1 { margin: 0 0 4px; font-size: 28px; font-weight: 400; line-height: 1.3; }
h2 { margin: 0 0 12px; font-size: 16px; font-weight: 500; }
.subtitle { margin: 0 0 16px; font-size: 16px; }
.notice { margin: 0 0 16px; padding: 10px 12px; border-radius: 12px; background: #fef7e0; color: #5f4200; font-size: 13px; }
.accounts { list-style: none; margin: 0 0 20px; padding: 0; border-top: 1px solid #c4c7c5; }
.accounts li { border-bottom: 1px solid #c4c7c5; }
.account {
  display: flex; align-items: center; gap: 12px; width: 100%; padding: 12px 8px;
  border: 0; background: transparent; color: inherit; font: inherit; text-align: left; cursor: pointer;
}
.account:hover { background: #f2f2f2; }
.account:focus-visible, .primary:focus-visible, input:focus-visible { outline: 2px solid #0b57d0; outline-offset: 2px; }
.account:disabled, .primary:disabled { cursor: progress; opacity: 0.6; }
.avatar {
  display: inline-flex; align-items: center; justify-content: center; flex: none;
  width: 32px; height: 32px; border-radius: 50%; color: #fff; font-weight: 500; font-size: 13px;
}
.avatar-1 { background: #b3261e; }
.avatar-2 { background: #0b57d0; }
.avatar-3 { background: #146c2e; }
.avatar-4 { background: #6d3fb5; }
.who { display: flex; flex-direction: column; min-width: 0; }
.name { font-weight: 500; }
.email { color: #444746; font-size: 13px; overflow-wrap: anywhere; }
.field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 12px; }
label { font-weight: 500; }
.optional { font-weight: 400; color: #444746; }
input {
  width: 100%; padding: 10px 12px; border: 1px solid #747775; border-radius: 8px;
  background: #fff; color: inherit; font: inherit;
}
input[aria-invalid="true"] { border-color: #b3261e; }
.error { min-height: 1.45em; margin: 0 0 8px; color: #b3261e; }
.error-code { color: #444746; }
.primary {
  padding: 10px 24px; border: 0; border-radius: 20px; background: #0b57d0; color: #fff;
  font: inherit; font-weight: 500; cursor: pointer;
}
.primary:hover { background: #0842a0; }
.status { min-height: 1.45em; margin: 16px 0 0; }
@media (prefers-color-scheme: dark) {
  body { background: #0e0e0e; color: #e3e3e3; }
  .card { background: #1f1f1f; }
  .brand, .email, .optional, .error-code { color: #c4c7c5; }
  .notice { background: #3d2e00; color: #ffdf99; }
  .accounts, .accounts li { border-color: #444746; }
  .account:hover { background: #2d2d2d; }
  input { background: #131314; border-color: #8e918f; }
  .error { color: #f2b8b5; }
  input[aria-invalid="true"] { border-color: #f2b8b5; }
  .primary { background: #a8c7fa; color: #062e6f; }
  .primary:hover { background: #7cacf8; }
}
@media (prefers-reduced-motion: reduce) { * { transition: none !important; } }
`;
