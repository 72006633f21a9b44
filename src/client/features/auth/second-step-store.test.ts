import { describe, expect, it, vi } from 'vitest';
import type { SecondStepChallenge } from '#shared/security/security-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { createLoginStore } from './login-store.ts';
import { CODE_REQUIRED, createSecondStepStore } from './second-step-store.ts';

const USER = {
  userId: '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  email: 'ana@example.com',
  name: 'Ana',
  lastName: 'García',
  phone: '+34600111222',
  createdAt: '2026-03-10T09:00:00.000Z',
  completeProfile: true,
  streak: 1,
  lastLoginDate: null,
};
const CHALLENGE: SecondStepChallenge = {
  success: true,
  secondStepRequired: true,
  message: 'Introduce el código',
  pendingToken: 'pending.token.value',
  methods: ['totp', 'recovery', 'sms'],
  phoneHint: '••• •• •• 22',
  expiresAt: '2026-03-10T09:10:00.000Z',
};

describe('login store with two-step on (docs/decisions/0032)', () => {
  it('hands the challenge over instead of storing a session', async () => {
    const signIn = vi.fn(async () => undefined);
    const onSecondStep = vi.fn();
    const store = createLoginStore({
      login: vi.fn(async () => CHALLENGE),
      signIn,
      onSecondStep,
      readLocation: async () => ({ latitude: 40.4, longitude: -3.7 }),
    });
    store.setEmail('ana@example.com');
    store.setPassword('Sentadillas&Cafe7');
    store.setRememberMe(true);
    expect(await store.submit()).toEqual({ outcome: 'second-step' });
    expect(signIn).not.toHaveBeenCalled();
    expect(onSecondStep).toHaveBeenCalledWith(CHALLENGE, 'local');
    expect(store.state.password).toBe('');
  });
});

describe('second-step store', () => {
  const setup = (complete = vi.fn(async () => ({ success: true as const, token: 't', message: 'ok', user: USER }))) => {
    const signIn = vi.fn(async () => undefined);
    const sendSms = vi.fn(async () => ({ message: 'Te hemos enviado un código por SMS.' }));
    const store = createSecondStepStore({ complete, sendSms, signIn });
    store.start(CHALLENGE, 'session');
    return { store, complete, signIn, sendSms };
  };

  it('asks for a code before calling the server', async () => {
    const { store, complete } = setup();
    expect(await store.submit()).toBe('failed');
    expect(store.state.status).toEqual({ status: 'error', message: CODE_REQUIRED });
    expect(complete).not.toHaveBeenCalled();
  });

  it('sends the method, the code and "Recordar este dispositivo", then stores the session where the login said', async () => {
    const { store, complete, signIn } = setup();
    store.setMethod('recovery');
    store.setCode('  abcde-fghjk ');
    store.setRememberDevice(true);
    expect(await store.submit()).toBe('signed-in');
    expect(complete).toHaveBeenCalledWith({
      pendingToken: CHALLENGE.pendingToken,
      method: 'recovery',
      code: 'abcde-fghjk',
      rememberDevice: true,
    });
    expect(signIn).toHaveBeenCalledWith({ token: 't', user: USER, area: 'session' });
    expect(store.state.challenge).toBeNull();
  });

  it('shows the server’s Spanish refusal and keeps the step open', async () => {
    const refusal = new ApiRequestError('http', 'El código no es correcto.', 400, 'INVALID_CODE');
    const { store } = setup(vi.fn(async () => Promise.reject(refusal)));
    store.setCode('000000');
    expect(await store.submit()).toBe('failed');
    expect(store.state.status).toEqual({ status: 'error', message: 'El código no es correcto.' });
    expect(store.state.challenge).not.toBeNull();
  });

  it('texts the fallback code and switches to the SMS method', async () => {
    const { store, sendSms } = setup();
    await store.sendSms();
    expect(sendSms).toHaveBeenCalledWith(CHALLENGE.pendingToken);
    expect(store.state.method).toBe('sms');
    expect(store.state.status).toEqual({ status: 'sent', message: 'Te hemos enviado un código por SMS.' });
  });
});
