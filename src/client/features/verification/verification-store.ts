import { proxy } from 'valtio';
import { VERIFICATION_MESSAGES, type VerificationState } from '#shared/verification/verification-schemas';
import { ApiRequestError } from '../../services/http.ts';
import type { VerificationApi } from './verification-api.ts';

/** The owner's verification as the settings row shows it. */
export type VerificationView =
  | { status: 'loading' }
  | { status: 'ready'; state: VerificationState }
  | { status: 'error'; message: string };

/** The dialog's steps: the requirements, the pose with the camera, sending, and the answer. */
export type SelfieFlow =
  | { step: 'intro' }
  /** `problem`: why the last image was refused (format, size): take or choose another. */
  | { step: 'pose'; pose: NonNullable<VerificationState['pose']>; problem?: string }
  | { step: 'sending'; pose: NonNullable<VerificationState['pose']>; percent: number }
  | { step: 'sent' }
  | { step: 'error'; message: string; canRetry: boolean };

const NOTHING_ASKED: VerificationState = {
  status: 'none',
  reason: null,
  pose: null,
  verifiedAt: null,
  updatedAt: null,
};
const OFFLINE = 'Necesitas conexión a internet para verificar tu perfil.';
const FAILED = 'No se pudo enviar tu selfie. Inténtalo de nuevo.';

function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError) {
    if (error.kind !== 'http') return OFFLINE;
    if (error.message) return error.message;
  }
  return fallback;
}

/**
 * The verification store: the server's state for the row, and the dialog's flow. Selfies are
 * sent online only and never kept on the device (docs/decisions/0034): a failed send asks to
 * send again, it is not queued in the outbox.
 */
export function createVerificationStore(deps: { api: VerificationApi }) {
  const state = proxy<{ view: VerificationView; flow: SelfieFlow }>({
    view: { status: 'loading' },
    flow: { step: 'intro' },
  });

  const load = async () => {
    try {
      state.view = { status: 'ready', state: await deps.api.state() };
    } catch (error) {
      // No profile yet: nothing was asked; the dialog says what is missing when they start.
      if (error instanceof ApiRequestError && error.status === 404) {
        state.view = { status: 'ready', state: NOTHING_ASKED };
        return;
      }
      if (state.view.status !== 'ready') {
        state.view = { status: 'error', message: messageOf(error, 'No se pudo cargar la verificación.') };
      }
    }
  };

  return {
    state,
    load,
    /** Opens the dialog at its first step. */
    open() {
      state.flow = { step: 'intro' };
    },
    /** "Iniciar verificación": asks the server for the pose to copy. */
    async start() {
      try {
        const answer = await deps.api.challenge();
        state.view = { status: 'ready', state: answer };
        if (!answer.pose) throw new ApiRequestError('http', VERIFICATION_MESSAGES.challengeMissing, 409);
        state.flow = { step: 'pose', pose: answer.pose };
      } catch (error) {
        // 4xx: the profile is not ready (no profile, no photos) or a request already waits.
        const isStateProblem = error instanceof ApiRequestError && error.kind === 'http' && (error.status ?? 0) < 500;
        state.flow = { step: 'error', message: messageOf(error, FAILED), canRetry: !isStateProblem };
        if (isStateProblem) void load();
      }
    },
    /** Sends the selfie taken with the camera or chosen as a file. */
    async send(selfie: Blob) {
      if (state.flow.step !== 'pose') return;
      const { pose } = state.flow;
      state.flow = { step: 'sending', pose, percent: 0 };
      try {
        const answer = await deps.api.submit(selfie, (percent) => {
          if (state.flow.step === 'sending') state.flow = { step: 'sending', pose, percent };
        });
        state.view = { status: 'ready', state: answer };
        state.flow = { step: 'sent' };
      } catch (error) {
        const expired = error instanceof ApiRequestError && error.errorType === 'CHALLENGE_EXPIRED';
        // A refused image (format, size) keeps the pose.
        const isImageProblem = error instanceof ApiRequestError && [413, 415, 422].includes(error.status ?? 0);
        state.flow = isImageProblem
          ? { step: 'pose', pose, problem: messageOf(error, FAILED) }
          : { step: 'error', message: messageOf(error, FAILED), canRetry: true };
        if (expired) void load();
      }
    },
    reset() {
      state.view = { status: 'loading' };
      state.flow = { step: 'intro' };
    },
  };
}

export type VerificationStore = ReturnType<typeof createVerificationStore>;
