/** "Respuestas rápidas" (spec 001 §2; the list is not shown there, so it is ours). */
export const QUICK_REPLIES: readonly string[] = [
  '¿A qué hora entrenas mañana?',
  '¡Vamos! Nos vemos en el gym 💪',
  '¿Hacemos pierna juntos?',
  '¿Qué rutina sigues?',
  'Llego en 10 minutos',
  '¿Te viene bien entrenar esta tarde?',
  '¿En qué gimnasio entrenas?',
  'Hoy toca cardio, ¿te apuntas?',
  '¡Buen entreno! 🔥',
  '¿Me ayudas con la técnica de sentadilla?',
];
