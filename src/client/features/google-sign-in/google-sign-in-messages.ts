import { GOOGLE_DATA_MISSING } from './google-id-token.ts';
import { GOOGLE_CALL_MESSAGES, GoogleSignInError } from './google-sign-in-call.ts';

/** The "Google login (screen)" texts (spec 000 §8). */
export const GOOGLE_SCREEN_MESSAGES = {
  notLinked: 'No se ha encontrado ninguna cuenta vinculada. Para continuar, registrate con Google',
  userNotFound: 'Usuario no encontrado',
  unauthorized: 'Error al iniciar sesión con Google',
  forbidden: 'Error de verificación con Google. Si el error persiste contacta con soporte',
  serverPrefix: 'Error del servidor: ',
  serverUnknown: 'Error desconocido',
  connection: 'Error de conexión. Por favor, verifica tu conexión a internet e intenta de nuevo.',
  popup: 'Error al iniciar sesión con Google. Por favor, intenta de nuevo más tarde.',
  dataMissing: GOOGLE_DATA_MISSING,
} as const;

/**
 * What the screen says for a failed sign-in (spec 000 §8). A 404 with the Google data in hand is
 * not shown as an error: the caller goes on to /register/google.
 */
export function googleSignInScreenMessage(error: unknown, hasGoogleData = true): string {
  if (!(error instanceof GoogleSignInError)) return GOOGLE_SCREEN_MESSAGES.popup;
  if (error.kind === 'incomplete') return GOOGLE_CALL_MESSAGES.incomplete;
  if (error.kind === 'network') {
    return error.message === GOOGLE_CALL_MESSAGES.connection ? GOOGLE_SCREEN_MESSAGES.connection : error.message;
  }
  switch (error.status) {
    case 404:
      return hasGoogleData ? GOOGLE_SCREEN_MESSAGES.notLinked : GOOGLE_SCREEN_MESSAGES.userNotFound;
    case 401:
      return error.serverMessage || GOOGLE_SCREEN_MESSAGES.unauthorized;
    case 403:
      return GOOGLE_SCREEN_MESSAGES.forbidden;
    case 500:
      return GOOGLE_SCREEN_MESSAGES.serverPrefix + (error.serverMessage || GOOGLE_SCREEN_MESSAGES.serverUnknown);
    default:
      return error.serverMessage || error.message;
  }
}
