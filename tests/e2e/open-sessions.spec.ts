import { readFileSync } from 'node:fs';
import { seriousViolations } from './helpers/axe.ts';
import { pageFor, userWithProfile } from './helpers/chat-setup.ts';
import { remoteSpot } from './helpers/spots.ts';
import { expect, test, SERVICE_WORKER } from './helpers/test.ts';

const PHONE = { width: 390, height: 844 };

/** «Entrenos abiertos» (issue #35, docs/decisions/0055): a host publishes offline, someone nearby finds it, asks offline, is approved. */
test('a host publishes an open session offline; someone nearby asks offline (replayed once) and the host approves', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  test.setTimeout(120_000);
  // A spot of their own: nobody else's open sessions (an earlier run's, a retry's) in the guest's list.
  const spot = remoteSpot('Toledo');
  const host = await userWithProfile(request, 'Lucía', spot);
  const guest = await userWithProfile(request, 'Marta', spot);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  const pageH = await pageFor(browser, host);
  await pageH.setViewportSize(PHONE);
  await pageH.emulateMedia({ reducedMotion: 'reduce' });
  await pageH.goto('/entrenos');
  await expect(pageH.getByRole('heading', { name: 'Próximos entrenos' })).toBeVisible();
  await pageH.screenshot({ path: 'test-results/entrenos-open-sessions-entry-390.png' });
  await pageH.getByRole('link', { name: 'Publicar entreno abierto' }).click();
  await expect(pageH.getByRole('heading', { name: 'Publicar entreno abierto' })).toBeVisible();
  await pageH.getByLabel('Gimnasio o lugar').fill('Altafit Argüelles');
  await pageH.getByLabel('Qué vais a entrenar').fill('Pierna');
  await pageH.getByRole('button', { name: 'Todos los niveles' }).click();
  await pageH.screenshot({ path: 'test-results/open-session-publish-390.png', fullPage: true });
  expect(await seriousViolations(pageH)).toEqual([]);
  // Published offline: it waits in the outbox, shown as pending; back online it is sent once.
  await pageH.context().setOffline(true);
  await pageH.getByRole('button', { name: 'Publicar', exact: true }).click();
  await expect(pageH.getByRole('heading', { name: 'Entrenos abiertos', exact: true })).toBeVisible();
  await expect(pageH.getByTestId('open-session-pending')).toContainText('Pendiente de enviar');
  await pageH.context().setOffline(false);
  const own = pageH.getByTestId('open-session').filter({ hasText: 'Lo organizas tú' });
  await expect(own).toContainText('Pierna', { timeout: 20_000 });
  await expect(pageH.getByTestId('open-session-pending')).toHaveCount(0);
  const mine = await request.get('/api/open-sessions/mine', { headers: auth(host.token) });
  expect(((await mine.json()) as { sessions: unknown[] }).sessions).toHaveLength(1);

  const pageG = await pageFor(browser, guest);
  await pageG.setViewportSize(PHONE);
  await pageG.emulateMedia({ reducedMotion: 'reduce' });
  await pageG.goto('/entrenos/abiertos');
  const card = pageG.getByRole('list', { name: 'Entrenos abiertos cerca' }).getByTestId('open-session');
  await expect(card.filter({ hasText: 'Con Lucía' })).toContainText('A menos de 1 km');
  await pageG.screenshot({ path: 'test-results/open-session-list-390.png', fullPage: true });
  expect(await seriousViolations(pageG)).toEqual([]);
  await card.filter({ hasText: 'Con Lucía' }).click();
  await expect(pageG.getByRole('button', { name: 'Solicitar' })).toBeVisible();

  // Offline: the request shows at once and waits in the outbox; back online it is sent once.
  await pageG.context().setOffline(true);
  await pageG.getByLabel('Mensaje para quien organiza (opcional)').fill('¡Me apunto!');
  await pageG.getByRole('button', { name: 'Solicitar' }).click();
  await expect(pageG.getByTestId('open-session-state')).toHaveText('Solicitud enviada');
  await pageG.context().setOffline(false);
  const sessionId = pageG.url().split('/').pop() ?? '';
  await expect
    .poll(async () => {
      const members = await request.get(`/api/open-sessions/${sessionId}/members`, { headers: auth(host.token) });
      return ((await members.json()) as { members?: { state: string }[] }).members?.length ?? -1;
    })
    .toBe(1);

  // The host sees who asks and why they fit, and approves.
  await own.click();
  const requests = pageH.getByRole('region', { name: 'Solicitudes y participantes' });
  await expect(requests).toContainText('Marta');
  await expect(requests).toContainText('Por qué encajáis');
  await expect(requests).toContainText('«¡Me apunto!»');
  await pageH.screenshot({ path: 'test-results/open-session-host-390.png', fullPage: true });
  expect(await seriousViolations(pageH)).toEqual([]);
  await requests.getByRole('button', { name: 'Aprobar' }).click();
  await expect(requests).toContainText('Dentro');

  // The guest hears it live.
  await expect(pageG.getByTestId('open-session-state')).toHaveText('Estás dentro');
  await expect(pageG.getByRole('button', { name: 'Salir' })).toBeVisible();
  await pageG.screenshot({ path: 'test-results/open-session-detail-390.png', fullPage: true });

  // Now in it, «Añadir al calendario» hands the session to the phone's calendar as an .ics.
  const [download] = await Promise.all([
    pageG.waitForEvent('download'),
    pageG.getByRole('button', { name: 'Añadir al calendario' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^entreno-abierto-\d{4}-\d{2}-\d{2}\.ics$/);
  const ics = readFileSync((await download.path()) as string, 'utf8').replace(/\r\n /g, '');
  expect(ics).toContain('SUMMARY:Entreno abierto · ');
  expect(ics).toContain(`/entrenos/abiertos/${sessionId}`);
});
