import { Secret, TOTP } from 'otpauth';
import { registerAccount } from './helpers/accounts.ts';
import { storeSession } from './helpers/session.ts';
import { seriousViolations } from './helpers/axe.ts';
import { expect, type Page, test } from './helpers/test.ts';

// Two-step sign-in and passkeys (issue #23 part 1, docs/decisions/0032), in Chromium.

const totpFor = (secret: string) =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
const currentStep = () => Math.floor(Date.now() / 30_000);
/** The time of a 30-second step, for `TOTP.generate`. */
const stepTime = (step: number) => ({ timestamp: step * 30_000 });

/** The login form as a person fills it (wide screen: the form sits beside the preview). */
async function signInWithPassword(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
}

async function signOutLocally(page: Page) {
  await page.evaluate(() => {
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
}

test('TOTP: turn it on from the shown secret, then sign in with the password and a code from the app', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const account = await registerAccount(request);
  await signInWithPassword(page, account.email, account.password);
  await page.waitForURL('**/home');
  await page.goto('/config');

  const toggle = page.getByRole('switch', { name: 'Verificación en dos pasos' });
  await expect(toggle).not.toBeChecked();
  await expect(page.getByText('Próximamente')).toHaveCount(0);
  await toggle.click();
  const dialog = page.getByRole('dialog', { name: 'Activar la verificación en dos pasos' });
  await expect(dialog.getByRole('img', { name: /Código QR/ })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await seriousViolations(page)).toEqual([]);

  const enablingStep = currentStep();
  await dialog.getByLabel('Código de 6 dígitos').fill(totpFor(secret).generate(stepTime(enablingStep)));
  await dialog.getByRole('button', { name: 'Activar' }).click();
  const codes = page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: 'He guardado mis códigos' }).click();
  await expect(toggle).toBeChecked();
  await expect(page.getByText(/Te quedan 10 códigos de recuperación/)).toBeVisible();

  // Another browser: the password alone no longer opens a session.
  const other = await (await browser.newContext()).newPage();
  await signInWithPassword(other, account.email, account.password);
  await expect(other.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible();
  expect(await seriousViolations(other)).toEqual([]);
  await other.getByLabel('Código de 6 dígitos').fill('000000');
  await other.getByRole('button', { name: 'Verificar' }).click();
  await expect(other.getByText('El código no es correcto', { exact: false })).toBeVisible();

  // The enabling code's step is used up: the app's next code (the server takes the next step's
  // code too, and it stays good while the clock moves on a step) instead of waiting up to 30 s.
  await other.getByLabel('Código de 6 dígitos').fill(totpFor(secret).generate(stepTime(enablingStep + 1)));
  await other.getByLabel('Recordar este dispositivo durante 30 días').check();
  await other.getByRole('button', { name: 'Verificar' }).click();
  await other.waitForURL('**/home');

  // This browser is remembered: signing in again asks for the password only.
  await signOutLocally(other);
  await signInWithPassword(other, account.email, account.password);
  await other.waitForURL('**/home');
});

test('TOTP: new recovery codes from Seguridad, confirmed with a code from the app', async ({ page, request }) => {
  // Two-step turned on through the API with this step's code (the journey above turns it on in
  // the screen): the renewal below then takes the next step's code at once.
  const account = await registerAccount(request);
  const headers = { authorization: `Bearer ${await storeSession(page, account)}` };
  const setup = await request.post('/api/security/two-factor/setup', { headers });
  expect(setup.status(), await setup.text()).toBe(200);
  const { secret } = (await setup.json()) as { secret: string };
  const enablingStep = currentStep();
  const enabled = await request.post('/api/security/two-factor/enable', {
    headers,
    data: { code: totpFor(secret).generate(stepTime(enablingStep)) },
  });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const firstCodes = ((await enabled.json()) as { recoveryCodes: string[] }).recoveryCodes;
  expect(firstCodes).toHaveLength(10);

  await page.goto('/config');
  await page.getByRole('button', { name: 'Generar nuevos códigos de recuperación' }).click();
  const renew = page.getByRole('dialog', { name: 'Generar nuevos códigos de recuperación' });
  await renew.getByLabel('Código de 6 dígitos').fill('000000');
  await renew.getByRole('button', { name: 'Generar códigos nuevos' }).click();
  await expect(renew.getByRole('alert')).toHaveText(/El código no es correcto/);
  // The enabling step is used up: the app's next code.
  await renew.getByLabel('Código de 6 dígitos').fill(totpFor(secret).generate(stepTime(enablingStep + 1)));
  await renew.getByRole('button', { name: 'Generar códigos nuevos' }).click();
  const fresh = page.getByRole('list', { name: 'Códigos de recuperación' }).getByRole('listitem');
  await expect(fresh).toHaveCount(10);
  expect((await fresh.allTextContents()).filter((code) => firstCodes.includes(code))).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'He guardado mis códigos' }).click();
  await expect(page.getByText(/Te quedan 10 códigos de recuperación/)).toBeVisible();
});

test('passkeys: add one in Seguridad with a virtual authenticator, then sign in with it', async ({ page, request }) => {
  const account = await registerAccount(request);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });

  await signInWithPassword(page, account.email, account.password);
  await page.waitForURL('**/home');
  await page.goto('/config');
  await page.getByRole('button', { name: 'Añadir llave de acceso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Añadir una llave de acceso' });
  await dialog.getByLabel('Nombre de la llave').fill('Portátil de pruebas');
  await dialog.getByRole('button', { name: 'Crear llave de acceso' }).click();
  const list = page.getByRole('list', { name: 'Tus llaves de acceso' });
  await expect(list.getByText('Portátil de pruebas')).toBeVisible();
  await expect(list.getByText(/Sin usar todavía/)).toBeVisible();

  // Where the browser offers passkeys in the e-mail field's autofill, the virtual authenticator
  // answers that request by itself: opening the login screen signs in.
  await signOutLocally(page);
  await page.goto('/login');
  await page.waitForURL('**/home');

  // Without autofill, the button asks for the passkey.
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);
  });
  await signOutLocally(page);
  await page.goto('/login');
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await page.getByRole('button', { name: 'Entrar con llave de acceso' }).click();
  await page.waitForURL('**/home');

  await page.goto('/config');
  await expect(page.getByRole('list', { name: 'Tus llaves de acceso' }).getByText(/Último uso/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
