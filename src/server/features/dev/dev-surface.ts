import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '#shared/messages';

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped spellings: the machine itself. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.replace(/^::ffff:/i, '');
  if (isIPv4(v4)) return v4.startsWith('127.');
  return isIPv6(address) && /^(0{0,4}:){7}0{0,3}1$|^::1$/i.test(address);
}

/**
 * The development surfaces (`/api/dev/*`: the outbox with every code and reset link, the Google
 * stand-in's token endpoint) answer the machine itself only, as a 404 to anyone else — the same
 * answer production gives, where they are not registered at all (issue #24 item 4). The client
 * address is Fastify's (`request.ip`, TRUST_PROXY honoured), so a local reverse proxy does not make
 * every visitor look local. `DEV_ROUTES_FROM_NETWORK=1` opens them (a warning says so at start).
 */
export const devSurfacePlugin = fp(async (app: FastifyInstance, options: { isOpenToNetwork: boolean }) => {
  if (options.isOpenToNetwork) return;
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/dev/') && request.url !== '/api/dev') return;
    if (isLoopbackAddress(request.ip)) return;
    return reply.status(404).send({ success: false, message: SERVER_MESSAGES.routeNotFound });
  });
});
