import { PHONE_COUNTRY_PREFIX } from '#shared/auth/auth-constants';
import type {
  AuthUser,
  CheckEmailResponse,
  CompleteRegistrationResponse,
  RegisterRequest,
  RegisterResponse,
  SendCodeResponse,
  VerifyCodeResponse,
} from '#shared/auth/auth-schemas';
import { ApiRequestError, requestJson } from '../../services/http.ts';
import type { CallFailure } from './send-code-errors.ts';

/** The calls of both registration flows (spec 000 §7); tests replace this object. */
export type RegistrationApi = {
  checkEmail(email: string): Promise<{ exists: boolean }>;
  sendCode(phone: string): Promise<void>;
  verifyCode(phone: string, code: string): Promise<void>;
  register(request: RegisterRequest): Promise<void>;
  /** The wizard's login with phone and password right after registering. */
  completeRegistration(phone: string, password: string): Promise<{ token?: unknown; user?: unknown }>;
  /** The credential proves the Google account; the e-mail is sent as the spec shows it (decision 0004). */
  googleSendCode(phone: string, email: string, credential: string): Promise<void>;
  googleVerifyCode(request: GoogleVerifyCodeRequest): Promise<{ token?: unknown; user?: unknown }>;
};

export type GoogleVerifyCodeRequest = {
  phone: string;
  code: string;
  googleId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The Google ID token again: the server trusts nothing else (decision 0004). */
  credential: string;
};

/** +34 and the 9 digits typed. */
export function toE164(digits: string): string {
  return `${PHONE_COUNTRY_PREFIX}${digits}`;
}

const post = <T>(path: string, json: unknown) => requestJson<T>(path, { method: 'post', json });

export const registrationApi: RegistrationApi = {
  async checkEmail(email) {
    const response = await post<CheckEmailResponse>('auth/check-email', { email });
    return { exists: response.data.exists };
  },
  async sendCode(phone) {
    await post<SendCodeResponse>('auth/send-code', { phone });
  },
  async verifyCode(phone, code) {
    await post<VerifyCodeResponse>('auth/verify-code', { phone, code });
  },
  async register(request) {
    await post<RegisterResponse>('auth/register', request);
  },
  completeRegistration(phone, password) {
    return post<Partial<CompleteRegistrationResponse>>('auth/complete-registration', { phone, password });
  },
  async googleSendCode(phone, email, credential) {
    await post<SendCodeResponse>('auth/google/send-code', { phone, email, credential });
  },
  googleVerifyCode(request) {
    return post<{ token?: unknown; user?: unknown }>('auth/google/verify-code', request);
  },
};

/** Any thrown value as a CallFailure: ApiRequestError as it is, anything else as an answerless failure. */
export function toCallFailure(error: unknown): CallFailure {
  if (error instanceof ApiRequestError) {
    return { kind: error.kind, status: error.status, message: error.message, errorType: error.errorType };
  }
  return { kind: 'network', message: '' };
}

/** A session answer that carries both parts, or null (spec 000 §5, §8: "respuesta incompleta"). */
export function readSession(response: { token?: unknown; user?: unknown }): { token: string; user: AuthUser } | null {
  const { token, user } = response;
  if (typeof token !== 'string' || token === '' || typeof user !== 'object' || user === null) return null;
  return { token, user: user as AuthUser };
}
