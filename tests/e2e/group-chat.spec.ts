import { expect, test, SERVICE_WORKER } from './helpers/test.ts';
import { matchUsers, pageFor, userWithProfile } from './helpers/chat-setup.ts';
import { sessionWithMember } from './helpers/open-sessions.ts';

/**
 * An open session's group chat (issue 35, docs/decisions/0056), two Chromiums at 390 px: the host
 * publishes for their matches, a match joins (first come), both chat live in /messages/<id> —
 * title and members, the sender's name, who is typing, «Leído por N» — and the member leaves
 * (offline: the outbox sends it when the network returns).
 */
test('an open session’s group chat at 390 px: live messages, typing, «Leído por N», leave', {
  tag: SERVICE_WORKER,
}, async ({ browser, request }) => {
  const [host, member] = await Promise.all([userWithProfile(request, 'Lucía'), userWithProfile(request, 'Marcos')]);
  await matchUsers(request, host, member);
  const { sessionId, conversationId } = await sessionWithMember(request, host, member);

  const pageHost = await pageFor(browser, host);
  let pageMember = await pageFor(browser, member);
  for (const page of [pageHost, pageMember]) {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/messages/${conversationId}`);
    await expect(page.getByTestId('group-members')).toContainText('2 miembros: Tú');
  }

  await pageMember.getByPlaceholder('Escribe un mensaje...').fill('¿Quién trae la banda elástica?');
  await pageMember.getByRole('button', { name: /enviar/i }).click();
  // The host has it on screen: it arrives with Marcos's name, and reads it.
  await expect(pageHost.getByText('¿Quién trae la banda elástica?')).toBeVisible();
  await expect(pageHost.getByTestId('sender-name')).toHaveText('Marcos');
  await expect(pageMember.getByTestId('message-status')).toHaveText('· Leído por 1');

  await pageHost.getByPlaceholder('Escribe un mensaje...').pressSequentially('Yo la llevo', { delay: 50 });
  await expect(pageMember.getByText('Lucía está escribiendo...').first()).toBeVisible();
  await pageHost.getByRole('button', { name: /enviar/i }).click();
  await expect(pageMember.getByText('Yo la llevo', { exact: true })).toBeVisible();
  await pageMember.screenshot({ path: 'test-results/group-chat-390.png' });

  // Offline, the message waits in the outbox; back online it is sent once.
  await pageMember.context().setOffline(true);
  await pageMember.getByPlaceholder('Escribe un mensaje...').fill('Llego cinco minutos tarde');
  await pageMember.getByRole('button', { name: /enviar/i }).click();
  await expect(pageMember.getByText('Llego cinco minutos tarde')).toBeVisible();
  await pageMember.context().setOffline(false);
  await expect(pageHost.getByText('Llego cinco minutos tarde')).toBeVisible({ timeout: 20_000 });
  // Stored once under its clientId (the outbox's item, whichever way it went).
  const copies = async () => {
    const listed = await request.get(`/api/messages/conversations/${conversationId}/messages`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    const texts = ((await listed.json()).messages as { text: string }[]).map((message) => message.text);
    return texts.filter((text) => text === 'Llego cinco minutos tarde').length;
  };
  await expect(pageMember.getByTestId('message-status').last()).not.toHaveText(/Enviando|Error/);
  expect(await copies()).toBe(1);

  // /messages lists the group above the conversations: its title and the last message.
  await pageMember.goto('/messages');
  const listed = pageMember.getByTestId('group-item');
  await expect(listed).toContainText('Pierna');
  await expect(listed.getByTestId('group-preview')).toHaveText('Tú: Llego cinco minutos tarde');
  await expect(pageMember.getByRole('heading', { name: 'Mensajes (1)' })).toBeVisible();
  // Live: Lucía writes while Marcos is on /messages; the group's line and unread count follow.
  await pageHost.getByPlaceholder('Escribe un mensaje...').fill('Nos vemos en la puerta');
  await pageHost.getByRole('button', { name: /enviar/i }).click();
  await expect(listed.getByTestId('group-preview')).toHaveText('Lucía: Nos vemos en la puerta');
  await expect(listed.getByTestId('group-unread-badge')).toContainText('1');
  // The navigation's «Mensajes» badge counts the group's unread message too.
  const nav = pageMember.getByRole('navigation', { name: 'Navegación principal' });
  await expect(nav.getByRole('link', { name: /Mensajes/ })).toHaveAccessibleName(/: 1 sin leer/);
  await expect(pageMember.getByRole('heading', { name: 'Mensajes (1)' })).toBeVisible();
  await pageMember.screenshot({ path: 'test-results/group-list-390.png' });

  // Away: Marcos's app is closed while Lucía writes. It opens again online (the sync brings the
  // group's message), then the signal goes: the thread still shows it under the group's title.
  const memberContext = pageMember.context();
  await pageMember.close();
  await pageHost.getByPlaceholder('Escribe un mensaje...').fill('Llevo agua para todos');
  await pageHost.getByRole('button', { name: /enviar/i }).click();
  await expect(pageHost.getByText('Llevo agua para todos')).toBeVisible();
  pageMember = await memberContext.newPage();
  const synced = pageMember.waitForResponse((response) => /\/api\/sync\b/.test(response.url()) && response.ok());
  await pageMember.goto('/messages');
  await synced;
  await memberContext.setOffline(true);
  await pageMember.getByTestId('group-item').getByRole('link').click();
  await expect(pageMember.getByText('Llevo agua para todos')).toBeVisible();
  await expect(pageMember.getByRole('heading', { name: /Pierna/ })).toBeVisible();
  await expect(pageMember.getByTestId('group-members')).toContainText('2 miembros: Tú');
  await memberContext.setOffline(false);
  await expect(pageMember).toHaveURL(new RegExp(`/messages/${conversationId}$`));

  // The host has no «Salir» (they cancel the session); the member's «Salir» leaves the session too.
  await expect(pageHost.getByRole('button', { name: 'Silenciar' })).toBeVisible();
  await expect(pageHost.getByRole('button', { name: 'Salir' })).toHaveCount(0);
  // «Salir» with no signal: the thread is read-only at once, and the outbox sends the leave once
  // the network returns.
  await pageMember.context().setOffline(true);
  await pageMember.getByRole('button', { name: 'Salir' }).click();
  await expect(pageMember.getByText('Ya no formas parte de este grupo.')).toBeVisible();
  await pageMember.context().setOffline(false);
  await expect(pageHost.getByTestId('group-members')).toHaveText('1 miembro: Tú');
  const after = await request.get(`/api/open-sessions/${sessionId}`, {
    headers: { authorization: `Bearer ${member.token}` },
  });
  expect(((await after.json()) as { session: { myState: string } }).session.myState).toBe('left');
});
