import { expect, test } from './helpers/test.ts';
import { matchedPair, matchUsers, pageFor, sendMessage, userWithProfile } from './helpers/chat-setup.ts';

test('two matched users chat live: message, typing, read receipt and list order', async ({ browser, request }) => {
  const { a, b, conversationId } = await matchedPair(request);
  const pageA = await pageFor(browser, a);
  const pageB = await pageFor(browser, b);

  await pageA.goto(`/messages/${conversationId}`);
  await expect(pageA.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await pageB.goto('/messages');
  await expect(pageB.getByText('Lucía')).toBeVisible();

  const input = pageA.getByPlaceholder('Escribe un mensaje...');
  const send = pageA.getByRole('button', { name: /enviar/i });
  await expect(send).toBeDisabled();
  await input.fill('   ');
  await expect(send).toBeDisabled();
  await input.fill('¿Entrenamos mañana a las 8?');
  await send.click();
  await expect(pageA.getByText('¿Entrenamos mañana a las 8?')).toBeVisible();
  await expect(pageA.getByText(/(Enviado|Entregado)$/)).toBeVisible();

  // B sees the conversation move up with its preview, without a reload.
  await expect(pageB.getByText('¿Entrenamos mañana a las 8?')).toBeVisible();

  // B opens it and types: A sees the typing indicator, then the read receipt.
  await pageB.goto(`/messages/${conversationId}`);
  await expect(pageB.getByText('¿Entrenamos mañana a las 8?')).toBeVisible();
  await expect(pageA.getByText('Leído')).toBeVisible();
  await pageB.getByPlaceholder('Escribe un mensaje...').pressSequentially('Vale', { delay: 50 });
  await expect(pageA.getByText('Marcos está escribiendo...').first()).toBeVisible();
  await pageB.getByRole('button', { name: /enviar/i }).click();
  await expect(pageA.getByText('Vale', { exact: true })).toBeVisible();
});

test('a conversation opened from /matches works: the card’s chat button, then a live message', async ({
  browser,
  request,
}) => {
  const { a, b, conversationId } = await matchedPair(request);
  const pageA = await pageFor(browser, a);
  const pageB = await pageFor(browser, b);
  await pageB.goto(`/messages/${conversationId}`);
  await expect(pageB.getByRole('heading', { name: 'Lucía' })).toBeVisible();

  await pageA.goto('/matches');
  const card = pageA.getByRole('listitem').filter({ hasText: 'Marcos' });
  const open = card.getByRole('link', { name: 'Iniciar chat' });
  await expect(open).toBeVisible({ timeout: 15_000 });
  await open.click();
  await expect(pageA).toHaveURL(new RegExp(`/messages/${conversationId}$`));
  await expect(pageA.getByRole('heading', { name: 'Marcos' })).toBeVisible();

  await pageA.getByPlaceholder('Escribe un mensaje...').fill('¿Hacemos pierna el jueves?');
  await pageA.getByRole('button', { name: /enviar/i }).click();
  await expect(pageB.getByText('¿Hacemos pierna el jueves?')).toBeVisible({ timeout: 15_000 });
  // Marcos has it open: Lucía sees it read.
  await expect(pageA.getByTestId('message-status')).toHaveText(/Leído/, { timeout: 15_000 });

  // Back on /matches, the card now says "Continuar chat" (spec 001 §2, from the match's last
  // message) and opens the same conversation, with its history.
  await pageA.goto('/matches');
  const resume = pageA
    .getByRole('listitem')
    .filter({ hasText: 'Marcos' })
    .getByRole('link', { name: 'Continuar chat' });
  await expect(resume).toBeVisible({ timeout: 15_000 });
  await resume.click();
  await expect(pageA).toHaveURL(new RegExp(`/messages/${conversationId}$`));
  await expect(pageA.getByText('¿Hacemos pierna el jueves?')).toBeVisible({ timeout: 15_000 });
});

test('the /messages list reorders live when a message arrives in a conversation below the top', async ({
  browser,
  request,
}) => {
  const { a, b, conversationId } = await matchedPair(request);
  const carla = await userWithProfile(request, 'Carla');
  const withCarla = await matchUsers(request, carla, b);
  // Carla wrote last: her conversation is on top of Marcos's list.
  await sendMessage(request, carla, b, withCarla, 'Te guardo la barra');

  const pageB = await pageFor(browser, b);
  await pageB.goto('/messages');
  const order = () =>
    pageB
      .getByTestId('conversation-item')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-conversation-id')));
  await expect.poll(order, { timeout: 15_000 }).toEqual([withCarla, conversationId]);
  // Live: the socket is up (the list hides the banner once connected).
  await expect(pageB.getByTestId('connection-banner')).toBeHidden({ timeout: 15_000 });

  const pageA = await pageFor(browser, a);
  await pageA.goto(`/messages/${conversationId}`);
  await expect(pageA.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await pageA.getByPlaceholder('Escribe un mensaje...').fill('Voy a las siete');
  await pageA.getByRole('button', { name: /enviar/i }).click();

  // Without a reload, Lucía's conversation moves to the top with its preview and one unread.
  await expect.poll(order, { timeout: 15_000 }).toEqual([conversationId, withCarla]);
  const top = pageB.getByTestId('conversation-item').first();
  await expect(top.getByTestId('conversation-preview')).toHaveText('Voy a las siete');
  await expect(top.getByTestId('unread-badge')).toContainText('1');
});

test('an unsent draft survives a reload (a new version applied under it) and stays with its conversation', async ({
  browser,
  request,
}) => {
  const { a, conversationId } = await matchedPair(request);
  const page = await pageFor(browser, a);
  await page.goto(`/messages/${conversationId}`);
  const input = page.getByPlaceholder('Escribe un mensaje...');
  await input.fill('Mañana no puedo, ¿el sábado a las 10?');
  await page.reload();
  await expect(input).toHaveValue('Mañana no puedo, ¿el sábado a las 10?');
  await input.fill('');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Marcos' })).toBeVisible();
  await expect(input).toHaveValue('');
});
