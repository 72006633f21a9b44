import { SMS_LIMIT_LOCK_S } from './auth-constants.ts';

/**
 * Spanish texts of the access area. Texts the spec quotes (000 §5, §8) are verbatim; the others
 * follow the same voice. The client shows these as they come.
 */
export const AUTH_MESSAGES = {
  // Field validation (spec 000 §5).
  loginEmailInvalid: 'El email introducido no tiene la estructura correcta',
  emailRequired: 'El campo Email es obligatorio',
  emailInvalid: 'Por favor ingresa un Email válido',
  emailTaken:
    'Ya existe una cuenta asociada a esta dirección. Por favor, inicia sesión o utiliza una dirección diferente',
  nameRequired: 'El campo Nombre es obligatorio',
  nameTooLong: 'El campo Nombre no puede exceder los 20 caracteres',
  lastNameTooLong: 'El campo Apellidos no puede exceder los 30 caracteres',
  phoneDigits: 'El teléfono debe tener 9 dígitos',
  phoneRequiredGoogle: 'El número de teléfono es obligatorio',
  phoneDigitsGoogle: 'El número debe tener 9 dígitos',
  phoneTaken:
    'Este número de teléfono ya está asociado a otra cuenta. Por favor, inicia sesión o utiliza un número diferente.',
  codeDigits: 'El código debe tener 6 dígitos',
  passwordMinLength: 'La contraseña debe tener al menos 8 caracteres',
  passwordMaxLength: 'La contraseña no puede tener más de 256 caracteres',
  passwordCase: 'La contraseña debe contener mayúsculas y minúsculas',
  passwordDigit: 'La contraseña debe contener al menos un número',
  passwordSpecial: 'La contraseña debe contener al menos un carácter especial',
  passwordRequirements: 'La contraseña no cumple los requisitos',
  passwordMismatch: 'Las contraseñas no coinciden',
  passwordCommon: 'Esta contraseña es demasiado común y fácil de adivinar. Por favor, elige otra diferente.',
  rememberMeInvalid: 'El valor de Recuérdame no es válido',
  locationInvalid: 'La ubicación enviada no es válida',

  // Send-code catalogue (spec 000 §8); errorType in SEND_CODE_ERROR_TYPES.
  phoneBlocked:
    'Este número de teléfono ha sido temporalmente bloqueado por motivos de seguridad. Por favor, utiliza un número de teléfono diferente.',
  maxAttempts: `Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera ${SMS_LIMIT_LOCK_S / 60} minutos antes de intentarlo de nuevo.`,
  invalidPhone: 'El número de teléfono no es válido o no está en el formato correcto.',
  sendCodeFailed: 'Error al enviar el código de verificación',
  smsDailyBudgetExhausted:
    'Hemos alcanzado el límite de SMS que podemos enviar hoy. Por favor, inténtalo de nuevo más tarde.',
  codeSent: 'Código enviado correctamente',

  // Code verification.
  codeInvalid: 'Código inválido',
  codeExpired: 'El código ha caducado. Por favor, solicita uno nuevo.',
  codeAttemptsExceeded: 'Has superado el número de intentos para este código. Por favor, solicita uno nuevo.',
  phoneVerified: 'Teléfono verificado correctamente',

  // Registration.
  phoneNotVerified: 'Debes verificar tu número de teléfono antes de completar el registro.',
  registered: 'Usuario registrado correctamente',

  // Login and session.
  loginFailed: 'Email o contraseña incorrectos',
  phoneLoginFailed: 'Teléfono o contraseña incorrectos',
  loginSucceeded: 'Inicio de sesión correcto',
  loginRemembered: 'Su sesión será guardada durante los próximos 30 días',
  tooManyLoginAttempts:
    'Demasiados intentos fallidos de inicio de sesión. Por favor, espera unos minutos antes de intentarlo de nuevo.',
  loggedOut: 'Sesión cerrada correctamente',
  sessionEnded: 'Tu sesión ha finalizado. Por favor, inicia sesión de nuevo.',
  accountDeleted: 'Esta cuenta ya no existe.',
  streakUpdated: 'Racha actualizada',

  // Google sign-in and registration (spec 000 §8, docs/decisions/0004).
  googleCredentialInvalid: 'Credencial de Google no válida',
  googleUnavailable: 'No se pudo verificar con Google. Intenta de nuevo en unos momentos.',
  userNotFound: 'Usuario no encontrado',
  googleAccountExists:
    'Se ha encontrado una cuenta asociada a este correo de Google. Por favor, inicia sesión o usa otro correo.',
  googleEmailHasPasswordAccount:
    'Ya existe una cuenta de Entreno con este correo. Por favor, inicia sesión con tu email y contraseña.',
  googleAccountTaken:
    'Esta cuenta de Entreno ya está vinculada a otra cuenta de Google. Por favor, inicia sesión con esa cuenta.',
  googleLinked:
    'Hemos vinculado tu cuenta de Google. A partir de ahora inicia sesión con Google; si quieres volver a usar una contraseña, pulsa «¿Olvidaste tu contraseña?».',
  googleDataMissing: 'No se pudieron obtener los datos necesarios de Google',
  googleRegistered: 'Registro con Google completado correctamente',

  // Password recovery (spec 000 §5, §8).
  forgotPasswordAccepted:
    'Si existe una cuenta asociada a este email, recibirás un correo con las instrucciones para restablecer tu contraseña.',
  resetLinkInvalid: 'Link de recuperación inválido',
  resetLinkExpired: 'El enlace de restablecimiento de contraseña ha expirado. Por favor, solicita uno nuevo.',
  passwordSameAsCurrent: 'La nueva contraseña debe ser diferente a la actual',
  passwordUpdated: 'Contraseña actualizada correctamente',
} as const;

/** The 60 s resend wait still running (not in the catalogue: it arrives as errorType OTHER). */
export function resendCooldownMessage(secondsLeft: number): string {
  const seconds = Math.max(1, Math.ceil(secondsLeft));
  return `Por favor, espera ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'} antes de solicitar un nuevo código.`;
}

/**
 * errorType values of the send-code calls (spec 000 §8). CONNECTION and UNKNOWN are the client's
 * own (no answer, unreadable answer); the server never sends them.
 */
export const SEND_CODE_ERROR_TYPES = [
  'PHONE_BLOCKED',
  'MAX_ATTEMPTS',
  'MULTIPLE',
  'OTHER',
  'INVALID_PHONE',
  'CONNECTION',
  'UNKNOWN',
] as const;
export type SendCodeErrorType = (typeof SEND_CODE_ERROR_TYPES)[number];

/** errorType values the other access calls use, so the client can switch without parsing text. */
export const AUTH_ERROR_TYPES = [
  'VALIDATION',
  'EMAIL_TAKEN',
  'PHONE_TAKEN',
  'PHONE_NOT_VERIFIED',
  'PASSWORD_TOO_COMMON',
  'INVALID_CODE',
  'CODE_EXPIRED',
  'CODE_ATTEMPTS_EXCEEDED',
  'INVALID_CREDENTIALS',
  'RATE_LIMITED',
  'RESET_LINK_INVALID',
  'RESET_LINK_EXPIRED',
  'PASSWORD_SAME_AS_CURRENT',
  'INVALID_GOOGLE_CREDENTIAL',
  'GOOGLE_UNAVAILABLE',
  'GOOGLE_DATA_MISSING',
  'GOOGLE_ACCOUNT_TAKEN',
  'USER_NOT_FOUND',
] as const;
export type AuthErrorType = (typeof AUTH_ERROR_TYPES)[number];
