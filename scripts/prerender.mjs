// Renders the login route to static HTML after the client build (docs/decisions/0031): builds
// src/client/prerender.tsx for Node with Vite, renders /login with the real route tree, and writes
// dist/client/login.html (index.html with the markup inside #root, its critical CSS inline and the
// app's files held in a template until the first paint, issue 34). The server answers /login with
// it, so the first paint needs nothing but the HTML; the client's first render replaces it.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import { criticalCss } from './critical-css.mjs';

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

/** The chunk files `file` imports statically (Vite's `import … from "./x.js"` between chunks). */
function staticImports(file) {
  const source = readFileSync(path.join(clientDir, file), 'utf8');
  const dir = path.posix.dirname(file);
  return [...source.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)].map((match) =>
    path.posix.normalize(path.posix.join(dir, match[1])),
  );
}

/**
 * The static page's head (docs/decisions/0031, issue 34): its first paint waits for nothing but
 * the HTML. The shell's stylesheets and scripts move into an inert `<template id="app-start">`
 * (fetched by nobody until src/client/prerendered-start.ts, a deferred classic script, adopts
 * them after the first paint or at the person's first action); the CSS the markup needs is inline
 * (its hash is in the CSP's style-src, src/server/plugins/static-pwa.ts). The modulepreloads
 * whose chunks import nothing that leads back to the entry are marked for evaluation ahead of it,
 * one per task, in an order where each chunk's imports come first.
 */
function staticPageHead(markup, startScript) {
  const linkTags = head.match(/<link\b[^>]*rel="(?:stylesheet|modulepreload)"[^>]*>/g) ?? [];
  const entryTag = head.match(/<script\b[^>]*type="module"[^>]*><\/script>/)?.[0];
  const entry = entryTag?.match(/src="\/([^"]+)"/)?.[1];
  if (!entryTag || !entry) throw new Error('prerender: dist/client/index.html has no module script');
  const hrefOf = (tag) => tag.match(/href="\/([^"]+)"/)?.[1] ?? '';
  const stylesheetTags = linkTags.filter((tag) => tag.includes('rel="stylesheet"'));
  const css = stylesheetTags.map((tag) => readFileSync(path.join(clientDir, hrefOf(tag)), 'utf8')).join('\n');
  const critical = criticalCss(css, markup);
  // Which chunks reach the entry (they cannot be evaluated before it), and an order where each
  // chunk's imports come first.
  const reachesEntry = new Map();
  const leadsToEntry = (file, seen = new Set()) => {
    if (file === entry) return true;
    if (reachesEntry.has(file)) return reachesEntry.get(file);
    if (seen.has(file)) return false;
    seen.add(file);
    const result = staticImports(file).some((imported) => leadsToEntry(imported, seen));
    reachesEntry.set(file, result);
    return result;
  };
  const ordered = [];
  const visit = (file) => {
    if (ordered.includes(file) || file === entry) return;
    for (const imported of staticImports(file)) visit(imported);
    ordered.push(file);
  };
  const preloads = linkTags.filter((tag) => tag.includes('rel="modulepreload"')).map(hrefOf);
  for (const file of preloads) if (!leadsToEntry(file)) visit(file);
  const ahead = ordered.filter((file) => preloads.includes(file));
  const later = preloads.filter((file) => !ahead.includes(file));
  const preloadTag = (file, isAhead) =>
    `<link rel="modulepreload" crossorigin href="/${file}"${isAhead ? ' data-evaluate-ahead' : ''}>`;
  const template = [
    ...stylesheetTags,
    ...ahead.map((file) => preloadTag(file, true)),
    ...later.map((file) => preloadTag(file, false)),
    entryTag,
  ].join('');
  let result = head;
  for (const tag of [...linkTags, entryTag]) result = result.replace(tag, '');
  result = result.replace(/\n\s*\n/g, '\n');
  return {
    head: `${result.trimEnd()}\n    <style>${critical}</style>\n    <script defer src="/${startScript}"></script>\n    <template id="app-start">${template}</template>\n  `,
    criticalBytes: Buffer.byteLength(critical),
    ahead: ahead.length,
  };
}

/** src/client/prerendered-start.ts as one classic script in dist/client/assets (content-hashed name). */
async function buildStartScript() {
  const startDir = path.join(root, 'dist/prerendered-start');
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      outDir: startDir,
      emptyOutDir: true,
      target: 'es2020',
      sourcemap: false,
      minify: true,
      lib: { entry: 'src/client/prerendered-start.ts', formats: ['iife'], name: 'prerenderedStart' },
      rollupOptions: { output: { entryFileNames: 'prerendered-start.js' } },
    },
  });
  const code = readFileSync(path.join(startDir, 'prerendered-start.js'));
  rmSync(startDir, { recursive: true, force: true });
  const file = `assets/prerendered-start-${createHash('sha256').update(code).digest('base64url').slice(0, 8)}.js`;
  writeFileSync(path.join(clientDir, file), code);
  return file;
}

const { renderPage } = await import(pathToFileURL(path.join(outDir, 'prerender.mjs')).href);
const shell = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
const ROOT_ELEMENT = '<div id="root"></div>';
if (!shell.includes(ROOT_ELEMENT)) throw new Error(`prerender: dist/client/index.html has no ${ROOT_ELEMENT}`);
const head = shell.slice(0, shell.indexOf('</head>'));
const startScript = await buildStartScript();

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
  // Until the app runs, a button of the static page does nothing by itself: it says so
  // (aria-disabled), so assistive technology, and automation that waits for enabled controls, wait
  // for the live one; a tap on it starts the app and is replayed on the live button
  // (src/client/prerendered-start.ts). Links work as they are (real addresses); the form is
  // invisible for its first 600 ms.
  // A field takes no typing either (readonly): the first render replaces the static markup, and
  // what was typed into it was lost — an e-mail typed on a slow phone, and the journeys that
  // filled the form before the script ran (auth-session's first journey was flaky on it).
  const staticMarkup = markup
    .replaceAll('<button ', '<button aria-disabled="true" ')
    .replaceAll('<input ', '<input readonly="" aria-disabled="true" ');
  const built = staticPageHead(markup, startScript);
  const html = `${built.head}${shell.slice(head.length)}`.replace(ROOT_ELEMENT, `<div id="root">${staticMarkup}</div>`);
  // Nothing may hold the first paint: no stylesheet link or script outside the template but the
  // deferred start script (a later change to index.html that adds one fails the build here).
  const outside = html.slice(0, html.indexOf('<template id="app-start">')) + html.slice(html.indexOf('</template>'));
  const blocking = outside.match(/<link\b[^>]*rel="stylesheet"[^>]*>|<script\b(?![^>]*\bdefer\b)[^>]*>/g) ?? [];
  if (blocking.length > 0) throw new Error(`prerender: ${page.url}'s first paint would wait for ${blocking.join(' ')}`);
  writeFileSync(path.join(clientDir, page.file), html);
  console.log(
    `prerender: ${page.url} → dist/client/${page.file} (${(markup.length / 1024).toFixed(1)} KB of markup, ${(built.criticalBytes / 1024).toFixed(1)} KB of inline CSS, ${built.ahead} chunks evaluated ahead of the entry)`,
  );
}

rmSync(outDir, { recursive: true, force: true });
// The server bundle and the SSR render keep handles (timers of imported modules) open.
process.exit(0);
