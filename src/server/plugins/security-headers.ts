import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** `https://entreno.example` → `wss://entreno.example`: the socket's own origin. */
export function socketOrigin(publicOrigin: string): string {
  const url = new URL(publicOrigin);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/**
 * CSP and the other headers of QUALITY 11. No inline script anywhere: the built PWA loads only
 * its own files, and the socket connects to the app's own origin only (PUBLIC_ORIGIN as ws: or
 * wss:, named because older browsers do not read 'self' as covering WebSockets).
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, options: { isProduction: boolean; publicOrigin: string }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'script-src': ["'self'"],
          'style-src': ["'self'"],
          'img-src': ["'self'", 'data:', 'blob:'],
          'font-src': ["'self'"],
          'connect-src': ["'self'", socketOrigin(options.publicOrigin)],
          'media-src': ["'self'", 'data:'],
          'worker-src': ["'self'"],
          'manifest-src': ["'self'"],
          'object-src': ["'none'"],
          'frame-ancestors': ["'none'"],
          'base-uri': ["'self'"],
          'form-action': ["'self'"],
        },
      },
      strictTransportSecurity: options.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') || request.url === '/api') {
        reply.header('cache-control', 'no-store');
      }
    });
  },
);
