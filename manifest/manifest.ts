import type { ManifestOptions } from 'vite-plugin-pwa';

/**
 * The app's screenshots for the browser's install sheet: taken from the real, built app with the
 * demo account by `npm run screenshots` (scripts/screenshots.ts), never drawn by hand. Phone-sized
 * (390 × 844 CSS px at 2×), so Chromium shows them in its rich install sheet on phones.
 */
export const MANIFEST_SCREENSHOTS = [
  { file: 'conectar', path: '/home', label: 'Conectar: compañeros de entrenamiento cerca de ti' },
  { file: 'mensajes', path: '/messages', label: 'Mensajes: quedad para entrenar juntos' },
  { file: 'entrenamientos', path: '/matches', label: 'Tus entrenamientos: las personas con las que has conectado' },
] as const;
export const SCREENSHOT_VIEWPORT = { width: 390, height: 844, deviceScaleFactor: 2 } as const;

/** The web app manifest (QUALITY 18, issue #22). Icons are generated into public/icons by manifest/icons.ts. */
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
  // Where the browser supports neither, it falls back to `display`.
  display_override: ['standalone', 'minimal-ui'],
  orientation: 'portrait',
  theme_color: '#f97316',
  background_color: '#ffffff',
  categories: ['health', 'fitness', 'social'],
  // Opening the app again (its icon, a shortcut) brings the open window forward instead of a
  // second one; the page navigates to the shortcut itself (launchQueue, src/client/app/launch.ts).
  launch_handler: { client_mode: ['focus-existing', 'auto'] },
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  shortcuts: [
    {
      name: 'Conectar',
      short_name: 'Conectar',
      description: 'Descubre compañeros de entrenamiento cerca de ti',
      url: '/home',
      icons: [{ src: '/icons/shortcut-home.png', sizes: '96x96', type: 'image/png' }],
    },
    {
      name: 'Mensajes',
      short_name: 'Mensajes',
      description: 'Tus conversaciones',
      url: '/messages',
      icons: [{ src: '/icons/shortcut-messages.png', sizes: '96x96', type: 'image/png' }],
    },
    {
      name: 'Notificaciones',
      short_name: 'Notificaciones',
      description: 'Tus notificaciones',
      url: '/notifications',
      icons: [{ src: '/icons/shortcut-notifications.png', sizes: '96x96', type: 'image/png' }],
    },
  ],
  screenshots: MANIFEST_SCREENSHOTS.map(({ file, label }) => ({
    src: `/screenshots/${file}.png`,
    sizes: `${SCREENSHOT_VIEWPORT.width * SCREENSHOT_VIEWPORT.deviceScaleFactor}x${SCREENSHOT_VIEWPORT.height * SCREENSHOT_VIEWPORT.deviceScaleFactor}`,
    type: 'image/png',
    form_factor: 'narrow',
    label,
  })),
};
