import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import UnoCSS from 'unocss/vite';
import { defineConfig, type Plugin, type Rolldown } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { manifest } from './manifest/manifest.ts';

const SERVER_PORT = Number(process.env.PORT ?? 3000);

/**
 * Adds `<link rel="modulepreload">` for the login route's chunk and the chunks it imports to
 * index.html. The login screen is where every new visitor lands: without the hint its chunk is
 * requested only once the entry has run (one more round trip before the first paint on a slow
 * network, QUALITY 28). Signed-in visitors load it from the service worker's precache.
 */
function preloadLoginRoute(): Plugin {
  const MAX_LOGIN_START_FILES = 6;
  return {
    name: 'entreno:preload-login-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const login = chunks.find((chunk) => chunk.moduleIds.includes(LOGIN_ROUTE_MODULE));
        if (!login) throw new Error('preload-login-route: no chunk for src/client/routes/login.tsx');
        const files = new Set<string>();
        const styles = new Set<string>();
        const visit = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          const chunk = chunks.find((candidate) => candidate.fileName === fileName);
          for (const css of chunk?.viteMetadata?.importedCss ?? []) styles.add(css);
          for (const imported of chunk?.imports ?? []) visit(imported);
        };
        visit(login.fileName);
        for (const entry of chunks.filter((chunk) => chunk.isEntry)) visit(entry.fileName);
        // QUALITY 28: on HTTP/1.1 the browser opens six connections to the app's origin; a seventh
        // file of the login's start waits for one of them (a round trip on a slow network, which
        // Lighthouse's simulation counts before the first paint). See loginStartChunk below.
        if (files.size > MAX_LOGIN_START_FILES) {
          throw new Error(
            `preload-login-route: the login's start is ${files.size} JavaScript files (at most ${MAX_LOGIN_START_FILES}): ${[...files].join(', ')}`,
          );
        }
        const isLinked = (fileName: string) => html.includes(`/${fileName}"`);
        // The route's own CSS (a few keyframes) as a stylesheet: the dynamic import would otherwise
        // wait for it after the chunk arrived; Vite's loader skips a stylesheet already linked.
        const stylesheets = [...styles]
          .filter((fileName) => !isLinked(fileName))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
        const modules = [...files]
          .filter((fileName) => !isLinked(fileName))
          .map((fileName) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
            injectTo: 'head' as const,
          }));
        return [...stylesheets, ...modules];
      },
    },
  };
}

const ENTRY_MODULE = fileURLToPath(new URL('./src/client/main.tsx', import.meta.url));
const LOGIN_ROUTE_MODULE = fileURLToPath(new URL('./src/client/routes/login.tsx', import.meta.url));

/**
 * The chunk each module of the login's start goes to (docs/decisions/0031, 2026-11-27 amendment):
 * `app` for what the entry imports and what the login route shares with other lazy chunks (every
 * route loads it), `login` for what only the login route imports; `null` leaves a module to
 * Rolldown's automatic splitting (the other routes). Without these groups the login's start was
 * 18 files: on HTTP/1.1's six connections, each file after the sixth waits a round trip, and
 * Lighthouse's simulated slow 4G counts every one before the first paint.
 */
function loginStartChunk(): (moduleId: string, context: Rolldown.ChunkingContext) => string | null {
  let groups: Map<string, string> | undefined;
  const staticClosure = (root: string, context: Rolldown.ChunkingContext) => {
    const seen = new Set<string>();
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(context.getModuleInfo(id)?.importedIds ?? []));
    }
    return seen;
  };
  const plan = (context: Rolldown.ChunkingContext) => {
    const initial = staticClosure(ENTRY_MODULE, context);
    const login = staticClosure(LOGIN_ROUTE_MODULE, context);
    if (!initial.has(ENTRY_MODULE) || !login.has(LOGIN_ROUTE_MODULE))
      throw new Error('login-start chunks: the entry or the login route is not in the module graph');
    const result = new Map<string, string>();
    for (const id of initial) if (id !== ENTRY_MODULE) result.set(id, 'app');
    for (const id of login) {
      if (initial.has(id)) continue;
      const importers = context.getModuleInfo(id)?.importers ?? [];
      const dynamicImporters = context.getModuleInfo(id)?.dynamicImporters ?? [];
      const onlyLogin = importers.every((importer) => login.has(importer)) && dynamicImporters.length === 0;
      // Stylesheets go with the app's: one render-blocking stylesheet instead of two.
      result.set(id, (onlyLogin || id === LOGIN_ROUTE_MODULE) && !id.endsWith('.css') ? 'login' : 'app');
    }
    return result;
  };
  return (moduleId, context) => {
    groups ??= plan(context);
    return groups.get(moduleId) ?? null;
  };
}

export default defineConfig({
  plugins: [
    UnoCSS(),
    react(),
    preloadLoginRoute(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // The app registers the worker itself (src/client/services/sw-registration.ts) so it can
      // offer updates with a prompt; no inline registration script (CSP forbids inline script).
      injectRegister: false,
      registerType: 'prompt',
      // Emitted as /manifest.webmanifest, with a <link rel="manifest"> injected into index.html.
      manifest,
      // The glob below alone chooses the precache, so the large install-time icons can stay out.
      includeAssets: [],
      includeManifestIcons: false,
      injectManifest: {
        // A classic script rather than an ES-module worker: every browser with service workers runs it.
        rollupFormat: 'iife',
        // Photos and API answers are cached at run time by the worker's own rules, never precached.
        // The plugin adds manifest.webmanifest itself.
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        globIgnores: [
          // Source maps are for developers: they stay on the server, never in a user's cache.
          '**/*.map',
          '**/screenshots/**',
          // The browser fetches the install icons while installing (online); the app never shows them.
          'icons/icon-512.png',
          'icons/icon-maskable-512.png',
          'icons/apple-touch-icon.png',
          'icons/shortcut-*.png',
        ],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      devOptions: { enabled: false, type: 'module' },
    }),
  ],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: { codeSplitting: { groups: [{ name: loginStartChunk(), debugName: 'login-start' }] } },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${SERVER_PORT}`, changeOrigin: false },
      '/socket.io': { target: `http://localhost:${SERVER_PORT}`, ws: true },
    },
  },
});
