import { describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import type { RegistrationApi } from './registration-api.ts';
import { createRegistrationStore } from './registration-store.ts';

const USER = { userId: 'u1', name: 'Ana', lastName: '', email: 'ana@example.com' };

function setup(overrides: Partial<RegistrationApi> = {}) {
  let now = 1_000_000;
  const api: RegistrationApi = {
    checkEmail: vi.fn(async () => ({ exists: false })),
    sendCode: vi.fn(async () => {}),
    verifyCode: vi.fn(async () => {}),
    register: vi.fn(async () => {}),
    completeRegistration: vi.fn(async () => ({ token: 'a.b.c', user: USER })),
    googleSendCode: vi.fn(async () => {}),
    googleVerifyCode: vi.fn(async () => ({})),
    ...overrides,
  };
  const save = vi.fn();
  const signIn = vi.fn(async () => {});
  const waits: number[] = [];
  const store = createRegistrationStore({
    api,
    storage: { save },
    signIn,
    wait: async (ms) => {
      waits.push(ms);
    },
    now: () => now,
  });
  return { store, api, save, signIn, waits, tick: (ms: number) => (now += ms) };
}

async function walkToStep4(store: ReturnType<typeof setup>['store']) {
  store.actions.setField('name', 'Ana');
  store.actions.submitName();
  store.actions.setField('email', 'Ana@Example.com ');
  await store.actions.submitEmail();
  store.actions.setPhone('612 39 87 45');
  await store.actions.submitPhone();
}

describe('the e-mail wizard store', () => {
  it('registers, waits 1 s, logs in, stores in local storage, waits 500 ms, shows step 6', async () => {
    const { store, api, save, waits } = setup();
    await walkToStep4(store);
    expect(api.checkEmail).toHaveBeenCalledWith('ana@example.com');
    expect(api.sendCode).toHaveBeenCalledWith('+34612398745');
    expect(store.state.wizard.step).toBe(4);
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.submitCode();
    expect(api.verifyCode).toHaveBeenCalledWith('+34612398745', '123456');
    expect(store.state.wizard).toMatchObject({ step: 5, isPhoneVerified: true });

    store.actions.setField('password', 'corta');
    await store.actions.submitPassword();
    expect(store.state.errors.password).toBe('La contraseña no cumple los requisitos');
    store.actions.setField('password', 'Sentadillas&Cafe7');
    await store.actions.submitPassword();
    expect(api.register).toHaveBeenCalledWith({
      name: 'Ana',
      lastName: '',
      email: 'ana@example.com',
      phone: '+34612398745',
      password: 'Sentadillas&Cafe7',
    });
    expect(api.completeRegistration).toHaveBeenCalledWith('+34612398745', 'Sentadillas&Cafe7');
    expect(save).toHaveBeenCalledWith({ token: 'a.b.c', user: USER, area: 'local' });
    expect(waits).toEqual([1000, 500]);
    expect(store.state.wizard.step).toBe(6);
  });

  it('signs the new account in through the session layer, which posts the streak (spec 000 §1, §4)', async () => {
    const { store, save, signIn } = setup();
    await walkToStep4(store);
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.submitCode();
    store.actions.setField('password', 'Sentadillas&Cafe7');
    await store.actions.submitPassword();
    // The session layer's sign-in runs the listeners and posts the first day's streak at once,
    // so the layout says «¡Primer día!» without a new sign-in.
    expect(signIn).toHaveBeenCalledTimes(1);
    expect(signIn).toHaveBeenCalledWith({ token: 'a.b.c', user: USER, area: 'local' });
    expect(save.mock.invocationCallOrder[0]).toBeLessThan(signIn.mock.invocationCallOrder[0] as number);
  });

  it('validates name and surname before step 2', () => {
    const { store } = setup();
    store.actions.submitName();
    expect(store.state.errors.name).toBe('El campo Nombre es obligatorio');
    store.actions.setField('name', 'A'.repeat(21));
    store.actions.setField('lastName', 'B'.repeat(31));
    store.actions.submitName();
    expect(store.state.errors).toEqual({
      name: 'El campo Nombre no puede exceder los 20 caracteres',
      lastName: 'El campo Apellidos no puede exceder los 30 caracteres',
    });
    expect(store.state.wizard.step).toBe(1);
  });

  it('refuses an e-mail that already has an account, and says when the check fails', async () => {
    const { store } = setup({ checkEmail: async () => ({ exists: true }) });
    store.actions.setField('name', 'Ana');
    store.actions.submitName();
    store.actions.setField('email', 'no es correo');
    await store.actions.submitEmail();
    expect(store.state.errors.email).toBe('Por favor ingresa un Email válido');
    store.actions.setField('email', 'ana@example.com');
    await store.actions.submitEmail();
    expect(store.state.errors.email).toBe(
      'Ya existe una cuenta asociada a esta dirección. Por favor, inicia sesión o utiliza una dirección diferente',
    );
    expect(store.state.wizard.step).toBe(2);

    const failing = setup({ checkEmail: async () => Promise.reject(new ApiRequestError('network', '')) });
    failing.store.actions.setField('name', 'Ana');
    failing.store.actions.submitName();
    failing.store.actions.setField('email', 'ana@example.com');
    await failing.store.actions.submitEmail();
    expect(failing.store.state.errors.email).toBe(
      'Error al verificar la disponibilidad del Correo. Si el error persiste, contacta con soporte',
    );
  });

  it('shows the send-code error by errorType and stays on step 3', async () => {
    const blocked = new ApiRequestError('http', 'bloqueado', 400, 'PHONE_BLOCKED');
    const { store } = setup({ sendCode: async () => Promise.reject(blocked) });
    await walkToStep4(store);
    expect(store.state.wizard.step).toBe(3);
    expect(store.state.errors.phone).toMatch(/^Este número de teléfono ha sido temporalmente bloqueado/);
  });

  it("reads the number people type or paste, never cutting it to a stranger's 9 digits", async () => {
    const { store } = setup();
    store.actions.setPhone('+34 612-398-745');
    expect(store.state.form).toMatchObject({ phone: '+34 612-398-745', phoneDigits: '612398745' });
    store.actions.setPhone('+34 6123987');
    expect(store.state.form.phoneDigits).toBe('');
    store.actions.setPhone('+34 612-398-745 99');
    expect(store.state.form.phoneDigits).toBe('');
    store.actions.checkPhoneDigits();
    expect(store.state.errors.phone).toBe('El teléfono debe tener 9 dígitos');
    store.actions.setPhone('0034 612.398.745');
    store.actions.checkPhoneDigits();
    expect(store.state.form).toMatchObject({ phone: '612 398 745', phoneDigits: '612398745' });
    store.actions.setPhone('912 398 745');
    store.actions.checkPhoneDigits();
    expect(store.state.errors.phone).toBe('Debe ser un móvil: empieza por 6 o 7.');
    store.actions.setPhone('61239');
    await store.actions.submitPhone();
    expect(store.state.errors.phone).toBe('El teléfono debe tener 9 dígitos');
  });

  it("answers a refused code with 'Código inválido' and an incomplete one with the length rule", async () => {
    const refused = new ApiRequestError('http', 'Código inválido', 400, 'INVALID_CODE');
    const { store } = setup({ verifyCode: async () => Promise.reject(refused) });
    await walkToStep4(store);
    store.actions.setCode(['1', '2', '3', '', '', '']);
    await store.actions.submitCode();
    expect(store.state.errors.code).toBe('El código debe tener 6 dígitos');
    store.actions.setCode(['9', '9', '9', '9', '9', '9']);
    await store.actions.submitCode();
    expect(store.state.errors.code).toBe('Código inválido');
    expect(store.state.wizard.step).toBe(4);
  });

  it("says 'Error en la verificación' when verify-code fails without a message, and 'Error al verificar el código' with no answer", async () => {
    const answers = [
      new ApiRequestError('http', '', 503),
      new ApiRequestError('http', 'Servicio no disponible', 503),
      new ApiRequestError('network', ''),
    ];
    const { store } = setup({ verifyCode: async () => Promise.reject(answers.shift()) });
    await walkToStep4(store);
    const texts: (string | undefined)[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      store.actions.setCode(['9', '9', '9', '9', '9', '9']);
      await store.actions.submitCode();
      texts.push(store.state.errors.code);
    }
    expect(texts).toEqual(['Error en la verificación', 'Servicio no disponible', 'Error al verificar el código']);
    expect(store.state.wizard.step).toBe(4);
  });

  it('blocks resending for 60 s after a send', async () => {
    const { store, api, tick } = setup();
    await walkToStep4(store);
    await store.actions.resendCode();
    expect(api.sendCode).toHaveBeenCalledTimes(1);
    tick(60_000);
    await store.actions.resendCode();
    expect(api.sendCode).toHaveBeenCalledTimes(2);
  });

  it('after a failed login retries only the login, and reports it', async () => {
    let calls = 0;
    const { store, api } = setup({
      completeRegistration: async () => {
        calls += 1;
        if (calls === 1) throw new ApiRequestError('http', '', 500);
        return { token: 'a.b.c', user: USER };
      },
    });
    await walkToStep4(store);
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.submitCode();
    store.actions.setField('password', 'Sentadillas&Cafe7');
    await store.actions.submitPassword();
    expect(store.state.errors.form).toBe('Error al completar el registro');
    await store.actions.submitPassword();
    expect(api.register).toHaveBeenCalledTimes(1);
    expect(store.state.wizard.step).toBe(6);
  });

  it('shows the server message when registration is refused', async () => {
    const taken = new ApiRequestError('http', 'Este número de teléfono ya está asociado a otra cuenta.', 409);
    const { store } = setup({ register: async () => Promise.reject(taken) });
    await walkToStep4(store);
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.submitCode();
    store.actions.setField('password', 'Sentadillas&Cafe7');
    await store.actions.submitPassword();
    expect(store.state.errors.form).toBe('Este número de teléfono ya está asociado a otra cuenta.');
    expect(store.state.wizard.step).toBe(5);
  });

  it('goes back from 4 to 3 forgetting the verification, and from 5 to 3 when verified', async () => {
    const { store } = setup();
    await walkToStep4(store);
    store.actions.goBack();
    expect(store.state.wizard).toMatchObject({ step: 3, isPhoneVerified: false });
    await store.actions.submitPhone();
    store.actions.setCode(['1', '2', '3', '4', '5', '6']);
    await store.actions.submitCode();
    store.actions.goBack();
    expect(store.state.wizard).toMatchObject({ step: 3, isPhoneVerified: true });
    store.actions.setPhone('700000001');
    expect(store.state.form.phoneDigits).toBe('612398745');
    await store.actions.submitPhone();
    expect(store.state.wizard.step).toBe(5);
  });
});
