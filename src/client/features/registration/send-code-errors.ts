import { AUTH_MESSAGES, SEND_CODE_ERROR_TYPES, type SendCodeErrorType } from '#shared/auth/auth-messages';

/** What the registration flows need to know of a failed call (an ApiRequestError fits it). */
export type CallFailure = {
  kind: 'http' | 'network' | 'timeout';
  status?: number;
  message: string;
  errorType?: string;
};

/** The send-code catalogue's texts (spec 000 §8), verbatim. */
export const SEND_CODE_MESSAGES = {
  PHONE_BLOCKED: AUTH_MESSAGES.phoneBlocked,
  MAX_ATTEMPTS:
    'Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera 3 minutos antes de intentarlo de nuevo.',
  /** The e-mail wizard's wording of MAX_ATTEMPTS. */
  MAX_ATTEMPTS_WIZARD:
    'Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera unos minutos antes de intentarlo de nuevo.',
  MULTIPLE: [
    'No hemos podido enviar el código de verificación. Puede deberse a que:',
    '• El número de teléfono está bloqueado temporalmente.',
    '• Se ha alcanzado el límite de códigos SMS para este número.',
    '• El número no es válido (por ejemplo, todos los dígitos repetidos).',
    'Por favor, prueba con otro número o espera unos minutos antes de intentarlo de nuevo.',
  ].join('\n'),
  CONNECTION: 'Error de conexión con el servidor. Por favor, verifica tu conexión a internet e intenta de nuevo.',
  UNKNOWN: 'Error al enviar el código de verificación. Por favor, intenta de nuevo más tarde.',
  INVALID_PHONE: AUTH_MESSAGES.invalidPhone,
  /** The e-mail wizard's default. */
  WIZARD_DEFAULT: 'Error al enviar el código',
} as const;

const isKnownType = (value: string | undefined): value is SendCodeErrorType =>
  value !== undefined && (SEND_CODE_ERROR_TYPES as readonly string[]).includes(value);

/**
 * The errorType of a failed send-code call (spec 000 §8): the server's own when it sends one of the
 * catalogue, else read from the status and message the way the catalogue describes them.
 */
export function classifySendCodeFailure(failure: CallFailure): SendCodeErrorType {
  if (failure.kind !== 'http') return 'CONNECTION';
  if (isKnownType(failure.errorType)) return failure.errorType;
  const message = failure.message;
  if (/bloque|blocked/i.test(message)) return 'PHONE_BLOCKED';
  if (/límite de códigos|limite de codigos|max send attempts|código sms/i.test(message)) return 'MAX_ATTEMPTS';
  if (failure.status === 500 && message.includes(AUTH_MESSAGES.sendCodeFailed)) return 'MULTIPLE';
  if (message) return 'OTHER';
  return 'UNKNOWN';
}

/** The e-mail wizard's text for a failed send (spec 000 §8: its own MAX_ATTEMPTS and default wording). */
export function wizardSendCodeMessage(failure: CallFailure): string {
  const type = classifySendCodeFailure(failure);
  switch (type) {
    case 'PHONE_BLOCKED':
      return SEND_CODE_MESSAGES.PHONE_BLOCKED;
    case 'MAX_ATTEMPTS':
      return SEND_CODE_MESSAGES.MAX_ATTEMPTS_WIZARD;
    case 'MULTIPLE':
    case 'OTHER':
      return failure.message || SEND_CODE_MESSAGES.WIZARD_DEFAULT;
    case 'INVALID_PHONE':
      return SEND_CODE_MESSAGES.INVALID_PHONE;
    case 'CONNECTION':
      return SEND_CODE_MESSAGES.CONNECTION;
    default:
      return SEND_CODE_MESSAGES.WIZARD_DEFAULT;
  }
}
