// Renders the login route to static HTML after the client build (docs/decisions/0031): builds
// src/client/prerender.tsx for Node with Vite, renders /login with the real route tree, and writes
// dist/client/login.html (index.html with the markup inside #root). The server answers /login
// with it, so the first paint needs no JavaScript; the client's first render replaces it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'dist/client');
const outDir = path.join(root, 'dist/prerender');

/** Page address → file in dist/client. */
const PAGES = [{ url: '/login', file: 'login.html' }];

await build({
  configFile: false,
  root,
  logLevel: 'warn',
  plugins: [react()],
  build: {
    ssr: 'src/client/prerender.tsx',
    outDir,
    emptyOutDir: true,
    target: 'node20',
    sourcemap: false,
    rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
  },
});

const { renderPage } = await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href);
const shell = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
const ROOT_ELEMENT = '<div id="root"></div>';
if (!shell.includes(ROOT_ELEMENT)) throw new Error(`prerender: dist/client/index.html has no ${ROOT_ELEMENT}`);

/**
 * What the static page's first paint waits for in the browser (docs/decisions/0031, 2026-11-27
 * amendment): its stylesheets (the app's and the login's keyframes) and no parser-blocking
 * script. A classic script without defer/async would hold the parser; another stylesheet, another
 * round trip on a slow link. Either fails the build here instead of showing up later as a lower
 * Lighthouse score. (The module scripts' size, which Lighthouse also counts, is the client
 * bench's: `npm run bench -- client`.)
 */
const MAX_RENDER_BLOCKING_STYLESHEETS = 2;
const head = shell.slice(0, shell.indexOf('</head>'));
const stylesheets = head.match(/<link\b[^>]*rel="stylesheet"[^>]*>/g) ?? [];
const blockingScripts = (head.match(/<script\b[^>]*>/g) ?? []).filter(
  (tag) => !/\stype="module"|\sdefer\b|\sasync\b/.test(tag),
);
if (stylesheets.length > MAX_RENDER_BLOCKING_STYLESHEETS || blockingScripts.length > 0) {
  throw new Error(
    `prerender: the login page's first paint would wait for ${stylesheets.length} stylesheets (at most ${MAX_RENDER_BLOCKING_STYLESHEETS}) and ${blockingScripts.length} blocking scripts (none): ${[...stylesheets, ...blockingScripts].join(' ')}`,
  );
}

for (const page of PAGES) {
  const markup = await renderPage(page.url);
  // The CSP (src/server/plugins/security-headers.ts) allows neither inline scripts nor style
  // attributes: in static HTML they would be blocked and logged. React sets styles through the
  // DOM once the client renders, which the CSP allows, so such an element must start without one.
  const forbidden = [/<script\b/i, /\sstyle="/i].find((pattern) => pattern.test(markup));
  if (forbidden) {
    throw new Error(
      `prerender: ${page.url} renders ${forbidden} into static HTML, which the CSP blocks; set it after mount instead`,
    );
  }
  if (!markup.includes('<main'))
    throw new Error(`prerender: ${page.url} rendered no <main> (got ${markup.slice(0, 200)})`);
  // Until the script runs, a button of the static page does nothing: it says so (aria-disabled),
  // so assistive technology, and automation that waits for enabled controls, wait for the live
  // one. Links work as they are (real addresses); the form is invisible for its first 600 ms.
  // A field takes no typing either (readonly): the first render replaces the static markup, and
  // what was typed into it was lost — an e-mail typed on a slow phone, and the journeys that
  // filled the form before the script ran (auth-session's first journey was flaky on it).
  const staticMarkup = markup
    .replaceAll('<button ', '<button aria-disabled="true" ')
    .replaceAll('<input ', '<input readonly="" aria-disabled="true" ');
  writeFileSync(path.join(clientDir, page.file), shell.replace(ROOT_ELEMENT, `<div id="root">${staticMarkup}</div>`));
  console.log(`prerender: ${page.url} → dist/client/${page.file} (${(markup.length / 1024).toFixed(1)} KB of markup)`);
}

rmSync(outDir, { recursive: true, force: true });
// The server bundle and the SSR render keep handles (timers of imported modules) open.
process.exit(0);
