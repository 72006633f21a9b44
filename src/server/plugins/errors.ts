import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '#shared/messages';
import { AppError, asDependencyError } from '../errors.ts';

/** Fastify's own error codes that are the client's fault, with the Spanish text they get. */
const CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: SERVER_MESSAGES.invalidJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: SERVER_MESSAGES.invalidJson },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: SERVER_MESSAGES.payloadTooLarge },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: SERVER_MESSAGES.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: SERVER_MESSAGES.invalidBody },
  FST_ERR_VALIDATION: { status: 400, message: SERVER_MESSAGES.invalidBody },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: SERVER_MESSAGES.unsupportedMediaType },
  FST_PARTS_LIMIT: { status: 413, message: SERVER_MESSAGES.payloadTooLarge },
  FST_FILES_LIMIT: { status: 413, message: SERVER_MESSAGES.payloadTooLarge },
  FST_FIELDS_LIMIT: { status: 413, message: SERVER_MESSAGES.payloadTooLarge },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: SERVER_MESSAGES.payloadTooLarge },
  FST_PROTO_VIOLATION: { status: 400, message: SERVER_MESSAGES.invalidBody },
};

/** Every error leaves as `{ success: false, message, errorType? }`; no stack trace reaches a client. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return reply.status(error.statusCode).send({
        success: false,
        message: error.message,
        ...(error.errorType ? { errorType: error.errorType } : {}),
        ...error.extra,
      });
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known) {
      return reply.status(known.status).send({ success: false, message: known.message });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send({ success: false, message: SERVER_MESSAGES.tooManyRequests });
    }
    const status = error.statusCode;
    if (status && status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.status(status).send({ success: false, message: SERVER_MESSAGES.invalidBody });
    }
    const outage = asDependencyError(error);
    if (outage) {
      // Expected during an outage: one warning per request, the client retries (Retry-After).
      request.log.warn({ err: error, status: outage.statusCode }, 'dependency unavailable');
      reply.headers(outage.headers);
      return reply
        .status(outage.statusCode)
        .send({ success: false, message: outage.message, errorType: outage.errorType });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ success: false, message: SERVER_MESSAGES.internal });
  });
});
