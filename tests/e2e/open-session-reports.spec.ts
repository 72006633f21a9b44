import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { ReportQueueItem } from '#shared/moderation/moderation-schemas';
import { registerAccount } from './helpers/accounts.ts';
import { seriousViolations } from './helpers/axe.ts';
import { matchUsers, pageFor, signIn, userWithProfile } from './helpers/chat-setup.ts';
import { grantModerator } from './helpers/moderator.ts';
import { sessionWithMember } from './helpers/open-sessions.ts';
import { expect, test } from './helpers/test.ts';

/** Where the 390 px screenshots go (SHOTS_DIR for the decision's note, else the run's results). */
const SHOTS = process.env.SHOTS_DIR ?? 'test-results';

async function shoot(page: Page, name: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    // Without motion the theme's colour transitions end at once, so the picture is of one theme.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expect(page.locator('html')).toHaveClass(colorScheme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${SHOTS}/${name}-${colorScheme}.png` });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/**
 * Reports of an open session and of a group chat's message, and a block inside the group (issue 35,
 * docs/decisions/0056, amendment of session 17), at 390 px: the member reports the session offline
 * (the outbox sends it once when the network returns), blocks another member (whose message turns
 * into «Mensaje oculto») and reports the host's message from the group chat; the moderator finds
 * both reports in the queue with what they are about, and removes the session from the report's page.
 */
test('reports from an open session and its group chat reach the console, which removes the session', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const [host, member, other] = await Promise.all([
    userWithProfile(request, 'Lucía'),
    userWithProfile(request, 'Marcos'),
    userWithProfile(request, 'Carlos'),
  ]);
  await Promise.all([matchUsers(request, host, member), matchUsers(request, host, other)]);
  const { sessionId, conversationId } = await sessionWithMember(request, host, member);
  const joined = await request.post(`/api/open-sessions/${sessionId}/join`, {
    data: { clientId: randomUUID() },
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(joined.status(), await joined.text()).toBe(200);
  const pushy = await request.post('/api/messages/messages', {
    data: { conversationId, text: '¿Me pasas tu número?' },
    headers: { authorization: `Bearer ${other.token}` },
  });
  expect(pushy.status(), await pushy.text()).toBe(201);
  const rude = 'Si no traes tu proteína no entras';
  const sent = await request.post('/api/messages/messages', {
    data: { conversationId, text: rude },
    headers: { authorization: `Bearer ${host.token}` },
  });
  expect(sent.status(), await sent.text()).toBe(201);
  const marta = await signIn(request, await registerAccount(request, { name: 'Marta' }));
  const isModerator = grantModerator(marta.email);
  isModerator.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled

  const page = await pageFor(browser, member);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/entrenos/abiertos/${sessionId}`);
  const reportSession = page.getByRole('button', { name: 'Denunciar este entreno' });
  await reportSession.scrollIntoViewIfNeeded();
  await expect(reportSession).toBeVisible();
  await shoot(page, 'session-report-entry');

  // Offline: the report waits in the outbox and says so; back online it is sent once.
  await page.context().setOffline(true);
  await reportSession.click();
  const sessionDialog = page.getByRole('dialog', { name: 'Denunciar este entreno' });
  await sessionDialog.getByRole('radio', { name: /Spam o venta/ }).check();
  await sessionDialog.getByLabel('Detalles (opcional)').fill('Vende batidos en la nota');
  await shoot(page, 'session-report-sheet');
  expect(await seriousViolations(page)).toEqual([]);
  await sessionDialog.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(page.getByText('Denuncia guardada: se enviará en cuanto vuelva la conexión.')).toBeVisible();
  await page.context().setOffline(false);

  // The group chat: Marcos blocks Carlos from «Más opciones del grupo»; both stay, Carlos's message
  // is hidden from Marcos.
  await page.goto(`/messages/${conversationId}`);
  await expect(page.getByText(rude)).toBeVisible();
  await page.getByRole('button', { name: 'Más opciones del grupo' }).click();
  await page.getByRole('menuitem', { name: 'Bloquear a alguien' }).click();
  const blockDialog = page.getByRole('dialog', { name: 'Bloquear a alguien del grupo' });
  await blockDialog.getByRole('radio', { name: 'Carlos' }).check();
  await shoot(page, 'group-block-sheet');
  await blockDialog.getByRole('button', { name: 'Bloquear a Carlos' }).click();
  await expect(page.getByText('Mensaje oculto: has bloqueado a esta persona.')).toBeVisible();
  await expect(page.getByText('¿Me pasas tu número?')).toHaveCount(0);
  await expect(page.getByTestId('group-members')).toContainText('3 miembros');
  await shoot(page, 'group-hidden-message');

  // «Denunciar»: Lucía and her message.
  await page.getByRole('button', { name: 'Más opciones del grupo' }).click();
  await expect(page.getByRole('menuitem', { name: 'Denunciar' })).toBeVisible();
  await shoot(page, 'group-report-menu');
  await page.getByRole('menuitem', { name: 'Denunciar' }).click();
  const groupDialog = page.getByRole('dialog', { name: 'Denunciar en este grupo' });
  await groupDialog.getByRole('radio', { name: 'Lucía' }).check();
  await groupDialog.getByLabel('Mensaje (opcional)').selectOption({ label: rude });
  await groupDialog.getByRole('radio', { name: /Acoso/ }).check();
  await shoot(page, 'group-report-sheet');
  expect(await seriousViolations(page)).toEqual([]);
  await groupDialog.getByRole('button', { name: 'Enviar denuncia' }).click();
  await expect(page.getByText('Denuncia enviada. La revisaremos lo antes posible.')).toBeVisible();

  // The console: both reports, each said what it is about, stored once.
  await isModerator;
  const queue = async () => {
    const answer = await request.get('/api/moderation/queue', { headers: { authorization: `Bearer ${marta.token}` } });
    return ((await answer.json()).reports as ReportQueueItem[]).filter(
      (item) => item.reporter?.userId === member.userId,
    );
  };
  await expect
    .poll(async () => (await queue()).map((item) => item.subject).sort())
    .toEqual(['groupMessage', 'openSession']);
  expect((await queue()).find((item) => item.subject === 'groupMessage')?.message?.text).toBe(rude);

  const desk = await pageFor(browser, marta);
  await desk.setViewportSize({ width: 390, height: 844 });
  await desk.goto('/moderacion');
  const item = desk.getByRole('listitem').filter({ hasText: '· entreno abierto' });
  await item.getByRole('link', { name: /Spam o venta: Lucía/ }).click();
  const section = desk.getByRole('region', { name: 'Entreno denunciado' });
  await section.scrollIntoViewIfNeeded();
  await expect(section).toContainText('Pierna');
  await shoot(desk, 'console-session-report');
  expect(await seriousViolations(desk)).toEqual([]);
  await section.getByRole('button', { name: 'Retirar el entreno' }).click();
  await expect(desk.getByTestId('reported-session-status')).toHaveText('Retirado');

  // The member's copy of the session hears of it.
  await page.goto(`/entrenos/abiertos/${sessionId}`);
  await expect(page.getByTestId('open-session-state')).toContainText(/retirado/i);
});
