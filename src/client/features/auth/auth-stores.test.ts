import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH_MESSAGES } from '#shared/auth/auth-messages';
import type { LoginResponse } from '#shared/auth/auth-schemas';
import { ApiRequestError } from '../../services/http.ts';
import { INCOMPLETE_RESPONSE_MESSAGE, TOKEN_MISSING } from './auth-api.ts';
import { AUTH_SCREEN_TEXTS } from './auth-texts.ts';
import { createDemoCycle, DEMO_INITIAL_DELAY_MS, DEMO_INTERVAL_MS } from './demo-cycle.ts';
import { createForgotPasswordStore } from './forgot-password-store.ts';
import { createLoginStore } from './login-store.ts';
import { canSubmitReset, createResetPasswordStore, resetErrorOutcome } from './reset-password-store.ts';

const ANSWER = { success: true, token: 'a.b.c', message: 'ok', user: { userId: 'u1' } } as unknown as LoginResponse;

function loginStore(login = vi.fn(async () => ANSWER)) {
  const signIn = vi.fn(async () => {});
  const readLocation = vi.fn(async () => ({ latitude: 40.4168, longitude: -3.7038 }));
  return { store: createLoginStore({ login, signIn, readLocation }), login, signIn };
}

describe('login store (spec 000 §2, §5)', () => {
  it('checks both fields with the spec texts and blocks the call', async () => {
    const { store, login } = loginStore();
    store.setEmail('no-es-un-email');
    store.setPassword('corta');
    await expect(store.submit()).resolves.toEqual({ outcome: 'invalid', firstInvalid: 'email' });
    expect(store.state.errors).toEqual({
      email: 'El email introducido no tiene la estructura correcta',
      password: 'La contraseña debe tener al menos 8 caracteres',
    });
    expect(store.hasErrors()).toBe(true);
    expect(login).not.toHaveBeenCalled();
  });

  it('clears a field error as soon as the person types in it', () => {
    const { store } = loginStore();
    store.setEmail('mal');
    store.checkField('email');
    expect(store.state.errors.email).toBeDefined();
    store.setEmail('mal@');
    expect(store.state.errors.email).toBeUndefined();
    expect(store.hasErrors()).toBe(false);
  });

  it('sends email, password, rememberMe and the location, then signs in where Recuérdame says', async () => {
    const { store, login, signIn } = loginStore();
    store.setEmail('  Lucia@Example.com ');
    store.setPassword('Sentadillas&Cafe7');
    store.setRememberMe(true);
    await expect(store.submit()).resolves.toEqual({ outcome: 'signed-in' });
    expect(login).toHaveBeenCalledWith({
      email: 'Lucia@Example.com',
      password: 'Sentadillas&Cafe7',
      rememberMe: true,
      latitude: 40.4168,
      longitude: -3.7038,
    });
    expect(signIn).toHaveBeenCalledWith({ token: 'a.b.c', user: ANSWER.user, area: 'local' });

    const other = loginStore();
    other.store.setEmail('a@b.co');
    other.store.setPassword('12345678');
    await other.store.submit();
    expect(other.signIn).toHaveBeenCalledWith(expect.objectContaining({ area: 'session' }));
  });

  it('answers a login without a token with the token-missing outcome (spec 000 §7), signing nobody in', async () => {
    const incomplete = new ApiRequestError('http', INCOMPLETE_RESPONSE_MESSAGE, 200, TOKEN_MISSING);
    const { store, signIn } = loginStore(vi.fn(async () => Promise.reject(incomplete)));
    store.setEmail('ana@example.com');
    store.setPassword('Sentadillas&Cafe7');
    await expect(store.submit()).resolves.toEqual({ outcome: 'token-missing' });
    expect(signIn).not.toHaveBeenCalled();
    expect(store.state.status).toEqual({ status: 'idle' });
  });

  it("shows the server's message for wrong credentials, and a connection text when offline", async () => {
    const refusing = loginStore(
      vi.fn(async () => {
        throw new ApiRequestError('http', AUTH_MESSAGES.loginFailed, 401);
      }),
    );
    refusing.store.setEmail('a@b.co');
    refusing.store.setPassword('12345678');
    await refusing.store.submit();
    expect(refusing.store.state.status).toEqual({ status: 'error', message: 'Email o contraseña incorrectos' });
    refusing.store.setPassword('123456789');
    expect(refusing.store.state.status).toEqual({ status: 'idle' });

    const offline = loginStore(
      vi.fn(async () => {
        throw new ApiRequestError('network', '');
      }),
    );
    offline.store.setEmail('a@b.co');
    offline.store.setPassword('12345678');
    await offline.store.submit();
    expect(offline.store.state.status).toEqual({ status: 'error', message: AUTH_SCREEN_TEXTS.connectionError });
  });

  it('keeps what the server says about a suspended account, so the screen can offer the appeal', async () => {
    const restriction = {
      kind: 'suspension',
      reason: 'Acoso',
      endsAt: '2026-12-01T10:00:00.000Z',
      canAppeal: true,
      appealToken: 't',
    };
    const message = 'Tu cuenta está suspendida hasta el 1 de diciembre de 2026, 11:00.';
    const refusing = loginStore(
      vi.fn(async () => {
        throw new ApiRequestError('http', message, 403, 'ACCOUNT_RESTRICTED', {
          success: false,
          message,
          errorType: 'ACCOUNT_RESTRICTED',
          restriction,
        });
      }),
    );
    refusing.store.setEmail('a@b.co');
    refusing.store.setPassword('12345678');
    await refusing.store.submit();
    expect(refusing.store.state.status).toEqual({ status: 'error', message, restriction });
    expect(refusing.signIn).not.toHaveBeenCalled();
  });
});

describe('forgot-password store', () => {
  it('validates, sends and keeps the address for the confirmation', async () => {
    const requestReset = vi.fn(async () => ({}));
    const store = createForgotPasswordStore({ requestReset });
    store.setEmail('mal');
    await expect(store.submit()).resolves.toBe('invalid');
    expect(store.state.emailError).toBe('El email introducido no tiene la estructura correcta');
    store.setEmail('Ana@Example.com');
    expect(store.state.emailError).toBeUndefined();
    await expect(store.submit()).resolves.toBe('sent');
    expect(requestReset).toHaveBeenCalledWith('ana@example.com');
    expect(store.state.status).toEqual({ status: 'sent', email: 'ana@example.com' });
  });

  it('shows the spec text when sending fails', async () => {
    const store = createForgotPasswordStore({
      requestReset: vi.fn(async () => {
        throw new ApiRequestError('network', '');
      }),
    });
    store.setEmail('ana@example.com');
    await store.submit();
    expect(store.state.status).toEqual({ status: 'error', message: AUTH_SCREEN_TEXTS.forgotFailed });
  });
});

describe('reset-password store (spec 000 §4 "Reset link", §8)', () => {
  const deps = () => ({
    validateLink: vi.fn(async () => true),
    resetPassword: vi.fn(async () => ({})),
    requestReset: vi.fn(async () => ({})),
  });

  it('treats a missing token or e-mail as an invalid link without asking the server', async () => {
    const calls = deps();
    const store = createResetPasswordStore({ token: undefined, email: 'a@b.co' }, calls);
    await expect(store.validate()).resolves.toBe('expired');
    expect(store.state.expiredMessage).toBe('Link de recuperación inválido');
    expect(calls.validateLink).not.toHaveBeenCalled();
  });

  it('is expired when the server says invalid or fails', async () => {
    const refused = createResetPasswordStore(
      { token: 't', email: 'a@b.co' },
      { ...deps(), validateLink: vi.fn(async () => false) },
    );
    await expect(refused.validate()).resolves.toBe('expired');
    const broken = createResetPasswordStore(
      { token: 't', email: 'a@b.co' },
      {
        ...deps(),
        validateLink: vi.fn(async () => {
          throw new Error('x');
        }),
      },
    );
    await expect(broken.validate()).resolves.toBe('expired');
  });

  it('submits only when both fields match and the rules hold, then succeeds', async () => {
    const calls = deps();
    const store = createResetPasswordStore({ token: 't', email: 'a@b.co' }, calls);
    await store.validate();
    store.setPassword('Sentadillas&Cafe7');
    store.setConfirmation('Sentadillas&Cafe');
    expect(canSubmitReset(store.state)).toBe(false);
    store.setConfirmation('Sentadillas&Cafe7');
    expect(canSubmitReset(store.state)).toBe(true);
    await expect(store.submit()).resolves.toBe('success');
    expect(calls.resetPassword).toHaveBeenCalledWith({ token: 't', email: 'a@b.co', newPassword: 'Sentadillas&Cafe7' });
  });

  it("shows the first rule's text for a weak password", async () => {
    const calls = deps();
    const store = createResetPasswordStore({ token: 't', email: 'a@b.co' }, calls);
    store.setPassword('sentadillas');
    store.setConfirmation('sentadillas');
    await expect(store.submit()).resolves.toBe('invalid');
    expect(store.state.formError).toBe('La contraseña debe contener mayúsculas y minúsculas');
    expect(calls.resetPassword).not.toHaveBeenCalled();
  });

  it('maps the server refusals of §8', () => {
    expect(resetErrorOutcome(new ApiRequestError('http', 'El enlace ha expirado', 400))).toEqual({
      isExpired: true,
      message: 'El enlace de restablecimiento de contraseña ha expirado. Por favor, solicita uno nuevo.',
    });
    expect(resetErrorOutcome(new ApiRequestError('http', 'Debe ser diferente a la actual', 400))).toEqual({
      isExpired: false,
      message: 'La nueva contraseña debe ser diferente a la actual',
    });
    expect(resetErrorOutcome(new ApiRequestError('http', '', 500))).toEqual({
      isExpired: false,
      message: 'Error al restablecer la contraseña',
    });
  });

  it('re-sends a link for the same address and reports both outcomes', async () => {
    const calls = deps();
    const store = createResetPasswordStore({ token: 't', email: 'a@b.co' }, calls);
    await expect(store.resend()).resolves.toBe('sent');
    expect(calls.requestReset).toHaveBeenCalledWith('a@b.co');
    const failing = createResetPasswordStore(
      { token: 't', email: 'a@b.co' },
      {
        ...deps(),
        requestReset: vi.fn(async () => {
          throw new Error('x');
        }),
      },
    );
    await expect(failing.resend()).resolves.toBe('error');
  });
});

describe('demo cycle (spec 000 §9: 800 ms, then every 3 s)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows the first card after 800 ms and advances every 3 s', () => {
    const onReady = vi.fn();
    const onStep = vi.fn();
    const cycle = createDemoCycle({ onReady, onStep });
    cycle.start();
    vi.advanceTimersByTime(DEMO_INITIAL_DELAY_MS - 1);
    expect(onReady).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onReady).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DEMO_INTERVAL_MS * 2);
    expect(onStep).toHaveBeenCalledTimes(2);
    cycle.stop();
    vi.advanceTimersByTime(DEMO_INTERVAL_MS * 2);
    expect(onStep).toHaveBeenCalledTimes(2);
  });

  it('starts paused when asked and restarts a full interval after a manual step', () => {
    const onStep = vi.fn();
    const cycle = createDemoCycle({ onReady: vi.fn(), onStep });
    cycle.start(true);
    vi.advanceTimersByTime(10_000);
    expect(onStep).not.toHaveBeenCalled();
    cycle.restart();
    vi.advanceTimersByTime(DEMO_INTERVAL_MS - 1);
    expect(onStep).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onStep).toHaveBeenCalledTimes(1);
  });
});
