/**
 * Spanish texts of two-step sign-in and passkeys (docs/decisions/0032). The client shows them as
 * they come.
 */
export const SECURITY_MESSAGES = {
  secondStepRequired: 'Introduce el código de tu aplicación de autenticación para terminar de iniciar sesión.',
  secondStepExpired: 'Ha pasado demasiado tiempo. Vuelve a iniciar sesión.',
  codeRequired: 'Introduce el código',
  codeInvalid: 'El código no es correcto. Revisa tu aplicación e inténtalo de nuevo.',
  recoveryCodeInvalid: 'El código de recuperación no es correcto o ya se ha usado.',
  tooManyCodeAttempts: 'Demasiados códigos incorrectos. Espera un poco antes de intentarlo de nuevo.',
  smsUnavailable: 'Tu cuenta no tiene un teléfono verificado al que enviar el código.',
  smsSent: 'Te hemos enviado un código por SMS a tu teléfono verificado.',
  methodInvalid: 'Elige cómo quieres verificar tu identidad.',

  setupNotStarted: 'Empieza de nuevo la configuración de la verificación en dos pasos.',
  alreadyEnabled: 'La verificación en dos pasos ya está activada.',
  notEnabled: 'La verificación en dos pasos no está activada.',
  enabled: 'Verificación en dos pasos activada. Guarda tus códigos de recuperación.',
  disabled: 'Verificación en dos pasos desactivada.',
  recoveryCodesRenewed: 'Nuevos códigos de recuperación creados. Los anteriores ya no sirven.',
  passwordRequired: 'Introduce tu contraseña',
  passwordWrong: 'La contraseña no es correcta.',

  passkeyNameRequired: 'Ponle un nombre a la llave de acceso',
  passkeyNameTooLong: 'El nombre no puede tener más de 40 caracteres',
  passkeyAdded: 'Llave de acceso añadida.',
  passkeyRemoved: 'Llave de acceso eliminada.',
  passkeyNotFound: 'No encontramos esa llave de acceso.',
  passkeyLimit: 'Has llegado al máximo de 10 llaves de acceso. Elimina alguna para añadir otra.',
  passkeyChallengeExpired: 'La solicitud ha caducado. Vuelve a intentarlo.',
  passkeyRejected: 'No hemos podido comprobar la llave de acceso. Vuelve a intentarlo.',
  passkeyUnknown: 'Esta llave de acceso no está registrada en Entreno. Inicia sesión con tu contraseña.',
  passkeyResponseInvalid: 'La respuesta de la llave de acceso no es válida.',
  passkeySignedIn: 'Sesión iniciada con tu llave de acceso.',
} as const;
