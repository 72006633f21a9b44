import path from 'node:path';
import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { defineConfig, type Plugin } from 'vite';
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
  return {
    name: 'entreno:preload-login-route',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
        const login = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/client/routes/login.tsx'));
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

/** The modules that open the signed-in area: its layout, its pages and the runtime they start. */
const SIGNED_IN_ROOTS = [
  'app/layouts/protected-layout.tsx',
  'app/signed-in-runtime.ts',
  'features/moderation/moderator-access.ts',
  ...['home', 'config', 'matches', 'messages', 'messages-conversation', 'entrenos', 'entrenos-abiertos'].map(
    (page) => `routes/${page}.tsx`,
  ),
  ...['notifications', 'edit-profile', 'moderation'].map((page) => `routes/${page}.tsx`),
];

/** The modules that open the other public screens (registration, recovery, the info pages). */
const PUBLIC_SCREENS = [
  'app/layouts/auth-layout.tsx',
  'app/layouts/info-layout.tsx',
  ...['register', 'register-email', 'register-google', 'forgot-password', 'reset-password'].map(
    (page) => `routes/${page}.tsx`,
  ),
  ...['unauthorized', 'not-found', 'terms', 'privacy', 'compartido', 'dev-outbox', 'dev-ui'].map(
    (page) => `routes/${page}.tsx`,
  ),
];

/** A module id from its path under src/client. */
const fromClient = (file: string) => path.resolve('src/client', file);

type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null;
};

/**
 * Every module `roots` (paths under src/client) import, statically and, from a module
 * `isDynamicFollowed` accepts, through `import()` too.
 */
function reachable(graph: ModuleGraph, roots: readonly string[], isDynamicFollowed: (id: string) => boolean) {
  const seen = new Set<string>();
  const visit = (id: string) => {
    if (seen.has(id)) return;
    const info = graph.getModuleInfo(id);
    if (!info) return;
    seen.add(id);
    for (const imported of info.importedIds) visit(imported);
    if (isDynamicFollowed(id)) for (const imported of info.dynamicallyImportedIds) visit(imported);
  };
  for (const root of roots) visit(fromClient(root));
  return seen;
}

/**
 * The signed-in area in two chunks where automatic splitting made ~45 (a signed-in load of /home
 * fetched 56 scripts; the features' barrels make most pages need most of the area anyway):
 *
 * - `shared`: what the signed-in area shares with the public screens other than the login
 *   (dialogs, menus, the registration's parts…);
 * - `signed-in`: everything else its pages reach, which no public screen loads.
 *
 * The same code in about a third of the requests, and a fresh signed-in load of /home costs about a
 * fifth less CPU (docs/performance.md "The test suite"). The entry and the login route keep
 * automatic splitting: fewer, larger files there made Lighthouse's simulated blocking time on
 * /login worse (docs/performance.md "Fewer files for the login's start", decision 0031).
 */
function signedInChunks() {
  let chunkOf: Map<string, string> | null = null;
  const assign = (graph: ModuleGraph) => {
    const chunks = new Map<string, string>();
    // The entry's own dynamic imports (the router's lazy pages, the signed-in runtime) are not
    // followed from it; a screen's are (what a public screen opens is public too: the login's
    // panel for a restricted account).
    const listed = new Set([...SIGNED_IN_ROOTS, ...PUBLIC_SCREENS, 'routes/login.tsx'].map(fromClient));
    const pages = graph.getModuleInfo(fromClient('app/router.tsx'))?.dynamicallyImportedIds ?? [];
    const unlisted = pages.filter((page) => !listed.has(page));
    if (pages.length === 0 || unlisted.length > 0) {
      throw new Error(
        `vite.config.ts: list each lazy page of src/client/app/router.tsx in SIGNED_IN_ROOTS or PUBLIC_SCREENS: ${unlisted.join(', ') || 'none found'}`,
      );
    }
    const entry = reachable(graph, ['main.tsx'], () => false);
    const login = reachable(graph, ['routes/login.tsx'], () => false);
    const screens = reachable(graph, [...PUBLIC_SCREENS, 'routes/login.tsx'], (module) => !entry.has(module));
    const isPublic = (module: string) => entry.has(module) || screens.has(module);
    const signedIn = reachable(graph, SIGNED_IN_ROOTS, (module) => !isPublic(module));
    for (const module of signedIn) {
      if (entry.has(module) || login.has(module)) continue;
      chunks.set(module, screens.has(module) ? 'shared' : 'signed-in');
    }
    return chunks;
  };
  return {
    name: (id: string, graph: ModuleGraph) => {
      chunkOf ??= assign(graph);
      return chunkOf.get(id) ?? null;
    },
  };
}

/**
 * The entry's modules in chunks that import nothing leading back to it, so that the login page
 * built at build time evaluates each ahead of the entry, in a task of its own
 * (src/client/prerendered-start.ts, issue 34). In the entry they were one 20–40 ms task after the
 * first paint: on Lighthouse's phone (4× the CPU time) the largest part of the blocking time. Each
 * chunk's evaluation stays under 10 ms on this 2-core host:
 *
 * - `react-dom`: react-dom and its scheduler, started by src/client/react-dom-client.ts (react-dom
 *   is CommonJS: its body runs where it is first required, so that module must be in the chunk);
 * - `vendor`: the entry's other packages;
 * - `entry-shared`: the entry's modules of src/shared (the schemas valibot builds as they are evaluated);
 * - `services`: the entry's services (session, http, tokens…).
 *
 * The entry keeps the app's own start (app.tsx, the router's tree, main.tsx).
 */
function entryChunks() {
  let entry: Set<string> | null = null;
  return {
    name: (id: string, graph: ModuleGraph) => {
      entry ??= reachable(graph, ['main.tsx'], () => false);
      if (!entry.has(id)) return null;
      if (/node_modules[\\/](react-dom|scheduler)[\\/]/.test(id) || id === fromClient('react-dom-client.ts'))
        return 'react-dom';
      if (/node_modules[\\/]/.test(id)) return 'vendor';
      if (id.startsWith(path.resolve('src/shared') + path.sep)) return 'entry-shared';
      if (id.startsWith(fromClient('services') + path.sep)) return 'services';
      return null;
    },
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
    // The signed-in chunk is most of the signed-in area (`signedInChunks`), ~500 kB before compression.
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // A chunk takes only the modules `signedInChunks` names for it, never their imports too.
          includeDependenciesRecursively: false,
          groups: [entryChunks(), signedInChunks()],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${SERVER_PORT}`, changeOrigin: false },
      '/socket.io': { target: `http://localhost:${SERVER_PORT}`, ws: true },
    },
  },
});
