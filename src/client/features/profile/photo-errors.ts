/** The photo-upload error catalogue of spec 001 §8, by status. */
import { ApiRequestError } from '../../services/http.ts';

export const PHOTO_UPLOAD_MESSAGES = {
  connection: 'Error de conexión. Verifica tu conexión a internet e intenta de nuevo.',
  fileSize: 'Las imágenes son demasiado grandes. El tamaño máximo permitido es 5MB por imagen.',
  fileFormat: 'Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.',
  rateLimit: 'Has alcanzado el límite de subidas. Intenta más tarde.',
  permission: 'No tienes permiso para subir fotos a este perfil.',
  server: 'Error en el servidor. Intenta más tarde.',
  serverWizard: 'Error en el servidor. Por favor, intenta más tarde.',
  other: 'Error al subir las fotos',
  unsuccessful: 'Error al subir las fotos. Intenta de nuevo más tarde.',
} as const;

/** The Spanish text for a failed upload; the wizard has its own wording for server errors. */
export function photoUploadErrorMessage(error: unknown, variant: 'wizard' | 'editor' = 'editor'): string {
  if (!(error instanceof ApiRequestError)) return PHOTO_UPLOAD_MESSAGES.other;
  if (error.kind !== 'http') return PHOTO_UPLOAD_MESSAGES.connection;
  if (error.errorType === 'UPLOAD_FAILED') return PHOTO_UPLOAD_MESSAGES.unsuccessful;
  const status = error.status ?? 0;
  if (status === 413) return PHOTO_UPLOAD_MESSAGES.fileSize;
  if (status === 415) return PHOTO_UPLOAD_MESSAGES.fileFormat;
  if (status === 429) return PHOTO_UPLOAD_MESSAGES.rateLimit;
  if (status === 401 || status === 403) return PHOTO_UPLOAD_MESSAGES.permission;
  if (status >= 500) return variant === 'wizard' ? PHOTO_UPLOAD_MESSAGES.serverWizard : PHOTO_UPLOAD_MESSAGES.server;
  return error.message || PHOTO_UPLOAD_MESSAGES.other;
}
