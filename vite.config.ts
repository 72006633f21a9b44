import react from '@vitejs/plugin-react';
import UnoCSS from 'unocss/vite';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { manifest } from './manifest/manifest.ts';

const SERVER_PORT = Number(process.env.PORT ?? 3000);

export default defineConfig({
  plugins: [
    UnoCSS(),
    react(),
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
