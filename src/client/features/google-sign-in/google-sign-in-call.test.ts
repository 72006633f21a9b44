import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import { callGoogleSignIn, GoogleSignInError, googleBackoffMs } from './google-sign-in-call.ts';
import { googleSignInScreenMessage } from './google-sign-in-messages.ts';

const BODY = {
  googleId: '1087',
  email: 'lucia@example.com',
  name: 'Lucía',
  lastName: 'Martín',
  picture: '',
  credential: 'a.b.c',
};
const SESSION = { token: 'x.y.z', user: { userId: 'u1' } };

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Records when (in fake time) each attempt started. */
function scripted(outcomes: Array<Error | object>) {
  const startedAt: number[] = [];
  const post = vi.fn(async () => {
    startedAt.push(Date.now());
    const next = outcomes.shift();
    if (next instanceof Error) throw next;
    return next as { token?: unknown; user?: unknown };
  });
  return { post, startedAt };
}

describe('Google sign-in retries', () => {
  it('backs off 1500 ms × 1.5, capped at 4500 ms', () => {
    expect([1, 2, 3, 4, 5].map(googleBackoffMs)).toEqual([1500, 2250, 3375, 4500, 4500]);
  });

  it('retries a connection failure and a 500, then succeeds', async () => {
    const { post, startedAt } = scripted([
      new ApiRequestError('network', ''),
      new ApiRequestError('http', 'boom', 500),
      SESSION,
    ]);
    const start = Date.now();
    const result = callGoogleSignIn(BODY, { post, wait });
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual(SESSION);
    expect(post).toHaveBeenCalledWith(BODY);
    expect(startedAt.map((time) => time - start)).toEqual([0, 1500, 3750]);
  });

  it('gives up after 4 attempts with the service text', async () => {
    const { post, startedAt } = scripted(Array.from({ length: 6 }, () => new ApiRequestError('timeout', '')));
    const start = Date.now();
    const result = callGoogleSignIn(BODY, { post, wait });
    const settled = expect(result).rejects.toMatchObject({
      kind: 'network',
      message: 'No se pudo establecer conexión con el servidor. Por favor, intenta de nuevo en unos momentos.',
    });
    await vi.runAllTimersAsync();
    await settled;
    expect(post).toHaveBeenCalledTimes(4);
    expect(startedAt.map((time) => time - start)).toEqual([0, 1500, 3750, 7125]);
  });

  it('does not retry other statuses', async () => {
    const { post } = scripted([new ApiRequestError('http', '', 404)]);
    await expect(callGoogleSignIn(BODY, { post, wait })).rejects.toMatchObject({ kind: 'http', status: 404 });
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('needs a token and a user in the answer', async () => {
    const { post } = scripted([{ success: true, token: 'x.y.z' }]);
    await expect(callGoogleSignIn(BODY, { post, wait })).rejects.toMatchObject({
      kind: 'incomplete',
      message: 'Respuesta del servidor incompleta',
    });
  });
});

describe('what the screen says', () => {
  const http = (status: number, serverMessage?: string) =>
    new GoogleSignInError('http', 'service text', status, serverMessage);

  it('maps each status to the spec text', () => {
    expect(googleSignInScreenMessage(http(404))).toBe(
      'No se ha encontrado ninguna cuenta vinculada. Para continuar, registrate con Google',
    );
    expect(googleSignInScreenMessage(http(404), false)).toBe('Usuario no encontrado');
    expect(googleSignInScreenMessage(http(401))).toBe('Error al iniciar sesión con Google');
    expect(googleSignInScreenMessage(http(401, 'Token de Google caducado'))).toBe('Token de Google caducado');
    expect(googleSignInScreenMessage(http(403, 'x'))).toBe(
      'Error de verificación con Google. Si el error persiste contacta con soporte',
    );
    expect(googleSignInScreenMessage(http(500, 'sin claves'))).toBe('Error del servidor: sin claves');
    expect(googleSignInScreenMessage(http(500))).toBe('Error del servidor: Error desconocido');
    expect(googleSignInScreenMessage(http(429, 'Demasiadas solicitudes'))).toBe('Demasiadas solicitudes');
    expect(googleSignInScreenMessage(http(502))).toBe('service text');
    expect(
      googleSignInScreenMessage(
        new GoogleSignInError(
          'network',
          'No se pudo establecer conexión con el servidor. Por favor, intenta de nuevo en unos momentos.',
        ),
      ),
    ).toBe('Error de conexión. Por favor, verifica tu conexión a internet e intenta de nuevo.');
    expect(googleSignInScreenMessage(new Error('popup'))).toBe(
      'Error al iniciar sesión con Google. Por favor, intenta de nuevo más tarde.',
    );
  });
});
