import { readFileSync } from 'node:fs';
import { seriousViolations } from './helpers/axe.ts';
import { pageFor, userWithProfile } from './helpers/chat-setup.ts';
import { sessionWithMember } from './helpers/open-sessions.ts';
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

/**
 * After the session (docs/decisions/0055, sessions 15 and 16): each one marks «¿Quién vino?» (the
 * host offline: the outbox sends it once when the network returns), the marks count for reliability,
 * the member connects with the host (offline too: one match), and the host repeats the session next
 * week in one tap; the member, invited, is in at once («Unirme», though the host approves everyone
 * else).
 */
test('after an open session: «¿Quién vino?» (offline too) counts for reliability; «Repetir la próxima semana»', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const [host, member] = await Promise.all([userWithProfile(request, 'Lucía'), userWithProfile(request, 'Marcos')]);
  // Not matched (the session is for people nearby); under host approval, so that the repeat's
  // invitee is seen to be in at once («Unirme», not «Solicitar»).
  const { sessionId } = await sessionWithMember(request, host, member, { approval: 'host', visibility: 'nearby' });
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  // The session "happens": a development tool moves it so that it ended a minute ago.
  const rewound = await request.post(`/api/dev/open-sessions/${sessionId}/rewind`, { headers: auth(host.token) });
  expect(rewound.status(), await rewound.text()).toBe(200);

  const pageM = await pageFor(browser, member);
  await pageM.setViewportSize(PHONE);
  await pageM.emulateMedia({ reducedMotion: 'reduce' });
  await pageM.goto(`/entrenos/abiertos/${sessionId}`);
  const whoCameM = pageM.getByRole('region', { name: '¿Quién vino?' });
  await expect(whoCameM.getByTestId('attendance-person')).toHaveText(/Lucía \(organiza\)/);
  // Nothing to leave once it is over.
  await expect(pageM.getByRole('button', { name: 'Salir' })).toHaveCount(0);
  await whoCameM
    .getByRole('group', { name: '¿Vino Lucía?' })
    .getByRole('button', { name: 'Vino', exact: true })
    .click();
  await expect(whoCameM.getByRole('button', { name: 'Vino', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await pageM.screenshot({ path: 'test-results/open-session-who-came-390.png', fullPage: true });
  expect(await seriousViolations(pageM)).toEqual([]);

  // The host marks offline: shown at once, sent once when the network returns.
  const pageH = await pageFor(browser, host);
  await pageH.setViewportSize(PHONE);
  await pageH.emulateMedia({ reducedMotion: 'reduce' });
  await pageH.goto(`/entrenos/abiertos/${sessionId}`);
  const whoCameH = pageH.getByRole('region', { name: '¿Quién vino?' });
  await expect(whoCameH.getByTestId('attendance-person')).toHaveText(/Marcos/);
  await pageH.context().setOffline(true);
  await whoCameH.getByRole('button', { name: 'Vino', exact: true }).click();
  await expect(whoCameH.getByRole('button', { name: 'Vino', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await pageH.context().setOffline(false);
  const marksOf = async (user: typeof host) => {
    const read = await request.get(`/api/open-sessions/${sessionId}/attendance`, { headers: auth(user.token) });
    return ((await read.json()) as { attendance?: { people: { came: boolean | null }[] } }).attendance?.people;
  };
  await expect.poll(() => marksOf(host)).toEqual([expect.objectContaining({ came: true })]);
  expect(await marksOf(member)).toEqual([expect.objectContaining({ came: true })]);
  // Each came, as the other says: one more kept for both.
  for (const user of [host, member]) {
    const reliability = await request.get(`/api/quedadas/reliability/${user.userId}`, { headers: auth(user.token) });
    expect(((await reliability.json()) as { reliability: unknown }).reliability).toEqual({ kept: 1, counted: 1 });
  }

  // Both came: Marcos connects with Lucía (a match without the deck) offline; sent once, one match.
  await pageM.reload();
  const connect = whoCameM.getByRole('button', { name: 'Conectar con Lucía' });
  await expect(connect).toBeVisible();
  await pageM.context().setOffline(true);
  await connect.click();
  await expect(connect).toHaveText('Conectando…');
  await pageM.context().setOffline(false);
  const chat = whoCameM.getByRole('link', { name: 'Abrir chat con Lucía' });
  await expect(chat).toBeVisible({ timeout: 20_000 });
  await pageM.screenshot({ path: 'test-results/open-session-connected-390.png', fullPage: true });
  expect(await seriousViolations(pageM)).toEqual([]);
  const matchesOf = async (user: typeof host) => {
    const listed = await request.get(`/api/swipes/users/${user.userId}/matches`, { headers: auth(user.token) });
    return ((await listed.json()) as { matches: { conversationId: string }[] }).matches.map((m) => m.conversationId);
  };
  const [conversationId] = await matchesOf(member);
  expect(await chat.getAttribute('href')).toBe(`/messages/${conversationId}`);
  expect(await matchesOf(host)).toEqual([conversationId]);
  await expect
    .poll(async () => {
      const listed = await request.get('/api/notifications', { headers: auth(host.token) });
      const titles = ((await listed.json()) as { notifications: { title: string }[] }).notifications;
      return titles.filter((n) => n.title === '¡Nuevo Entrenamiento!').length;
    })
    .toBe(1);

  // «Repetir la próxima semana»: one tap, then the new session.
  await pageH.getByRole('button', { name: 'Repetir la próxima semana' }).click();
  await pageH.getByRole('link', { name: 'Ver el entreno de la próxima semana' }).click();
  await expect(pageH.getByTestId('open-session-state')).toHaveText('Lo organizas tú');
  const repeatId = pageH.url().split('/').pop() ?? '';
  expect(repeatId).not.toBe(sessionId);
  await pageH.screenshot({ path: 'test-results/open-session-repeated-390.png', fullPage: true });
  const mine = await request.get('/api/open-sessions/mine', { headers: auth(host.token) });
  const upcoming = ((await mine.json()) as { sessions: { _id: string; activity: string }[] }).sessions;
  expect(upcoming.filter((session) => session._id === repeatId)).toEqual([
    expect.objectContaining({ activity: 'Pierna' }),
  ]);
  expect(upcoming).toHaveLength(1);

  // Marcos is invited, and in at once.
  await expect
    .poll(async () => {
      const listed = await request.get('/api/notifications', { headers: auth(member.token) });
      return ((await listed.json()) as { notifications: { title: string }[] }).notifications.map((n) => n.title);
    })
    .toContain('Repetimos entreno');
  await pageM.goto(`/entrenos/abiertos/${repeatId}`);
  await expect(pageM.getByTestId('open-session-invitation')).toHaveText(
    'Lucía te invitó a repetir este entreno: al unirte entras directamente.',
  );
  await expect(pageM.getByRole('button', { name: 'Solicitar' })).toHaveCount(0);
  await pageM.getByRole('button', { name: 'Unirme' }).click();
  await expect(pageM.getByTestId('open-session-state')).toHaveText('Estás dentro');
});
