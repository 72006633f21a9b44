import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import { createGoogleRegistrationStore, googleVerifyError, limitMessage } from './google-registration-store.ts';
import type { RegistrationApi } from './registration-api.ts';

const DATA = {
  sub: '1087',
  email: 'lucia@example.com',
  firstName: 'Lucía',
  lastName: 'Martín',
  picture: '',
  credential: 'h.p.s',
};
const USER = { userId: 'u1', name: 'Lucía', completeProfile: true };

function setup(overrides: Partial<RegistrationApi> = {}) {
  let now = 5_000_000;
  let stored: string | null = null;
  const api = {
    checkEmail: vi.fn(async () => ({ exists: false })),
    googleSendCode: vi.fn(async () => {}),
    googleVerifyCode: vi.fn(async () => ({ success: true, token: 't.o.k', user: USER })),
    ...overrides,
  } as unknown as RegistrationApi;
  const save = vi.fn((session: { token: string }) => {
    stored = session.token;
  });
  const signIn = vi.fn(async () => {});
  const store = createGoogleRegistrationStore({
    api,
    storage: { save, readToken: () => (stored ? { token: stored, area: 'session' } : null) },
    signIn,
    now: () => now,
  });
  store.actions.start(DATA);
  return { store, api, save, signIn, tick: (ms: number) => (now += ms) };
}

describe('the Google registration store', () => {
  it('validates the phone with the Google wording', async () => {
    const { store, api } = setup();
    await store.actions.sendCode();
    expect(store.state.phoneError).toEqual({ kind: 'invalid', message: 'El número de teléfono es obligatorio' });
    store.actions.setPhone('61234');
    await store.actions.sendCode();
    expect(store.state.phoneError).toEqual({ kind: 'invalid', message: 'El número debe tener 9 dígitos' });
    expect(api.googleSendCode).not.toHaveBeenCalled();
  });

  it('reads typed and pasted formats as the e-mail wizard does, and says why a number cannot be used', async () => {
    const { store, api } = setup();
    store.actions.setPhone('+34 6123987');
    await store.actions.sendCode();
    expect(store.state.phoneError).toEqual({ kind: 'invalid', message: 'El número debe tener 9 dígitos' });
    store.actions.setPhone('+33 612 39 87 45');
    await store.actions.sendCode();
    expect(store.state.phoneError).toEqual({ kind: 'invalid', message: 'Solo se admiten números de España (+34).' });
    store.actions.setPhone('0034 612-39-87-45');
    expect(store.state.phoneDigits).toBe('612398745');
    await store.actions.sendCode();
    expect(api.googleSendCode).toHaveBeenCalledWith('+34612398745', 'lucia@example.com', 'h.p.s');
  });

  it('sends, verifies, stores in both storages with completeProfile false, and succeeds', async () => {
    const { store, api, save } = setup();
    store.actions.setPhone('612398745');
    await store.actions.sendCode();
    expect(api.googleSendCode).toHaveBeenCalledWith('+34612398745', 'lucia@example.com', 'h.p.s');
    expect(store.state.step).toBe('code');
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.verifyCode();
    expect(api.googleVerifyCode).toHaveBeenCalledWith({
      phone: '+34612398745',
      code: '123456',
      googleId: '1087',
      email: 'lucia@example.com',
      firstName: 'Lucía',
      lastName: 'Martín',
      credential: 'h.p.s',
    });
    expect(save).toHaveBeenCalledWith({ token: 't.o.k', user: { ...USER, completeProfile: false }, area: 'both' });
    expect(store.state.step).toBe('success');
  });

  it('signs the new account in through the session layer, which posts the streak (spec 000 §1, §4)', async () => {
    const { store, signIn } = setup();
    store.actions.setPhone('612398745');
    await store.actions.sendCode();
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.verifyCode();
    expect(store.state.step).toBe('success');
    expect(signIn).toHaveBeenCalledTimes(1);
    expect(signIn).toHaveBeenCalledWith({ token: 't.o.k', user: { ...USER, completeProfile: false }, area: 'both' });
  });

  it('enters the limit state for 180 s on MAX_ATTEMPTS, and clears it at 0', async () => {
    const limited = new ApiRequestError('http', 'límite', 429, 'MAX_ATTEMPTS');
    const { store, api, tick } = setup({ googleSendCode: vi.fn(async () => Promise.reject(limited)) });
    store.actions.setPhone('612398745');
    await store.actions.sendCode();
    expect(store.state.phoneError).toEqual({ kind: 'limit', until: 5_000_000 + 180_000 });
    await store.actions.sendCode();
    expect(api.googleSendCode).toHaveBeenCalledTimes(1);
    tick(180_000);
    store.actions.clearExpiredLimit();
    expect(store.state.phoneError).toEqual({ kind: 'none' });
    expect(limitMessage(179)).toBe(
      'Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera 2 minutos y 59 segundos antes de intentarlo de nuevo.',
    );
  });

  it('tells blocked numbers and existing accounts apart', async () => {
    const blocked = new ApiRequestError('http', 'x', 400, 'PHONE_BLOCKED');
    const first = setup({ googleSendCode: vi.fn(async () => Promise.reject(blocked)) });
    first.store.actions.setPhone('666666666');
    await first.store.actions.sendCode();
    expect(first.store.state.phoneError.kind).toBe('blocked');

    const second = setup({ checkEmail: vi.fn(async () => ({ exists: true })) });
    second.store.actions.setPhone('612398745');
    await second.store.actions.sendCode();
    expect(second.store.state.phoneError).toEqual({
      kind: 'other',
      message:
        'Se ha encontrado una cuenta asociada a este correo de Google. Por favor, inicia sesión o usa otro correo.',
    });
  });

  it("says 'Error al verificar el email' when the e-mail check fails without a message", async () => {
    const failures = [
      new ApiRequestError('http', '', 502),
      new ApiRequestError('http', 'Demasiadas solicitudes. Espera un momento.', 429),
      new ApiRequestError('network', ''),
    ];
    const { store, api } = setup({ checkEmail: vi.fn(async () => Promise.reject(failures.shift())) });
    store.actions.setPhone('612398745');
    const texts: string[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await store.actions.sendCode();
      texts.push(store.state.phoneError.kind === 'other' ? store.state.phoneError.message : '');
    }
    expect(texts).toEqual([
      'Error al verificar el email',
      'Demasiadas solicitudes. Espera un momento.',
      'Error al verificar el email. Por favor, intenta de nuevo.',
    ]);
    expect(api.googleSendCode).not.toHaveBeenCalled();
    expect(store.state.step).toBe('phone');
  });

  it('empties the boxes on a refused code and keeps back disabled while loading', async () => {
    const refused = new ApiRequestError('http', 'Código inválido', 400, 'INVALID_CODE');
    const { store } = setup({ googleVerifyCode: vi.fn(async () => Promise.reject(refused)) });
    store.actions.setPhone('612398745');
    await store.actions.sendCode();
    store.actions.setCode(['9', '9', '9', '9', '9', '9']);
    await store.actions.verifyCode();
    expect(store.state.codeError).toBe('Código inválido');
    expect(store.state.code).toEqual(['', '', '', '', '', '']);
    expect(store.state.codeResets).toBe(1);
    store.actions.goBack();
    expect(store.state.step).toBe('phone');
    store.actions.goBack();
    expect(store.state.step).toBe('phone');
  });

  it('maps verify failures to the spec texts', () => {
    expect(googleVerifyError({ kind: 'http', status: 400, message: '' })).toBe(
      'Datos inválidos en el registro con Google',
    );
    expect(googleVerifyError({ kind: 'http', status: 500, message: 'x' })).toBe(
      'Error del servidor al procesar el registro. Por favor, intenta de nuevo más tarde',
    );
    expect(googleVerifyError({ kind: 'network', message: '' })).toBe(
      'Error de conexión. Verifica tu conexión a internet y vuelve a intentar',
    );
    expect(googleVerifyError({ kind: 'http', status: 418, message: 'x' })).toBe(
      'Error desconocido al procesar el registro con Google',
    );
  });
});
