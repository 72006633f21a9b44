/**
 * Spanish texts the server sends and the client shows. Texts quoted by the spec are verbatim;
 * the others follow the same voice.
 */
export const SERVER_MESSAGES = {
  notFound: 'Recurso no encontrado',
  routeNotFound: 'La ruta solicitada no existe',
  internal: 'Error interno del servidor. Por favor, intenta de nuevo más tarde.',
  invalidBody: 'Los datos enviados no son válidos',
  invalidJson: 'El cuerpo de la petición no es un JSON válido',
  unsupportedMediaType: 'Tipo de contenido no soportado',
  payloadTooLarge: 'La petición es demasiado grande',
  tooManyRequests: 'Demasiadas peticiones. Por favor, espera un momento antes de intentarlo de nuevo.',
  unauthorized: 'Token no proporcionado',
  invalidToken: 'Token inválido o expirado',
  forbidden: 'No tienes permiso para realizar esta acción',
  serviceUnavailable: 'El servicio no está disponible en este momento. Intenta de nuevo en unos momentos.',
  /** A dependency (database, Redis) is away: worth retrying soon (issue #24's wording). */
  dependencyUnavailable: 'El servicio no está disponible. Inténtalo en unos segundos.',
  /** The server's disk is full: the write was not stored, worth retrying later. */
  storageFull: 'No queda espacio para guardar los datos en el servidor. Inténtalo más tarde.',
  tooManyConnections: 'Demasiadas conexiones abiertas. Cierra alguna pestaña e inténtalo de nuevo.',
} as const;

export type ServerMessageKey = keyof typeof SERVER_MESSAGES;
