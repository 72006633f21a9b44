import { icons as lucide } from '@iconify-json/lucide';
import { defineConfig, presetIcons, presetWind4 } from 'unocss';

/** Lucide redrawn: every icon's markup passed through `restyle` (heavier strokes, filled shapes). */
function lucideRestyled(restyle: (body: string) => string) {
  const icons = Object.fromEntries(
    Object.entries(lucide.icons).map(([name, icon]) => [name, { ...icon, body: restyle(icon.body) }]),
  );
  return { ...lucide, icons };
}

const stroke = (width: string) => (body: string) => body.replaceAll('stroke-width="2"', `stroke-width="${width}"`);

export default defineConfig({
  presets: [
    presetWind4({ preflights: { reset: true } }),
    // src/client/ui/icons.tsx: pure CSS masks over currentColor (laid out by the preflight below).
    presetIcons({
      mode: 'mask',
      scale: 1,
      collections: {
        lucide: () => lucide,
        lucide15: () => lucideRestyled(stroke('1.5')),
        lucide225: () => lucideRestyled(stroke('2.25')),
        lucide25: () => lucideRestyled(stroke('2.5')),
        lucide275: () => lucideRestyled(stroke('2.75')),
        lucide3: () => lucideRestyled(stroke('3')),
        lucidefill: () => lucideRestyled((body) => body.replaceAll('fill="none"', 'fill="currentColor"')),
      },
    }),
  ],
  // Icons laid out like the SVGs they replaced: the reset makes an svg a block, middle-aligned
  // (and, sizeless, it shrinks in a crowded flex row like them). A preflight: utilities win.
  preflights: [
    {
      getCSS: () => "[class^='i-lucide'],[class*=' i-lucide']{display:block;vertical-align:middle}",
    },
  ],
  theme: {
    colors: {
      // The manifest's theme colour (#f97316) is brand-500. Text and filled buttons on light
      // backgrounds use brand-700 or darker, the lightest shades that keep 4.5:1 contrast.
      brand: {
        50: '#fff7ed',
        100: '#ffedd5',
        200: '#fed7aa',
        300: '#fdba74',
        400: '#fb923c',
        500: '#f97316',
        600: '#ea580c',
        700: '#c2410c',
        800: '#9a3412',
        900: '#7c2d12',
        950: '#431407',
      },
    },
    font: {
      sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
    },
  },
  content: { pipeline: { include: [/src\/client\/.*\.(tsx?|html)$/, /index\.html$/] } },
});
