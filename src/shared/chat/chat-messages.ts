/**
 * Spanish texts of the chat (spec 001 §5, §8). The spec's own wording is verbatim; the rest
 * follows its voice.
 */
export const CHAT_MESSAGES = {
  // Spec 001 §8 "Messaging" (defaults the client shows when a call fails).
  loadConversationsFailed: 'Error al cargar las conversaciones',
  loadMessagesFailed: 'Error al cargar los mensajes',
  getConversationsFailed: 'Error al obtener conversaciones',
  getMessagesFailed: 'Error al obtener mensajes',
  sendFailed: 'Error al enviar mensaje',
  markReadFailed: 'Error al marcar mensajes como leídos',
  actionFailed: 'Error al realizar la acción',
  noConversations: 'No tienes conversaciones activas',

  // Validation and rules.
  emptyMessage: 'El mensaje no puede estar vacío',
  messageTooLong: 'El mensaje no puede superar los 2000 caracteres',
  invalidMessage: 'El mensaje no es válido',
  invalidClientId: 'El identificador del mensaje no es válido',
  invalidReceiver: 'El destinatario no es válido',
  cannotSend: 'No puedes enviar mensajes en esta conversación',
  conversationNotFound: 'Conversación no encontrada',
  invalidConversation: 'La conversación indicada no es válida',
  superlikeOnly: 'Solo puedes marcar como súper entreno las conversaciones que iniciaste con un súper like',
  invalidSwipeType: 'El tipo de conversación debe ser like o superlike',
  invalidPin: 'isPinned debe ser true o false',
  invalidMute: 'isMuted debe ser true o false',
  invalidArchive: 'archived debe ser true o false',
  invalidUpToMessage: 'upToMessageId debe ser el identificador de un mensaje',
  invalidPage: 'La página debe ser un número entero mayor o igual que 1',
  invalidLimit: 'El límite debe ser un número entero entre 1 y 100',
  invalidBefore: 'El parámetro before debe ser un número de secuencia válido',
  invalidArchivedFilter: 'El filtro archived debe ser true o false',
  invalidQuery: 'Los parámetros de la consulta no son válidos',
  invalidCursor: 'El cursor de sincronización no es válido',
  invalidEvent: 'Los datos del evento no son válidos',
  invalidLeave: 'La petición para salir del grupo no es válida',
  sendRateLimited: 'Estás enviando mensajes demasiado rápido. Espera un momento.',
  /** A group conversation with every place taken (issue 35: «Completo»). */
  groupFull: 'Completo',
  alreadyUnmatched: 'Esta conversación ya ha terminado',
} as const;
