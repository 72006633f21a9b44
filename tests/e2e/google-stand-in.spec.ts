import { type BrowserContext, expect, type Page, test } from './helpers/test.ts';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';

// The stand-in for Google Identity Services, exercised in Chromium the way the login screen will use
// it: the script from GET /api/auth/google/config, a rendered button, the popup, the callback.

const CLIENT_ID = 'entreno-local.apps.googleusercontent.com';

type CredentialResponse = { credential: string; select_by: string };
type TestWindow = Window & {
  google: {
    accounts: {
      id: {
        initialize(config: {
          client_id: string;
          callback: (response: CredentialResponse) => void;
          nonce?: string;
        }): void;
        renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
      };
    };
  };
  responses: CredentialResponse[];
};

/**
 * Errors and CSP refusals from every page of the context, the popup included. The host page is a
 * JSON answer of the app, whose automatic /favicon.ico request is not the stand-in's business.
 */
function collectProblems(context: BrowserContext): string[] {
  const problems: string[] = [];
  context.on('console', (message) => {
    if (message.location().url.endsWith('/favicon.ico')) return;
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
      problems.push(`${message.text()} (${message.location().url})`);
  });
  context.on('weberror', (error) => problems.push(String(error.error())));
  return problems;
}

/** A page of the app's origin (with the app's CSP and COOP) that loaded the script and rendered the button. */
async function openAppPageWithButton(page: Page, options: { nonce?: string; width?: number } = {}) {
  const configResponse = await page.request.get('/api/auth/google/config');
  expect(configResponse.ok()).toBe(true);
  const config = (await configResponse.json()) as { clientId: string; scriptUrl: string };
  expect(config).toEqual({ clientId: CLIENT_ID, scriptUrl: '/api/dev/google/gsi/client' });

  const response = await page.goto('/api/health');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(response?.headers()['cross-origin-opener-policy']).toBe('same-origin');
  await page.addScriptTag({ url: config.scriptUrl });
  await page.evaluate(
    ({ clientId, nonce, width }) => {
      const win = window as unknown as TestWindow;
      const target = document.createElement('div');
      target.id = 'google-button';
      document.body.append(target);
      win.responses = [];
      win.google.accounts.id.initialize({
        client_id: clientId,
        callback: (credentialResponse) => win.responses.push(credentialResponse),
        ...(nonce ? { nonce } : {}),
      });
      win.google.accounts.id.renderButton(target, { theme: 'outline', size: 'large', text: 'continue_with', width });
    },
    { clientId: config.clientId, nonce: options.nonce, width: options.width },
  );
  return page.getByRole('button', { name: 'Continuar con Google' });
}

async function firstCredential(page: Page): Promise<CredentialResponse> {
  const handle = await page.waitForFunction(() => (window as unknown as TestWindow).responses[0]);
  return (await handle.jsonValue()) as CredentialResponse;
}

test('choosing a demo account hands a signed Google ID token to the callback', async ({ page, context, baseURL }) => {
  const problems = collectProblems(context);
  const button = await openAppPageWithButton(page, { width: 320 });
  await expect(button).toBeVisible();
  // Width set through the CSSOM, which the CSP allows (a style attribute would be refused).
  expect(await button.evaluate((element) => element.getBoundingClientRect().width)).toBe(320);

  const [popup] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await expect(popup).toHaveURL(/\/api\/dev\/google\/signin\?client_id=entreno-local\.apps\.googleusercontent\.com/);
  await expect(popup.getByRole('heading', { name: 'Elige una cuenta' })).toBeVisible();
  await expect(popup.getByText('para ir a Entreno')).toBeVisible();
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: /Lucía Martín García/ }).click();
  await closed;

  const response = await firstCredential(page);
  expect(response.select_by).toBe('btn');
  expect(decodeJwt(response.credential)).toMatchObject({
    email: 'lucia.martin@example.com',
    email_verified: true,
    given_name: 'Lucía',
    family_name: 'Martín García',
    name: 'Lucía Martín García',
    aud: CLIENT_ID,
    azp: CLIENT_ID,
  });
  // A real RS256 signature, checked against the JWKS the app publishes.
  const keys = createRemoteJWKSet(new URL('/api/dev/google/certs', baseURL));
  const { payload } = await jwtVerify(response.credential, keys, { audience: CLIENT_ID, algorithms: ['RS256'] });
  expect(payload.email).toBe('lucia.martin@example.com');
  expect(problems).toEqual([]);
});

test('another account typed in the form, with the keyboard; forged messages are ignored', async ({ page, context }) => {
  const problems = collectProblems(context);
  const button = await openAppPageWithButton(page, { nonce: 'nonce-4f7c1a' });

  await button.focus();
  const [popup] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  // While the popup is open, a message that does not come from it never reaches the callback.
  await page.evaluate((clientId) => {
    window.postMessage({ type: 'entreno-gsi-credential', credential: 'forged', client_id: clientId }, '*');
  }, CLIENT_ID);
  await expect(popup.getByRole('heading', { name: 'Usar otra cuenta' })).toBeVisible();
  await popup.getByLabel('Correo electrónico').fill('pablo.iglesias.test@example.com ');
  await popup.getByLabel('Nombre', { exact: true }).fill('');
  await popup.getByRole('button', { name: 'Continuar' }).click();
  await expect(popup.getByRole('alert')).toHaveText('El campo Nombre es obligatorio');
  await expect(popup.getByLabel('Nombre', { exact: true })).toBeFocused();

  await popup.getByLabel('Correo electrónico').fill('no-es-correo');
  await popup.getByLabel('Nombre', { exact: true }).fill('Pablo');
  await popup.getByRole('button', { name: 'Continuar' }).click();
  await expect(popup.getByRole('alert')).toHaveText('Por favor ingresa un Email válido');
  await expect(popup.getByLabel('Correo electrónico')).toHaveAttribute('aria-invalid', 'true');

  await popup.getByLabel('Correo electrónico').fill('pablo.ortiz@example.com');
  await popup.getByLabel('Apellidos').fill('Ortiz Vega');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Continuar' }).click();
  await closed;

  const response = await firstCredential(page);
  expect(await page.evaluate(() => (window as unknown as TestWindow).responses.length)).toBe(1);
  expect(response.credential).not.toBe('forged');
  expect(decodeJwt(response.credential)).toMatchObject({
    email: 'pablo.ortiz@example.com',
    given_name: 'Pablo',
    family_name: 'Ortiz Vega',
    nonce: 'nonce-4f7c1a',
    aud: CLIENT_ID,
  });
  expect(problems).toEqual([]);
});

test('the account chooser refuses an unknown client id', async ({ page }) => {
  const response = await page.goto('/api/dev/google/signin?client_id=otra-app.apps.googleusercontent.com');
  expect(response?.status()).toBe(401);
  await expect(page.getByRole('heading', { name: 'Acceso bloqueado: error de autorización' })).toBeVisible();
  await expect(page.getByRole('button')).toHaveCount(0);
});
