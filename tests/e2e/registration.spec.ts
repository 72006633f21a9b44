import { type BrowserContext, expect, type Page, test } from './helpers/test.ts';

// Spec 000 §2, §4, §5, §8: the e-mail registration wizard and the Google registration, through the
// UI of the built PWA, reading SMS codes from the development outbox.

const PASSWORD = 'Sentadillas&Cafe7';

/** A fresh, plausible Spanish mobile number (9 digits, never a run or a repeated digit). */
function uniqueDigits(): string {
  for (;;) {
    const digits = `6${String(Math.floor(Math.random() * 100_000_000)).padStart(8, '0')}`;
    const subscriber = digits.slice(1);
    const isRun = [...subscriber].every(
      (digit, index) => index === 0 || (Number(digit) - Number(subscriber[index - 1]) + 10) % 10 === 1,
    );
    if (!/^(\d)\1*$/.test(subscriber) && !isRun) return digits;
  }
}

function uniqueEmail(label: string): string {
  return `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** The newest SMS code sent to +34 `digits`, waiting briefly for it. */
async function latestCode(page: Page, digits: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(`+34${digits}`)}`);
      const body = (await response.json()) as { data: Array<{ code: string | null }> };
      code = body.data[0]?.code ?? null;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code as unknown as string;
}

async function typeCode(page: Page, code: string) {
  await page.getByLabel('Dígito 1 de 6').focus();
  await page.keyboard.type(code);
}

async function storedTokens(page: Page) {
  return page.evaluate(() => ({
    local: localStorage.getItem('token'),
    session: sessionStorage.getItem('token'),
    user: localStorage.getItem('user') ?? sessionStorage.getItem('user'),
  }));
}

/** Walks the wizard to step 3 with a fresh name and e-mail. */
async function startWizard(page: Page, email = uniqueEmail('wizard')) {
  await page.goto('/register/email');
  await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await page.getByLabel(/Apellidos/).fill('Martín García');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByRole('heading', { name: 'Tu teléfono' })).toBeVisible();
}

test('the e-mail wizard registers a new account and opens /home with a stored token', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/register');
  await page.getByRole('link', { name: /Registrarse con correo/ }).click();
  await expect(page).toHaveURL(/\/register\/email$/);
  const progress = page.getByRole('navigation', { name: 'Progreso del registro' });
  await expect(progress.getByRole('listitem')).toHaveText([
    /1.*Nombre/,
    /2.*Correo/,
    /3.*Teléfono/,
    /4.*Verificación/,
    /5.*Contraseña/,
  ]);
  await expect(progress.locator('[aria-current="step"]')).toHaveText(/Nombre/);
  await expect(page.getByRole('link', { name: 'Seleccionar otro método de registro' })).toHaveAttribute(
    'href',
    '/register',
  );

  // Step 1: no back button; the name is required.
  await expect(page.getByRole('button', { name: 'Atrás' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByLabel('Nombre', { exact: true })).toHaveAccessibleDescription(
    'El campo Nombre es obligatorio',
  );
  await page.getByLabel('Nombre', { exact: true }).fill('Lucía');
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 2.
  const email = uniqueEmail('wizard');
  await expect(page.getByLabel('Correo electrónico')).toBeFocused();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByRole('button', { name: 'Siguiente' }).click();

  // Step 3: +34 prefix, digits only, the verify button only at 9 digits, no forward arrow.
  const phone = page.getByLabel('Teléfono');
  await expect(phone).toBeFocused();
  await expect(page.getByText('+34', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Siguiente' })).toHaveCount(0);
  const verify = page.getByRole('button', { name: 'Verificar' });
  await phone.pressSequentially('61a2');
  await expect(phone).toHaveValue('612');
  await expect(verify).toBeDisabled();
  await phone.blur();
  await expect(phone).toHaveAccessibleDescription(/El teléfono debe tener 9 dígitos/);
  const digits = uniqueDigits();
  await phone.fill(digits);
  await expect(verify).toBeEnabled();
  await verify.click();

  // Step 4: the resend countdown in m:ss replaces the button.
  await expect(page.getByLabel('Dígito 1 de 6')).toBeFocused();
  await expect(page.getByText(/Podrás reenviar el código en [01]:\d\d/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar código' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByText('El código debe tener 6 dígitos').first()).toBeVisible();
  // The sixth digit sends the code by itself (issue #34): no «Siguiente» to find.
  await typeCode(page, await latestCode(page, digits));

  // Step 5, and back to a verified, read-only phone; forward skips the code step.
  const password = page.getByLabel('Contraseña', { exact: true });
  await expect(password).toBeFocused();
  await page.getByRole('button', { name: 'Atrás' }).click();
  await expect(phone).toHaveAttribute('readonly', '');
  await expect(page.getByText('Verificado', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await password.fill('corta');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(password).toHaveAccessibleDescription(/La contraseña no cumple los requisitos/);
  await password.fill(PASSWORD);
  await expect(page.getByText('Muy fuerte')).toBeVisible();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();

  // Step 6: the checklist, the countdown, then /home.
  await expect(page.getByText('Realizando validaciones')).toBeVisible({ timeout: 10_000 });
  expect((await storedTokens(page)).local).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  // The countdown starts at 3 (unit-tested in success-timeline.test.ts); a loaded machine may
  // first observe it a tick later, so any value of it proves the countdown is shown.
  await expect(page.getByText(/^Serás redirigido en [1-3] segundos?\.\.\.$/)).toBeVisible({
    timeout: 10_000,
  });
  await expect(page).toHaveURL(/\/home$/, { timeout: 10_000 });
  const stored = await storedTokens(page);
  expect(stored.local).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(JSON.parse(stored.user ?? '{}')).toMatchObject({ email, name: 'Lucía' });
  // The streak after registration (spec 000 §1, §4), without a new sign-in (#32 §6).
  await expect(page.getByTestId('streak').filter({ visible: true })).toHaveText('¡Primer día!');
});

test('an e-mail that already has an account is refused at step 2', async ({ page }) => {
  // An account made through the API: phone verified with the outbox code, then registered.
  const email = uniqueEmail('taken');
  const phone = `+34${uniqueDigits()}`;
  expect((await page.request.post('/api/auth/send-code', { data: { phone } })).status()).toBe(200);
  const outbox = await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(phone)}`)).json();
  const code = outbox.data[0].code as string;
  expect((await page.request.post('/api/auth/verify-code', { data: { phone, code } })).status()).toBe(200);
  const registered = await page.request.post('/api/auth/register', {
    data: { name: 'Ana', lastName: '', email, phone, password: PASSWORD },
  });
  expect(registered.status()).toBe(201);

  await page.goto('/register/email');
  await page.getByLabel('Nombre', { exact: true }).fill('Ana');
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByLabel('Correo electrónico').fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await expect(page.getByLabel('Correo electrónico')).toHaveAccessibleDescription(
    'Ya existe una cuenta asociada a esta dirección. Por favor, inicia sesión o utiliza una dirección diferente',
  );
  await expect(page.getByRole('heading', { name: 'Tu correo electrónico' })).toBeVisible();
});

test("a wrong code shows 'Código inválido'; back from step 4 returns to step 3", async ({ page }) => {
  await startWizard(page);
  const digits = uniqueDigits();
  await page.getByLabel('Teléfono').fill(digits);
  await page.getByRole('button', { name: 'Verificar' }).click();
  const code = await latestCode(page, digits);
  await typeCode(page, code === '000000' ? '111111' : '000000');
  await expect(page.getByText('Código inválido').first()).toBeVisible();
  await expect(page.getByLabel('Dígito 1 de 6')).toHaveAccessibleDescription(/Código inválido/);

  // Backspace shifts the digits left; a pasted code fills every box.
  await page.getByLabel('Dígito 3 de 6').focus();
  await page.keyboard.press('Backspace');
  await expect(page.getByLabel('Dígito 6 de 6')).toHaveValue('');
  await page.getByLabel('Dígito 2 de 6').evaluate((input, text) => {
    const data = new DataTransfer();
    data.setData('text/plain', text);
    input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, '12 34 56');
  for (const [index, digit] of [...'123456'].entries()) {
    await expect(page.getByLabel(`Dígito ${index + 1} de 6`)).toHaveValue(digit);
  }

  await page.getByRole('button', { name: 'Atrás' }).click();
  await expect(page.getByRole('heading', { name: 'Tu teléfono' })).toBeVisible();
  await expect(page.getByLabel('Teléfono')).not.toHaveAttribute('readonly', '');
  await expect(page.getByRole('button', { name: 'Verificar' })).toBeEnabled();
});

test('a blocked number shows the PHONE_BLOCKED text and stays on step 3', async ({ page }) => {
  await startWizard(page);
  await page.getByLabel('Teléfono').fill('666666666');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page.getByLabel('Teléfono')).toHaveAccessibleDescription(
    /Este número de teléfono ha sido temporalmente bloqueado por motivos de seguridad\. Por favor, utiliza un número de teléfono diferente\./,
  );
  await expect(page.getByRole('heading', { name: 'Tu teléfono' })).toBeVisible();
});

test('/register links to the wizard, /login, and the terms and privacy with an explaining tooltip', async ({
  page,
}) => {
  await page.goto('/register');
  await expect(page.getByRole('link', { name: 'Inicia sesión' })).toHaveAttribute('href', '/login');
  await expect(page.getByRole('link', { name: 'Términos y condiciones' })).toHaveAttribute('href', '/terms');
  await expect(page.getByRole('link', { name: 'Política de privacidad' })).toHaveAttribute('href', '/privacy');
  const why = page.getByRole('button', { name: '¿Por qué leerlos?' });
  await expect(page.getByRole('tooltip')).toBeHidden();
  await why.focus();
  await expect(page.getByRole('tooltip')).toBeVisible();
  await expect(why).toHaveAccessibleDescription(/qué datos guardamos/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('tooltip')).toBeHidden();
  await why.hover();
  await expect(page.getByRole('tooltip')).toBeVisible();
});

test('/register/google without Google data goes back to /register', async ({ page }) => {
  await page.goto('/register/google');
  await expect(page).toHaveURL(/\/register$/);
});

/** Chooses "another account" in the stand-in's popup and fills it in. */
async function signInWithGooglePopup(page: Page, context: BrowserContext, account: { email: string; name: string }) {
  const button = page.getByRole('button', { name: /con Google/ });
  const [popup] = await Promise.all([context.waitForEvent('page'), button.click()]);
  await popup.getByLabel('Correo electrónico').fill(account.email);
  await popup.getByLabel('Nombre', { exact: true }).fill(account.name);
  await popup.getByLabel('Apellidos').fill('Ortiz Vega');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Continuar' }).click();
  await closed;
}

test.describe('Google', () => {
  test('an unknown Google account registers with phone and code, then signs in again straight to /home', async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    const account = { email: uniqueEmail('google'), name: 'Pablo' };
    await page.goto('/register');
    await signInWithGooglePopup(page, context, account);

    // No linked account: the Google registration modal, with the spec's step labels.
    await expect(page).toHaveURL(/\/register\/google$/);
    const dialog = page.getByRole('dialog', { name: 'Completa tu registro' });
    await expect(dialog.getByRole('heading', { name: 'Completa tu registro' })).toBeVisible();
    await expect(dialog.getByText(account.email)).toBeVisible();
    await expect(
      dialog.getByRole('navigation', { name: 'Progreso del registro con Google' }).getByRole('listitem'),
    ).toHaveText([/Teléfono/, /Verificación/]);
    await expect(dialog.getByRole('button', { name: 'Atrás' })).toBeDisabled();

    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByLabel('Teléfono')).toHaveAccessibleDescription(/El número de teléfono es obligatorio/);
    await dialog.getByLabel('Teléfono').fill('6123');
    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByLabel('Teléfono')).toHaveAccessibleDescription(/El número debe tener 9 dígitos/);
    await dialog.getByLabel('Teléfono').fill('666666666');
    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByLabel('Teléfono')).toHaveAccessibleDescription(/temporalmente bloqueado/);

    const digits = uniqueDigits();
    await dialog.getByLabel('Teléfono').fill(digits);
    await dialog.getByRole('button', { name: 'Enviar código' }).click();
    await expect(dialog.getByLabel('Dígito 1 de 6')).toBeFocused();
    const verify = dialog.getByRole('button', { name: 'Verificar' });
    await expect(verify).toBeDisabled();
    const code = await latestCode(page, digits);

    // A refused code empties the boxes and puts focus back on the first.
    await typeCode(page, code === '000000' ? '111111' : '000000');
    await verify.click();
    await expect(dialog.getByText('Código inválido')).toBeVisible();
    await expect(dialog.getByLabel('Dígito 1 de 6')).toHaveValue('');
    await expect(dialog.getByLabel('Dígito 1 de 6')).toBeFocused();

    await typeCode(page, code);
    await verify.click();
    await expect(page.getByRole('heading', { name: '¡Registro completado!' })).toBeVisible();
    await expect(page).toHaveURL(/\/home$/, { timeout: 10_000 });
    const stored = await storedTokens(page);
    expect(stored.local).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(stored.session).toBe(stored.local);
    expect(JSON.parse(stored.user ?? '{}')).toMatchObject({ email: account.email, completeProfile: false });
    // The streak after registration (spec 000 §1, §4), without a new sign-in (#32 §6).
    await expect(page.getByTestId('streak').filter({ visible: true })).toHaveText('¡Primer día!');

    // Signed out, the same Google account now signs in directly.
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page.goto('/register');
    await signInWithGooglePopup(page, context, account);
    await expect(page).toHaveURL(/\/home$/, { timeout: 15_000 });
    expect((await storedTokens(page)).local).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });
});
