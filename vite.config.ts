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
  },
  server: {
    proxy: {
      '/api': { target: `http://localhost:${SERVER_PORT}`, changeOrigin: false },
      '/socket.io': { target: `http://localhost:${SERVER_PORT}`, ws: true },
    },
  },
});
