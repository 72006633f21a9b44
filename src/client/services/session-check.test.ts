import { beforeEach, describe, expect, it, vi } from 'vitest';

const requestJson = vi.fn();
vi.mock('./http.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./http.ts')>()),
  requestJson: (...args: unknown[]) => requestJson(...args),
}));

const { ApiRequestError } = await import('./http.ts');
const { validateSessionOnServer } = await import('./session.ts');

describe('GET /auth/validate-session as the session check reads it (decision 0044)', () => {
  beforeEach(() => {
    requestJson.mockReset();
  });

  it('keeps the session when the server answers 5xx or cannot be reached; 401 and 403 end it', async () => {
    for (const failure of [
      new ApiRequestError('http', 'Error interno del servidor', 500),
      new ApiRequestError('http', 'Servicio no disponible', 503),
      new ApiRequestError('network', ''),
      new ApiRequestError('timeout', ''),
    ]) {
      requestJson.mockRejectedValueOnce(failure);
      await expect(validateSessionOnServer(), `${failure.kind} ${failure.status}`).resolves.toEqual({
        status: 'unreachable',
      });
    }
    for (const status of [401, 403]) {
      requestJson.mockRejectedValueOnce(new ApiRequestError('http', 'Token inválido', status));
      await expect(validateSessionOnServer()).resolves.toEqual({ status: 'invalid' });
    }
  });
});
