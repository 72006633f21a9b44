// Dependency rules that an import glob cannot express (ARCHITECTURE.md, "Dependency direction"):
// a client feature never imports another feature, nor routes or app; a route never imports app.
// Biome's noRestrictedImports (biome.json) covers the rest.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'src/client');
const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.(ts|tsx)$/.test(name)) yield full;
  }
}

/** 'features/<name>', 'routes', 'app', 'ui', 'services' or null, for a path inside src/client. */
function area(file) {
  const [top, second] = path.relative(clientDir, file).split(path.sep);
  if (top === 'features' && second) return `features/${second}`;
  return top ?? null;
}

const problems = [];
for (const file of walk(clientDir)) {
  const from = area(file);
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(importPattern)) {
    const specifier = match[1] ?? match[2];
    if (!specifier?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier);
    if (!target.startsWith(clientDir)) continue;
    const to = area(target);
    const crossFeature = from?.startsWith('features/') && to?.startsWith('features/') && from !== to;
    const upward =
      (from?.startsWith('features/') || from === 'ui' || from === 'services') && (to === 'routes' || to === 'app');
    const routeToApp = from === 'routes' && to === 'app';
    const lowerToFeature = (from === 'ui' || from === 'services') && to?.startsWith('features/');
    if (crossFeature || upward || routeToApp || lowerToFeature) {
      problems.push(`${path.relative(root, file)}: imports ${specifier} (${from} → ${to})`);
    }
  }
}
if (problems.length > 0) {
  console.error(
    'Dependency direction violations (routes → features → {ui, services, shared}; features never import each other):',
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log('check-boundaries: client dependency directions hold.');
