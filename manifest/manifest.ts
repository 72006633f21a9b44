import type { ManifestOptions } from 'vite-plugin-pwa';

/** The web app manifest (QUALITY 18). Icons are generated into public/icons by manifest/icons.ts. */
export const manifest: Partial<ManifestOptions> = {
  name: 'Entreno: compañeros de entrenamiento',
  short_name: 'Entreno',
  description: 'Encuentra compañeros de gimnasio y entrenamiento cerca de ti, haz match y chatea.',
  lang: 'es',
  dir: 'ltr',
  start_url: '/',
  scope: '/',
  id: '/',
  display: 'standalone',
  orientation: 'portrait',
  theme_color: '#f97316',
  background_color: '#ffffff',
  categories: ['health', 'fitness', 'social'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};
