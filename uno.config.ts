import { defineConfig, presetWind4 } from 'unocss';

export default defineConfig({
  presets: [presetWind4({ preflights: { reset: true } })],
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
