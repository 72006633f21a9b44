/** Seguridad's calls (docs/decisions/0032), typed with the shared schemas. */
import type { MessageResponse } from '#shared/auth/auth-schemas';
import type {
  PasskeyAddedResponse,
  PasskeyOptionsResponse,
  RecoveryCodesResponse,
  SecurityStatusResponse,
  TwoFactorDisableRequest,
  TwoFactorSetupResponse,
} from '#shared/security/security-schemas';
import { requestJson } from '../../services/http.ts';

export const securityApi = {
  status: () => requestJson<SecurityStatusResponse>('security'),
  startSetup: () => requestJson<TwoFactorSetupResponse>('security/two-factor/setup', { method: 'post', json: {} }),
  enable: (code: string) =>
    requestJson<RecoveryCodesResponse>('security/two-factor/enable', { method: 'post', json: { code } }),
  disable: (body: TwoFactorDisableRequest) =>
    requestJson<MessageResponse>('security/two-factor/disable', { method: 'post', json: body }),
  renewRecoveryCodes: (code: string) =>
    requestJson<RecoveryCodesResponse>('security/two-factor/recovery-codes', { method: 'post', json: { code } }),
  passkeyOptions: () => requestJson<PasskeyOptionsResponse>('security/passkeys/options', { method: 'post', json: {} }),
  addPasskey: (body: { challengeId: string; name: string; response: unknown }) =>
    requestJson<PasskeyAddedResponse>('security/passkeys', { method: 'post', json: body }),
  removePasskey: (id: string) =>
    requestJson<MessageResponse>(`security/passkeys/${encodeURIComponent(id)}`, { method: 'delete' }),
};

/** The server's Spanish text of a failed call, or a general one. */
export function securityErrorMessage(error: unknown): string {
  const failure = error as { kind?: string; message?: string } | null;
  if (failure?.kind === 'network' || failure?.kind === 'timeout') {
    return 'No se pudo conectar con el servidor. Revisa tu conexión e inténtalo de nuevo.';
  }
  return failure?.message || 'No se ha podido completar. Inténtalo de nuevo.';
}

/** "12 de marzo de 2026". */
export function securityDate(iso: string): string {
  return new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso));
}
