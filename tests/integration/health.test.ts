// @setup embedded
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

describe('foundation HTTP behaviour', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(
      {},
      {
        beforeListen: ({ http }) => {
          http.post('/api/__echo', async (request) => ({ received: request.body }));
          http.get('/api/__boom', async () => {
            throw new Error('secret internal detail');
          });
        },
      },
    );
  });
  afterAll(async () => {
    await app?.close();
  });

  it('reports health with the database and realtime kinds in use', async () => {
    const response = await fetch(`${app.url}/api/health`);
    expect(response.status).toBe(200);
    // Test apps reach the run's server by URL; tests/integration/embedded-postgres.test.ts starts the
    // app's own embedded server and sees 'embedded'.
    expect(await response.json()).toEqual({
      status: 'ok',
      database: 'postgres',
      realtime: app.config.redisUrl ? 'redis' : 'memory',
      mode: 'test',
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('reports readiness: the database answers with every migration applied, and Redis when configured', async () => {
    const response = await fetch(`${app.url}/api/ready`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'ok', redis: app.config.redisUrl ? 'ok' : 'absent', accepting: 'ok' },
    });
  });

  it('answers unknown API paths with a Spanish JSON 404', async () => {
    const response = await fetch(`${app.url}/api/does-not-exist`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, message: 'La ruta solicitada no existe' });
  });

  it('answers broken JSON with a Spanish 400', async () => {
    const response = await fetch(`${app.url}/api/__echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken": ',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      success: false,
      message: 'El cuerpo de la petición no es un JSON válido',
    });
  });

  it('answers an unsupported content type with a Spanish 415', async () => {
    const response = await fetch(`${app.url}/api/__echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown' },
      body: 'x',
    });
    expect(response.status).toBe(415);
    expect((await response.json()).message).toBe('Tipo de contenido no soportado');
  });

  it('hides internal errors behind a generic Spanish 500 without a stack trace', async () => {
    const response = await fetch(`${app.url}/api/__boom`);
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      success: false,
      message: 'Error interno del servidor. Por favor, intenta de nuevo más tarde.',
    });
    expect(text).not.toContain('secret internal detail');
  });
  // Last in the file: it turns this app's readiness off for good.
  it('answers readiness 503 with Retry-After once the node drains, while liveness stays 200', async () => {
    app.readiness.markDraining();
    const ready = await fetch(`${app.url}/api/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toMatchObject({ status: 'unavailable', checks: { accepting: 'draining' } });
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  });
});
