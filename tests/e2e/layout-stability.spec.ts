/**
 * QUALITY 28: no layout shift when the deck, the chat or the lists load. Every `layout-shift`
 * entry not caused by input is summed from navigation until the screen has settled.
 */
import { matchedPair, pageFor, sendMessage } from './helpers/chat-setup.ts';
import { expect, type Page, test } from './helpers/test.ts';

async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: string[] = [];
    (window as unknown as { layoutShifts: string[] }).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEntry[] & { value: number; hadRecentInput: boolean }[]) {
        const shift = entry as unknown as {
          value: number;
          hadRecentInput: boolean;
          sources?: { node?: Node | null }[];
        };
        if (shift.hadRecentInput) continue;
        const nodes = (shift.sources ?? [])
          .map((source) => (source.node instanceof Element ? source.node.outerHTML.slice(0, 120) : String(source.node)))
          .join(' | ');
        shifts.push(`${shift.value.toFixed(4)} ${location.pathname}: ${nodes}`);
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function shiftsAfterLoading(page: Page, path: string, ready: () => Promise<void>): Promise<string[]> {
  await page.goto(path);
  await ready();
  // Late images, fonts and list pages have had time to land.
  await page.waitForTimeout(1500);
  return page.evaluate(() => (window as unknown as { layoutShifts: string[] }).layoutShifts);
}

test('the deck, the lists and the chat load without layout shifts', async ({ browser, request }) => {
  const { a, b, conversationId } = await matchedPair(request);
  for (const text of ['¿Entrenamos el lunes?', 'Vale, a las 7', 'Perfecto, nos vemos allí']) {
    await sendMessage(request, b, a, conversationId, text);
  }
  const page = await pageFor(browser, a);
  await page.setViewportSize({ width: 375, height: 812 });
  await recordLayoutShifts(page);
  // A slow network: every screen shows its loading state first, so a skeleton that does not
  // match what replaces it is a shift here, not only on a cold server.
  await page.route('**/api/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.fallback();
  });

  const screens: Array<[string, () => Promise<void>]> = [
    [
      '/home',
      () =>
        expect(page.getByRole('button', { name: /^(Rechazar|Ajustar preferencias)$/ }).first()).toBeVisible({
          timeout: 15_000,
        }),
    ],
    ['/matches', () => expect(page.getByText('Marcos').first()).toBeVisible({ timeout: 15_000 })],
    ['/messages', () => expect(page.getByRole('link', { name: /Marcos/ })).toBeVisible({ timeout: 15_000 })],
    [
      `/messages/${conversationId}`,
      () => expect(page.getByText('Perfecto, nos vemos allí')).toBeVisible({ timeout: 15_000 }),
    ],
    ['/notifications', () => expect(page.getByText(/Marcos|Bienvenid/).first()).toBeVisible({ timeout: 15_000 })],
  ];
  const found: string[] = [];
  for (const [path, ready] of screens) found.push(...(await shiftsAfterLoading(page, path, ready)));
  expect(found).toEqual([]);
});

test('the layout-shift probe sees a shift when one happens', async ({ page }) => {
  // Proves the probe above can fail: content pushed down after load is a layout shift.
  test.fail();
  await recordLayoutShifts(page);
  const shifts = await shiftsAfterLoading(page, '/register', async () => {
    await expect(page.getByRole('link').first()).toBeVisible();
    await page.evaluate(() => {
      const block = document.createElement('div');
      block.style.height = '240px';
      document.body.prepend(block);
    });
  });
  expect(shifts).toEqual([]);
});
