import { randomUUID } from 'node:crypto';
import { seriousViolations } from './helpers/axe.ts';
import { matchedPair, pageFor } from './helpers/chat-setup.ts';
import { expect, test, SERVICE_WORKER } from './helpers/test.ts';

const PHONE = { width: 390, height: 844 };

/** «Compartir con alguien de confianza» (issue #35, docs/decisions/0054). */
test('a quedada shared offline with a trusted contact: the link replays once, the page shows who, where and when, revoking ends it', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { a, b, conversationId } = await matchedPair(request);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const proposed = await request.post('/api/quedadas', {
    headers: auth(a.token),
    data: {
      clientId: randomUUID(),
      conversationId,
      gymName: 'Altafit Argüelles',
      gymAddress: 'Calle de la Princesa 47, Madrid',
      startsAt: new Date(Date.now() + 10 * 60_000).toISOString(),
      durationMin: 90,
      activity: 'Pierna',
      note: '',
    },
  });
  expect(proposed.status(), await proposed.text()).toBe(201);
  const quedadaId = ((await proposed.json()) as { quedada: { _id: string } }).quedada._id;
  const accepted = await request.post(`/api/quedadas/${quedadaId}/actions`, {
    headers: auth(b.token),
    data: { clientId: randomUUID(), action: 'accept' },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  const pageA = await pageFor(browser, a);
  await pageA.setViewportSize(PHONE);
  await pageA.emulateMedia({ reducedMotion: 'reduce' });
  await pageA.goto('/entrenos');
  const card = pageA.getByTestId('upcoming-quedada');
  await expect(card).toContainText('Entreno con Marcos');

  // Offline: the link exists at once (the device made its token) and waits in the outbox.
  await pageA.context().setOffline(true);
  await card.getByRole('button', { name: 'Compartir con alguien de confianza' }).click();
  await card.getByLabel('Aviso «¿Todo bien?»').selectOption({ label: 'Al terminar' });
  await card.getByRole('button', { name: 'Crear enlace' }).click();
  const panel = card.getByTestId('share-panel');
  await expect(panel).toContainText('pendiente de enviar');
  const link = await panel.getByLabel('Enlace para compartir').inputValue();
  expect(link).toMatch(/\/compartido\/[A-Za-z0-9_-]{43}$/);
  await pageA.screenshot({ path: 'test-results/quedada-share-panel-390.png' });
  await pageA.context().setOffline(false);
  await expect(panel).not.toContainText('pendiente de enviar', { timeout: 20_000 });
  await expect(panel).toContainText('Aviso «¿Todo bien?» a las');

  // Exactly one share reached the server; the partner was told.
  const listed = await request.get(`/api/quedadas/${quedadaId}/shares`, { headers: auth(a.token) });
  expect(((await listed.json()) as { shares: unknown[] }).shares).toHaveLength(1);
  await expect
    .poll(async () => {
      const notifications = await request.get('/api/notifications', { headers: auth(b.token) });
      const body = (await notifications.json()) as { notifications: { title: string }[] };
      return body.notifications.filter((n) => n.title === 'Entreno compartido').length;
    })
    .toBe(1);

  // Over, the quedada stays in «Próximos entrenos» while its «¿Todo bien?» waits: the check-in «Al
  // terminar» comes when the quedada is no longer upcoming (decision 0054, session 17).
  await pageA.clock.setFixedTime(new Date(Date.now() + 105 * 60_000));
  await pageA.reload();
  await expect(card).toContainText('Entreno con Marcos');
  await expect(panel.getByRole('group', { name: '¿Todo bien?' })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Compartir con alguien de confianza' })).toHaveCount(0);

  // The trusted contact: no account, a browser of their own.
  const contact = await browser.newContext();
  const pageC = await contact.newPage();
  await pageC.setViewportSize(PHONE);
  await pageC.emulateMedia({ reducedMotion: 'reduce' });
  await pageC.goto(new URL(link).pathname);
  await expect(pageC.getByRole('heading', { name: 'Lucía ha compartido su entreno contigo' })).toBeVisible();
  await expect(pageC.getByTestId('shared-partner')).toContainText('Con Marcos');
  await expect(pageC.getByText('Altafit Argüelles, Calle de la Princesa 47, Madrid')).toBeVisible();
  await expect(pageC.getByText('Pierna')).toBeVisible();
  await expect(pageC.getByTestId('shared-check-in')).toContainText('preguntaremos a Lucía «¿Todo bien?»');
  await pageC.screenshot({ path: 'test-results/quedada-share-page-390.png' });
  expect(await seriousViolations(pageC)).toEqual([]);

  // Revoked: the page stops showing it.
  await panel.getByRole('button', { name: 'Revocar enlace' }).click();
  await expect(panel.getByLabel('Enlace para compartir')).toHaveCount(0);
  await expect
    .poll(async () => (await request.get(`/api/shared/${new URL(link).pathname.split('/').pop()}`)).status(), {
      timeout: 20_000,
    })
    .toBe(404);
  await pageC.reload();
  await expect(pageC.getByText('Este enlace no existe, se ha revocado o ya ha caducado')).toBeVisible();
  await contact.close();
  await pageA.context().close();
});
