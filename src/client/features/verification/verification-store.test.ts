import { describe, expect, it, vi } from 'vitest';
import type { VerificationState } from '#shared/verification/verification-schemas';
import { ApiRequestError } from '../../services/http.ts';
import type { VerificationApi } from './verification-api.ts';
import { createVerificationStore } from './verification-store.ts';

const state = (overrides: Partial<VerificationState> = {}): VerificationState => ({
  status: 'none',
  reason: null,
  pose: null,
  verifiedAt: null,
  updatedAt: null,
  ...overrides,
});

function setup(api: Partial<VerificationApi> = {}) {
  const full = {
    state: vi.fn(async () => state()),
    challenge: vi.fn(async () => state({ pose: 'peace' })),
    submit: vi.fn(async (_selfie: Blob, onProgress: (percent: number) => void) => {
      onProgress(50);
      return state({ status: 'pending' });
    }),
    ...api,
  } satisfies VerificationApi;
  return { api: full, store: createVerificationStore({ api: full }) };
}

const selfie = new Blob(['selfie'], { type: 'image/jpeg' });

describe('verification store', () => {
  it('goes intro → pose → sending → sent, and the row reads the new state', async () => {
    const { api, store } = setup();
    await store.load();
    expect(store.state.view).toEqual({ status: 'ready', state: state() });
    store.open();
    expect(store.state.flow).toEqual({ step: 'intro' });
    await store.start();
    expect(store.state.flow).toEqual({ step: 'pose', pose: 'peace' });
    await store.send(selfie);
    expect(api.submit).toHaveBeenCalledWith(selfie, expect.any(Function));
    expect(store.state.flow).toEqual({ step: 'sent' });
    expect(store.state.view).toEqual({ status: 'ready', state: state({ status: 'pending' }) });
  });

  it('treats "no profile yet" as nothing asked, and says what is missing when starting', async () => {
    const missing = new ApiRequestError('http', 'Crea tu perfil antes de verificarlo', 404);
    const { store } = setup({
      state: vi.fn(async () => Promise.reject(missing)),
      challenge: vi.fn(async () => Promise.reject(missing)),
    });
    await store.load();
    expect(store.state.view).toMatchObject({ status: 'ready', state: { status: 'none' } });
    await store.start();
    expect(store.state.flow).toEqual({
      step: 'error',
      message: 'Crea tu perfil antes de verificarlo',
      canRetry: false,
    });
  });

  it('keeps the pose after a refused image, with the reason', async () => {
    const refused = new ApiRequestError('http', 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.', 415);
    const { store } = setup({ submit: vi.fn(async () => Promise.reject(refused)) });
    await store.start();
    await store.send(selfie);
    expect(store.state.flow).toEqual({ step: 'pose', pose: 'peace', problem: refused.message });
  });

  it('offers a retry after an expired pose or a lost connection, never queues the selfie', async () => {
    const expired = new ApiRequestError('http', 'La pose ha caducado.', 409, 'CHALLENGE_EXPIRED');
    const submit = vi.fn(async (_selfie: Blob, _onProgress: (percent: number) => void): Promise<VerificationState> => {
      throw expired;
    });
    const { store } = setup({ submit });
    await store.start();
    await store.send(selfie);
    expect(store.state.flow).toEqual({ step: 'error', message: 'La pose ha caducado.', canRetry: true });

    submit.mockImplementation(async () => {
      throw new ApiRequestError('network', '');
    });
    await store.start();
    await store.send(selfie);
    expect(store.state.flow).toMatchObject({
      step: 'error',
      message: 'Necesitas conexión a internet para verificar tu perfil.',
      canRetry: true,
    });
    // Sending is only possible from the pose step: nothing is replayed later.
    await store.send(selfie);
    expect(submit).toHaveBeenCalledTimes(2);
  });
});
