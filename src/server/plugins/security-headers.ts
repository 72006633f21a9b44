import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** `https://entreno.example` → `wss://entreno.example`: the socket's own origin. */
export function socketOrigin(publicOrigin: string): string {
  const url = new URL(publicOrigin);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

type SecurityHeadersOptions = {
  isProduction: boolean;
  publicOrigin: string;
  /** `sha256-…` sources of the built pages' inline `<style>` elements (static-pwa.ts `inlineStyleHashes`). */
  inlineStyleHashes?: readonly string[];
};

/**
 * CSP and the other headers of QUALITY 11. No inline script anywhere: the built PWA loads only
 * its own files, and the socket connects to the app's own origin only (PUBLIC_ORIGIN as ws: or
 * wss:, named because older browsers do not read 'self' as covering WebSockets).
 */
function helmetOptions(options: SecurityHeadersOptions): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // The inline critical CSS of the page rendered at build time, allowed by its hash only
        // (inlineStyleHashes); no 'unsafe-inline', so an injected <style> or style attribute stays blocked.
        'style-src': ["'self'", ...(options.inlineStyleHashes ?? []).map((hash) => `'${hash}'`)],
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
  };
}

/**
 * The headers helmet sets for these options, computed once: they depend on nothing in the
 * request (no nonces, no per-request directives). @fastify/helmet rebuilt helmet's middleware and
 * re-rendered the CSP on every request (~0.1 ms of CPU each, docs/performance.md).
 */
export function securityHeaders(options: SecurityHeadersOptions): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.set(name.toLowerCase(), String(value));
    },
    removeHeader: (name: string) => {
      headers.delete(name.toLowerCase());
    },
  };
  helmet(helmetOptions(options))({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * Every answer (API, static files, errors, 404s) carries the security headers, and every API
 * answer `Cache-Control: no-store`, set when the request arrives so nothing later can forget them
 * (a route may still add to them: the selfie's `no-store, private`).
 */
export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: SecurityHeadersOptions) => {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, as helmet did: they outlive whatever the reply does later (errors too).
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    if (request.url.startsWith('/api/') || request.url === '/api') reply.raw.setHeader('cache-control', 'no-store');
    done();
  });
});
