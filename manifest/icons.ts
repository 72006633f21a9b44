/**
 * Renders the app icons from the SVG sources next to this file: `npx tsx manifest/icons.ts`.
 * The outputs are committed (public/icons, public/favicon.svg), so run it only after editing an SVG.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = path.join(ROOT, 'manifest');
const PUBLIC_DIR = path.join(ROOT, 'public');
/** Both sources are drawn on a 512 × 512 viewBox. */
const SOURCE_SIZE = 512;
/** librsvg's default resolution, from which the density that renders the viewBox at a size follows. */
const BASE_DENSITY = 72;

type IconTarget = {
  source: 'icon.svg' | 'icon-maskable.svg';
  output: string;
  size: number;
  /** Full-bleed artwork is written without an alpha channel, so no launcher shows a dark edge. */
  isOpaque: boolean;
};

const TARGETS: readonly IconTarget[] = [
  { source: 'icon.svg', output: 'icons/icon-192.png', size: 192, isOpaque: false },
  { source: 'icon.svg', output: 'icons/icon-512.png', size: 512, isOpaque: false },
  { source: 'icon-maskable.svg', output: 'icons/icon-maskable-512.png', size: 512, isOpaque: true },
  // iOS fills transparent pixels of a touch icon with black and rounds the corners itself, so
  // it gets the full-bleed artwork.
  { source: 'icon-maskable.svg', output: 'icons/apple-touch-icon.png', size: 180, isOpaque: true },
];

async function renderIcon({ source, output, size, isOpaque }: IconTarget): Promise<void> {
  const outputPath = path.join(PUBLIC_DIR, output);
  await mkdir(path.dirname(outputPath), { recursive: true });
  // Rasterising at the final size (rather than large, then downscaling) keeps librsvg's own
  // anti-aliasing, which is sharper on the small icons.
  const image = sharp(path.join(SOURCE_DIR, source), { density: (BASE_DENSITY * size) / SOURCE_SIZE }).resize(
    size,
    size,
  );
  await (isOpaque ? image.removeAlpha() : image)
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toFile(outputPath);
  console.log(`${output} (${size}×${size})`);
}

/**
 * The shortcut icons (manifest `shortcuts`): the bottom bar's Lucide glyph of each tab, white on
 * the brand gradient, so a long press on the installed icon shows the same pictures as the app.
 */
const SHORTCUT_GLYPHS: Record<string, string> = {
  home: '<path d="M8.5 14.5A2.5 2.5 0 0 0 11 12c0-1.38-.5-2-1-3-1.072-2.143-.224-4.054 2-6 .5 2.5 2 4.9 4 6.5 2 1.6 3 3.5 3 5.5a7 7 0 1 1-14 0c0-1.153.433-2.294 1-3a2.5 2.5 0 0 0 2.5 2.5z"/>',
  messages: '<path d="M7.9 20A9 9 0 1 0 4 16.1L2 22Z"/>',
  notifications: '<path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9"/><path d="M10.3 21a1.94 1.94 0 0 0 3.4 0"/>',
};
const SHORTCUT_ICON_SIZE = 96;

async function renderShortcutIcon([name, glyph]: [string, string]): Promise<void> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fb923c"/><stop offset="1" stop-color="#ea580c"/></linearGradient></defs>
  <rect width="96" height="96" rx="22" fill="url(#bg)"/>
  <g transform="translate(24 24) scale(2)" fill="none" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${glyph}</g>
</svg>`;
  const output = `icons/shortcut-${name}.png`;
  await sharp(Buffer.from(svg))
    .resize(SHORTCUT_ICON_SIZE, SHORTCUT_ICON_SIZE)
    .png({ compressionLevel: 9, adaptiveFiltering: true })
    .toFile(path.join(PUBLIC_DIR, output));
  console.log(`${output} (${SHORTCUT_ICON_SIZE}×${SHORTCUT_ICON_SIZE})`);
}

await Promise.all([...TARGETS.map(renderIcon), ...Object.entries(SHORTCUT_GLYPHS).map(renderShortcutIcon)]);
await copyFile(path.join(SOURCE_DIR, 'icon.svg'), path.join(PUBLIC_DIR, 'favicon.svg'));
console.log('favicon.svg');
