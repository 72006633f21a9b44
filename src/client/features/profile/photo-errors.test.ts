import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import { PHOTO_UPLOAD_MESSAGES, photoUploadErrorMessage } from './photo-errors.ts';

describe('photo upload errors (spec 001 §8)', () => {
  const http = (status: number, message = '') => new ApiRequestError('http', message, status);
  it('maps statuses to the catalogue', () => {
    expect(photoUploadErrorMessage(http(413))).toBe(PHOTO_UPLOAD_MESSAGES.fileSize);
    expect(photoUploadErrorMessage(http(415))).toBe(PHOTO_UPLOAD_MESSAGES.fileFormat);
    expect(photoUploadErrorMessage(http(429))).toBe(PHOTO_UPLOAD_MESSAGES.rateLimit);
    expect(photoUploadErrorMessage(http(401))).toBe(PHOTO_UPLOAD_MESSAGES.permission);
    expect(photoUploadErrorMessage(http(403))).toBe(PHOTO_UPLOAD_MESSAGES.permission);
    expect(photoUploadErrorMessage(http(502))).toBe('Error en el servidor. Intenta más tarde.');
    expect(photoUploadErrorMessage(http(500), 'wizard')).toBe('Error en el servidor. Por favor, intenta más tarde.');
    expect(photoUploadErrorMessage(new ApiRequestError('network', ''))).toBe(PHOTO_UPLOAD_MESSAGES.connection);
    expect(photoUploadErrorMessage(http(400, 'Selecciona al menos una imagen'))).toBe('Selecciona al menos una imagen');
    expect(photoUploadErrorMessage(http(400))).toBe('Error al subir las fotos');
  });
});
