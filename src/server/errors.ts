import { SERVER_MESSAGES } from '#shared/messages';

/**
 * A failure the client may see: an HTTP status, a Spanish message and, where the spec names one,
 * an errorType. Services throw it; the error plugin turns it into `{ success: false, ... }`.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errorType?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string = SERVER_MESSAGES.invalidBody, errorType?: string) =>
  new AppError(400, message, errorType);
export const unauthorized = (message: string = SERVER_MESSAGES.invalidToken) => new AppError(401, message);
export const forbidden = (message: string = SERVER_MESSAGES.forbidden) => new AppError(403, message);
export const notFound = (message: string = SERVER_MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string, errorType?: string) => new AppError(409, message, errorType);
export const tooManyRequests = (message: string, retryAfterSeconds: number, errorType?: string) =>
  new AppError(429, message, errorType, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
