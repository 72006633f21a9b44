import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { SERVER_MESSAGES } from '#shared/messages';
import { isAppRoute } from '#shared/routes';

const ONE_YEAR_S = 31_536_000;

/** Files that must be revalidated on every load, or a new version would never reach users. */
const NO_CACHE_FILES = new Set(['/index.html', '/login.html', '/sw.js', '/manifest.webmanifest', '/registerSW.js']);

/**
 * The CSP sources (`sha256-…`) of the inline `<style>` elements of the pages rendered at build time
 * (login.html's critical CSS, scripts/prerender.mjs): the CSP allows exactly these and no other
 * inline style. None without a build.
 */
export function inlineStyleHashes(clientDir: string): string[] {
  const loginPath = path.join(clientDir, 'login.html');
  if (!existsSync(loginPath)) return [];
  const html = readFileSync(loginPath, 'utf8');
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (match) =>
      `sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}`,
  );
}

/**
 * Serves the built PWA from `clientDir`: hashed assets cached for a year, the shell and worker
 * revalidated, app routes answered with index.html (404 status for unknown paths, whose page the
 * client renders), and unknown /api or /socket.io paths answered with JSON.
 */
export const staticPwaPlugin = fp(async (app: FastifyInstance, options: { clientDir: string }) => {
  const indexPath = path.join(options.clientDir, 'index.html');
  const hasClient = existsSync(indexPath);
  // /login rendered at build time (scripts/prerender.mjs, docs/decisions/0031): its first paint
  // needs no JavaScript. A build without it answers /login with index.html like any route.
  const hasLoginPage = hasClient && existsSync(path.join(options.clientDir, 'login.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      wildcard: false,
      index: false,
      // dist/client carries .br and .gz siblings (scripts/compress-client.mjs).
      preCompressed: true,
      setHeaders(reply, filePath) {
        // A precompressed sibling (sw.js.br) gets the headers of the file it stands for (sw.js).
        const rel = `/${path.relative(options.clientDir, filePath).split(path.sep).join('/')}`.replace(
          /\.(br|gz)$/,
          '',
        );
        if (rel.startsWith('/assets/')) {
          reply.header('cache-control', `public, max-age=${ONE_YEAR_S}, immutable`);
        } else if (NO_CACHE_FILES.has(rel) || rel.startsWith('/workbox-')) {
          reply.header('cache-control', 'no-cache');
        } else {
          reply.header('cache-control', 'public, max-age=3600');
        }
      },
    });
  } else {
    app.log.warn({ clientDir: options.clientDir }, 'no built client found: run `npm run build`');
  }
  let indexHtml: string | undefined;

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isApi = pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/socket.io');
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApi;
    if (!wantsPage || !hasClient) {
      return reply.status(404).send({ success: false, message: SERVER_MESSAGES.routeNotFound });
    }
    if (pathname === '/login' && hasLoginPage) {
      // Precompressed when the browser accepts it (login.html.br / .gz), no-cache like index.html.
      return reply.header('cache-control', 'no-cache').sendFile('login.html');
    }
    indexHtml ??= await readFile(indexPath, 'utf8');
    return reply
      .status(isAppRoute(pathname) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
});
