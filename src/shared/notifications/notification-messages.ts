/**
 * Spanish texts of notifications, push and their calls. The server writes the notification texts
 * it creates itself (welcome, streak reminder, message summaries) from here.
 */
export const NOTIFICATION_MESSAGES = {
  // Errors and validation.
  notificationNotFound: 'Notificación no encontrada',
  invalidQuery: 'Los parámetros de la consulta no son válidos',
  invalidType: 'El tipo de notificación no es válido',
  invalidReadFilter: 'El filtro de leídas debe ser true o false',
  invalidPage: 'La página debe ser un número entero mayor o igual que 1',
  invalidLimit: 'El límite debe ser un número entero entre 1 y 100',
  invalidTitle: 'El título de la notificación no es válido',
  invalidBody: 'El texto de la notificación no es válido',
  invalidEndpoint: 'La dirección de la suscripción push no es válida',
  endpointNotAllowed: 'La dirección de la suscripción push no pertenece a un servicio de notificaciones conocido',
  invalidKeys: 'Las claves de la suscripción push no son válidas',
  invalidExpiration: 'La fecha de caducidad de la suscripción push no es válida',
  pushUnavailable: 'Las notificaciones push no están disponibles en este momento',

  // Texts of the notifications the server creates.
  welcomeTitle: '¡Bienvenido a Entreno!',
  welcomeBody: (name: string) =>
    `Hola ${name}, completa tu perfil y empieza a encontrar compañeros de entrenamiento cerca de ti.`,
  streakReminderTitle: '¡No pierdas tu racha!',
  streakReminderBody: (streak: number) =>
    `Llevas ${streak} ${streak === 1 ? 'día' : 'días'} de racha. Entra hoy para no perderla.`,
  messageTitle: (senderName: string) => `Nuevo mensaje de ${senderName}`,
  messagesCollapsed: (count: number, senderName: string) => `${count} mensajes nuevos de ${senderName}`,
  matchTitle: '¡Nuevo Entrenamiento!',
  matchBody: (name: string) => `¡Has conectado con ${name}!`,
  superlikeTitle: '¡Te han dado un Super Entreno!',
  superlikeBody: 'Alguien tiene muchas ganas de entrenar contigo. Sigue en Conectar para encontrarle.',
} as const;
