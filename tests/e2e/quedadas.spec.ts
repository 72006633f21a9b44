import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { seriousViolations } from './helpers/axe.ts';
import { matchedPair, pageFor } from './helpers/chat-setup.ts';
import { expect, test, SERVICE_WORKER } from './helpers/test.ts';

const PHONE = { width: 390, height: 844 };

/** The Madrid day after tomorrow as "YYYY-MM-DD" (the form's date field). */
function madridDayAfterTomorrow(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(Date.now() + 2 * 86_400_000);
}

test('a quedada from proposal to streak in two browsers: propose, counter, accept offline, .ics, confirm both', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { a, b, conversationId } = await matchedPair(request);
  const pageA = await pageFor(browser, a);
  const pageB = await pageFor(browser, b);
  await pageA.setViewportSize(PHONE);
  await pageB.setViewportSize(PHONE);
  // Marcos uses the dark theme; both without motion, so axe never measures a fade.
  await pageB.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
  for (const page of [pageA, pageB]) await page.emulateMedia({ reducedMotion: 'reduce' });
  const violations: string[] = [];
  await pageA.goto(`/messages/${conversationId}`);
  await pageB.goto(`/messages/${conversationId}`);
  await expect(pageA.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect(pageB.getByRole('heading', { name: 'Lucía' })).toBeVisible();

  // Lucía proposes: the gym of both profiles is offered first, the shared slot is named.
  await pageA.getByRole('button', { name: 'Proponer entreno' }).click();
  const dialog = pageA.getByRole('dialog', { name: 'Proponer entreno' });
  await expect(dialog.getByText('Los dos podéis: lunes por la mañana')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Altafit Argüelles' })).toHaveAttribute('aria-pressed', 'true');
  const day = madridDayAfterTomorrow();
  await dialog.getByLabel('Día').fill(day);
  await dialog.getByLabel('Hora').fill('18:00');
  await dialog.getByLabel('Duración').selectOption('90');
  await dialog.getByLabel('Qué vais a entrenar').fill('Pierna');
  await dialog.getByLabel('Nota (opcional)').fill('Llevo la cuerda');
  await pageA.screenshot({ path: 'test-results/quedadas-propose-390.png' });
  violations.push(...(await seriousViolations(pageA)));
  await dialog.getByRole('button', { name: 'Proponer', exact: true }).click();
  const cardA = pageA.getByTestId('quedada-card');
  await expect(cardA).toContainText('Has propuesto un entreno');
  await expect(cardA).toHaveAttribute('data-sync', 'synced');

  // Marcos sees it live and proposes another time.
  const cardB = pageB.getByTestId('quedada-card');
  await expect(cardB).toContainText('Lucía te propone entrenar');
  await expect(cardB).toContainText('Altafit Argüelles');
  await pageB.screenshot({ path: 'test-results/quedadas-card-390.png' });
  violations.push(...(await seriousViolations(pageB)));
  await cardB.getByRole('button', { name: 'Proponer otra hora' }).click();
  const counter = pageB.getByRole('dialog', { name: 'Proponer otra hora' });
  await counter.getByLabel('Hora').fill('19:30');
  await counter.getByRole('button', { name: 'Enviar nueva hora' }).click();
  await expect(cardB).toContainText('Has propuesto otra hora');

  // Lucía sees the counter-proposal with its history, and accepts while offline.
  await expect(cardA).toContainText('Marcos propone otra hora');
  await expect(cardA).toContainText('19:30');
  await cardA.getByText('Horas propuestas antes (1)').click();
  await expect(cardA.getByRole('list', { name: 'Historial de horas' })).toContainText('18:00');
  await pageA.context().setOffline(true);
  await cardA.getByRole('button', { name: 'Aceptar' }).click();
  await expect(cardA).toContainText('Pendiente de enviar');
  await expect(cardA).toHaveAttribute('data-status', 'accepted');
  await pageA.context().setOffline(false);
  await expect(cardA).toHaveAttribute('data-sync', 'synced', { timeout: 20_000 });
  await expect(cardB).toHaveAttribute('data-status', 'accepted');
  await expect(pageB.getByTestId('pair-line')).toContainText('Próximo entreno');

  // "Añadir al calendario": a real .ics with the gym, the agreed time and a reminder.
  const downloading = pageB.waitForEvent('download');
  await cardB.getByRole('button', { name: 'Añadir al calendario' }).click();
  const download = await downloading;
  const ics = await readFile((await download.path()) as string, 'utf8');
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent') ?? undefined);
  expect(event.location).toContain('Altafit Argüelles');
  expect(event.summary).toBe('Entreno con Lucía · Pierna');
  const madrid = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Madrid',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(event.startDate.toJSDate());
  expect(madrid).toBe(`${day}, 19:30`);
  expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(90 * 60_000);
  expect(event.component.getFirstSubcomponent('valarm')).not.toBeNull();

  // "Próximos entrenos" lists it (a page of its own, loaded directly).
  const pageC = await pageB.context().newPage();
  await pageC.setViewportSize(PHONE);
  await pageC.goto('/entrenos');
  await expect(pageC.getByRole('heading', { name: 'Próximos entrenos' })).toBeVisible();
  await expect(pageC.getByTestId('upcoming-quedada')).toContainText('Pierna');
  // With whom (issue #34), and a way back.
  await expect(pageC.getByTestId('upcoming-quedada')).toContainText('Entreno con Lucía');
  await pageC.getByRole('link', { name: 'Volver a Entrenamientos' }).click();
  await expect(pageC).toHaveURL(/\/matches$/);
  await pageC.goBack();
  await expect(pageC.getByTestId('upcoming-quedada')).toContainText('19:30');
  await pageC.screenshot({ path: 'test-results/quedadas-upcoming-390.png' });
  await pageC.close();

  // The session "happens" (a development tool moves it into the past), then both are asked.
  const listed = await request.get(`/api/quedadas?conversationId=${conversationId}`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
  const quedadaId = ((await listed.json()) as { quedadas: { _id: string }[] }).quedadas[0]?._id as string;
  const rewound = await request.post(`/api/dev/quedadas/${quedadaId}/rewind`, {
    headers: { authorization: `Bearer ${a.token}` },
  });
  expect(rewound.status(), await rewound.text()).toBe(200);
  await expect(cardA.getByRole('group', { name: '¿Entrenasteis juntos?' })).toBeVisible();
  await expect(cardB.getByRole('group', { name: '¿Entrenasteis juntos?' })).toBeVisible();
  await pageB.screenshot({ path: 'test-results/quedadas-confirm-390.png' });
  violations.push(...(await seriousViolations(pageB)), ...(await seriousViolations(pageA)));
  await cardA.getByRole('button', { name: 'Sí' }).click();
  await expect(cardA).toContainText('Falta la respuesta de Marcos');
  await cardB.getByRole('button', { name: 'Sí' }).click();
  await expect(cardB).toHaveAttribute('data-status', 'done');
  await expect(cardA).toHaveAttribute('data-status', 'done');
  await expect(pageA.getByTestId('pair-streak')).toHaveText('Racha de 1 semana entrenando juntos');
  await pageA.screenshot({ path: 'test-results/quedadas-streak-390.png' });

  // The match card shows the streak too, and Lucía's profile says how reliable Marcos is.
  await pageA.goto('/matches');
  const match = pageA.getByRole('listitem').filter({ hasText: 'Marcos' });
  await expect(match.getByTestId('pair-streak')).toHaveText('Racha de 1 semana entrenando juntos');
  await match
    .getByRole('button', { name: /Marcos/ })
    .first()
    .click();
  await expect(pageA.getByTestId('reliability-line')).toHaveText('1 de 1 quedada cumplida');
  expect(violations).toEqual([]);
});
