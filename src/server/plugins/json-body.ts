import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * `Content-Type: application/json` with an empty body is a request without a body, not broken JSON.
 *
 * Spec 001 §7 says every request carries the JSON content type, and several of its calls have no
 * body (mark a notification read, mark all read, mark a conversation read, delete a notification):
 * a client that sets the header on every call sends exactly that. Fastify's own parser refuses it
 * (FST_ERR_CTP_EMPTY_JSON_BODY, our «El cuerpo de la petición no es un JSON válido»); here it
 * becomes an absent body, so a route without a body runs and a route that needs one answers its own
 * Spanish 400. Anything else goes to Fastify's parser unchanged (the same prototype-poisoning rule).
 */
export const jsonBodyPlugin = fp(async (app: FastifyInstance) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
});
