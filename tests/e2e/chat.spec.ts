import { expect, test } from '@playwright/test';
import { matchedPair, pageFor } from './helpers/chat-setup.ts';

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
