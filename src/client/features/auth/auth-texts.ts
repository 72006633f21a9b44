/**
 * Texts of the access screens that the shared catalogue does not hold (spec 000 §8 quotes them
 * for these screens only), and the support address the screens show.
 */
export const SUPPORT_EMAIL = 'soporte@entreno.app';

export const AUTH_SCREEN_TEXTS = {
  loginDefaultError: 'Error en el login',
  connectionError: 'Error de conexión. Por favor, verifica tu conexión a internet e intenta de nuevo.',
  forgotFailed: 'No se pudo enviar el correo de recuperación. Por favor, inténtalo de nuevo.',
  resetDefaultError: 'Error al restablecer la contraseña',
  resendSucceeded: 'Se ha enviado un nuevo enlace a tu correo electrónico',
  resendFailed: 'Error al enviar el nuevo enlace. Por favor, inténtalo más tarde.',
  resetSucceeded: '¡Contraseña actualizada correctamente! Redirigiendo...',
  validatingLink: 'Validando enlace...',
  sendingEmail: 'Enviando correo...',
} as const;
