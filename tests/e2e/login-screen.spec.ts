import { createHash } from 'node:crypto';
import { expect, type Page, test } from './helpers/test.ts';

/** Holds the app's entry script back, as on a slow phone, until the returned function is called. */
async function holdEntry(page: Page): Promise<() => void> {
  let release = () => {};
  const isEntryHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await isEntryHeld;
    await route.continue();
  });
  return () => release();
}

// The landing screen with motion as most people have it: its demo deck moves (the journeys'
// default is reduced motion: playwright.config.ts).
test.use({ reducedMotion: 'no-preference' });

/**
 * The /login screen's landmarks (#20 item 10) and its environment badge (#19 §4): one `main` and
 * one `h1` in every view, and a badge that says the server's real mode (the e2e server runs as
 * NODE_ENV=test), never "PROD" where it is not.
 */
test.describe('login screen on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the first view and the form each have one h1 inside one main landmark; the badge tells the truth', async ({
    page,
  }) => {
    await page.goto('/login');
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Encuentra con quién entrenar cerca de ti.');
    const badge = page.locator('[data-mode]');
    await expect(badge).toHaveAttribute('data-mode', 'test');
    await expect(badge).toHaveText('TEST');
    await expect(page.getByText('PROD', { exact: true })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/login-390-preview.png' });

    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await page.screenshot({ path: 'test-results/login-390-form.png' });
  });
});

test.describe('login screen on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('preview and form side by side still make one h1 and one main', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 2, name: 'Iniciar sesión' })).toBeVisible();
  });
});

/**
 * #19 §4, docs/decisions/0031: the server sends /login rendered at build time, so its first paint
 * needs no JavaScript; the client's first render then replaces it with the same screen.
 */
test.describe('login screen before and after its JavaScript runs', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('/login arrives already rendered: the preview, its three feature labels and the ways in', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Encuentra con quién entrenar cerca de ti.');
      for (const label of ['Conexiones', 'Compatibilidad', 'Entrenamientos']) {
        await expect(page.locator('li:visible', { hasText: label })).toHaveCount(1);
      }
      // Visible, and marked as not working yet: a click on it before the script runs would be lost.
      await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeDisabled();
      await expect(page.getByRole('link', { name: 'Regístrate aquí' })).toHaveAttribute('href', '/register');
      await page.screenshot({ path: 'test-results/login-390-static.png' });
      // Nor do its fields take typing, which the live screen replacing them would lose.
      const fields = await page.locator('input').all();
      expect(fields.length).toBeGreaterThan(0);
      for (const field of fields) await expect(field).not.toBeEditable();
    });

    test('on a wide screen the static page also has one h1 inside one main', async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto('/login');
      await expect(page.getByRole('main')).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.locator('h1')).toHaveCount(1);
    });

    test('other pages still start from the empty shell', async ({ page }) => {
      await page.goto('/register');
      await expect(page.locator('#root')).toBeEmpty();
    });
  });

  test('a tap on the static page before its script runs is not lost (issue 34)', async ({ page }) => {
    // The app's entry held back, as on a slow phone: the static page is on screen, its button dead.
    const releaseEntry = await holdEntry(page);
    await page.goto('/login');
    const open = page.getByRole('button', { name: 'Iniciar Sesión', exact: true });
    await expect(open).toBeDisabled();
    // A person does not wait for it to be enabled: the tap lands on the static button.
    await open.click({ force: true });
    await expect(page.getByLabel('Email')).toBeHidden();
    releaseEntry();
    // The live screen takes the tap: the form, as if the person had tapped the live button.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');
    await expect(page.getByLabel('Email')).toBeVisible();
  });

  test('a submit of the static form before the app is live is held, never sent as a GET (issue 34)', async ({
    page,
  }) => {
    const releaseEntry = await holdEntry(page);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeDisabled();
    // The form's own submit, as a press of Enter in it would send: the browser's default is a GET
    // to /login with the fields in the address.
    const isPrevented = await page.evaluate(() => {
      const form = document.querySelector('#root form') as HTMLFormElement;
      let prevented: boolean | null = null;
      window.addEventListener('submit', (event) => (prevented = event.defaultPrevented), { once: true });
      form.requestSubmit();
      return prevented;
    });
    expect(isPrevented, 'the static page holds the submit').toBe(true);
    releaseEntry();
    await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeEnabled();
    expect(new URL(page.url()).search).toBe('');
  });

  test('the first paint needs nothing but the HTML; the CSP allows its inline CSS by hash (issue 34)', async ({
    request,
  }) => {
    const response = await request.get('/login');
    const html = await response.text();
    const head = html.slice(0, html.indexOf('</head>'));
    const outsideTemplate = head.replace(/<template id="app-start">[\s\S]*<\/template>/, '');
    expect(outsideTemplate).not.toMatch(/rel="(?:stylesheet|modulepreload)"|type="module"/);
    expect(outsideTemplate).toMatch(/<script defer src="\/assets\/prerendered-start-[\w-]+\.js"><\/script>/);
    const styles = [...head.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
    expect(styles).toHaveLength(1);
    const digest = createHash('sha256')
      .update(styles[0] ?? '')
      .digest('base64');
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy).toContain(`style-src 'self' 'sha256-${digest}'`);
    expect(policy).not.toContain('unsafe-inline');
  });

  test('the static page becomes the live screen in place, with no layout shift', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as unknown as { shifts: number[] }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    // Google's button arrives late, drawn by its script (here the stand-in's, whose stylesheet comes
    // after the button: for a moment the button is unstyled and tall). Held back 1.5 s, that moment
    // falls outside the 500 ms after the tap that layout-shift counting forgives, as it did on a
    // busy machine: the screen must keep its layout whatever the script draws, and whenever.
    await page.route('**/api/dev/google/gsi/style', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto('/login');
    // The live screen: the badge asks the server, the demo deck starts after 800 ms.
    await expect(page.locator('[data-mode]')).toHaveAttribute('data-mode', 'test');
    await expect(page.getByText(/^Perfil 1 de 3: /)).toBeAttached();
    await expect(page.getByRole('button', { name: 'Iniciar Sesión', exact: true })).toBeEnabled();
    await page.getByRole('button', { name: 'Iniciar Sesión', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Iniciar sesión');
    await expect(page.getByLabel('Email')).toBeVisible();
    // The stand-in's button with its stylesheet applied (Google's 40 px large button).
    await expect(page.getByRole('button', { name: 'Continuar con Google' })).toHaveCSS('height', '40px');
    // Two frames and a task later, every shift of those frames has reached the observer.
    const shifts = await page.evaluate(async () => {
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await new Promise((resolve) => setTimeout(resolve, 0));
      return (window as unknown as { shifts: number[] }).shifts;
    });
    const total = shifts.reduce((sum, value) => sum + value, 0);
    expect(total).toBeLessThan(0.01);
  });
});
