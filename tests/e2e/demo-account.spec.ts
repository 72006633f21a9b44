import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServerProcess, type ServerProcess } from './helpers/server.ts';
import { expect, test } from './helpers/test.ts';

/**
 * #19 §4: `npm run seed` on a fresh install, then the README's demo account signs in through the
 * login screen and finds a living app: matches, conversations with unread messages, notifications
 * and an upcoming quedada.
 */
let server: ServerProcess;

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'entreno-e2e-demo-'));
  // The embedded PostgreSQL runs as its own user when the tests run as root: it must enter DATA_DIR.
  chmodSync(dataDir, 0o711);
  // The seed command itself (a few people keep it quick), on the data the server then opens.
  // Its own embedded database: not the shared PostgreSQL/Redis CI exports (empty counts as unset).
  execFileSync(process.execPath, ['--import', 'tsx', 'src/server/db/seed-cli.ts', '12'], {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  server = await startServerProcess({ dataDir });
});
test.afterAll(async () => {
  await server?.stop();
});

test('the demo account opens to matches, chats with unread messages, notifications and a quedada', async ({ page }) => {
  await page.goto(`${server.url}/login`);
  await page.getByLabel('Email').fill('demo@demo.entreno.app');
  await page.getByLabel('Contraseña', { exact: true }).fill('Pesas&Batidos24');
  await page.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await expect(page).toHaveURL(/\/home$/);

  await page.goto(`${server.url}/matches`);
  await expect(page.getByRole('heading', { name: 'Tus entrenamientos (4)' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Continuar chat/ }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: /Iniciar chat/ }).first()).toBeVisible();

  await page.goto(`${server.url}/messages`);
  await expect(page.getByText(/Mensajes \(\d+\)/).first()).toBeVisible();
  await expect(page.getByText('¿Calentamos juntos en la zona de cardio?')).toBeVisible();
  await expect(page.getByText('El sábado por la mañana suelo estar libre. ¡Hablamos!')).toBeVisible();

  await page.goto(`${server.url}/notifications`);
  await expect(page.getByText('¡Nuevo Entrenamiento!').first()).toBeVisible();
  await expect(page.getByRole('button', { name: /Marcar todas como leídas/ })).toBeEnabled();

  // The first conversation: messages both ways.
  await page.goto(`${server.url}/messages`);
  await page.getByText('¿Calentamos juntos en la zona de cardio?').click();
  await expect(page.getByText('Me apunto. ¿El jueves a las 7:30 te viene bien?')).toBeVisible();
  await expect(page.getByText(/Llevo la cinta para las sentadillas/)).toBeVisible();
  await page.screenshot({ path: 'test-results/demo-account-chat.png' });
});
