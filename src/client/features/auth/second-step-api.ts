/** Two-step sign-in and passkey sign-in calls (docs/decisions/0032), typed with the shared schemas. */
import * as v from 'valibot';
import {
  type PasskeyOptionsResponse,
  type SecondStepRequest,
  type SignedInResponse,
  SignedInResponseSchema,
} from '#shared/security/security-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';
import { INCOMPLETE_RESPONSE_MESSAGE } from './auth-api.ts';

/** POST /auth/second-step. */
export async function completeSecondStep(body: SecondStepRequest): Promise<SignedInResponse> {
  const answer = await requestJson<unknown>('auth/second-step', { method: 'post', json: body });
  const parsed = v.safeParse(SignedInResponseSchema, answer);
  if (!parsed.success) throw new ApiRequestError('http', INCOMPLETE_RESPONSE_MESSAGE, 200);
  return parsed.output;
}

/** POST /auth/second-step/send-sms: the fallback code to the account's verified phone. */
export function sendSecondStepSms(pendingToken: string): Promise<{ message: string }> {
  return requestJson('auth/second-step/send-sms', { method: 'post', json: { pendingToken } });
}

/** POST /auth/passkey/options. */
export function passkeySignInOptions(): Promise<PasskeyOptionsResponse> {
  return requestJson('auth/passkey/options', { method: 'post', json: {} });
}

/** POST /auth/passkey: a passkey with the user verified opens the session on its own. */
export async function passkeySignIn(body: {
  challengeId: string;
  response: unknown;
  rememberMe: boolean;
}): Promise<SignedInResponse> {
  const answer = await requestJson<unknown>('auth/passkey', { method: 'post', json: body });
  const parsed = v.safeParse(SignedInResponseSchema, answer);
  if (!parsed.success) throw new ApiRequestError('http', INCOMPLETE_RESPONSE_MESSAGE, 200);
  return parsed.output;
}
