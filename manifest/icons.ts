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

await Promise.all(TARGETS.map(renderIcon));
await copyFile(path.join(SOURCE_DIR, 'icon.svg'), path.join(PUBLIC_DIR, 'favicon.svg'));
console.log('favicon.svg');
