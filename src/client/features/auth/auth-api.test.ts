import { beforeEach, describe, expect, it, vi } from 'vitest';

const requestJson = vi.fn();
vi.mock('../../services/http.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../services/http.ts')>()),
  requestJson: (...args: unknown[]) => requestJson(...args),
}));

const { INCOMPLETE_RESPONSE_MESSAGE, login, TOKEN_MISSING } = await import('./auth-api.ts');

const BODY = {
  email: 'ana@example.com',
  password: 'Sentadillas&Cafe7',
  rememberMe: false,
  latitude: 40,
  longitude: -3,
};
const USER = {
  userId: 'u1',
  name: 'Ana',
  lastName: '',
  email: 'ana@example.com',
  phone: '+34612398745',
  createdAt: '2026-03-10T09:00:00.000Z',
  completeProfile: false,
  streak: 0,
  lastLoginDate: null,
};

describe('POST /auth/login answers (spec 000 §5, §7)', () => {
  beforeEach(() => {
    requestJson.mockReset();
  });

  it('hands back a session with a token and a user', async () => {
    requestJson.mockResolvedValue({ success: true, token: 'a.b.c', message: 'ok', user: USER });
    await expect(login(BODY)).resolves.toMatchObject({ token: 'a.b.c', user: USER });
  });

  it('marks an answer without a token as token_missing, so the screen goes to /login?error=token_missing', async () => {
    requestJson.mockResolvedValue({ success: true, message: 'ok', user: USER });
    await expect(login(BODY)).rejects.toMatchObject({ errorType: TOKEN_MISSING, status: 200 });
    requestJson.mockResolvedValue({ success: true, token: '', message: 'ok', user: USER });
    await expect(login(BODY)).rejects.toMatchObject({ errorType: TOKEN_MISSING });
  });

  it('keeps "Respuesta del servidor incompleta" for a token without a user', async () => {
    requestJson.mockResolvedValue({ success: true, token: 'a.b.c', message: 'ok' });
    const refusal = login(BODY);
    await expect(refusal).rejects.toMatchObject({ message: INCOMPLETE_RESPONSE_MESSAGE });
    await expect(refusal).rejects.not.toMatchObject({ errorType: TOKEN_MISSING });
  });
});
