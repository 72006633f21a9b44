/** Spanish texts of the settings call (spec 001 §3 "Settings"). */
export const SETTINGS_MESSAGES = {
  invalidSettings: 'La configuración enviada no es válida',
  invalidSwitch: 'El valor de la opción debe ser verdadero o falso',
  maxDistance: 'La distancia máxima debe estar entre 1 y 100 km',
  preferredGender: 'El género preferido debe ser all, male o female',
  experienceLevel: 'El nivel de experiencia debe ser all, beginner, intermediate o advanced',
  preferredSchedule: 'El horario preferido debe ser flexible, morning, afternoon o evening',
  necessaryCookies: 'Las cookies necesarias no se pueden desactivar',
  theme: 'El tema debe ser light, system o dark',
  emptyPatch: 'Indica al menos una opción de configuración',
  reminderMinutes: 'El aviso de las quedadas debe ser 30 minutos, 1, 2, 6 o 24 horas antes',
} as const;
