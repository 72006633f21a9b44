// Dependency rules that an import glob cannot express (ARCHITECTURE.md, "Dependency direction").
// Client: a feature never imports another feature, nor routes or app; a route never imports app.
// Server: tools → modules → routes / socket handlers → service → repository → db; features and
// plugins may use infra/, never the other way; plugins import no feature, and services and
// repositories no plugin; a feature reaches another feature's routes, socket handlers or module
// only through its own module; a feature with an `index.ts` (its public surface) is reached from
// other features only through that index (or, from a module, its module).
// Biome's noRestrictedImports (biome.json) covers the rest (only repositories import drizzle,
// services import neither fastify nor socket.io).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

// The tree to check: this repository, or the one given (`node scripts/check-boundaries.mjs <dir>`).
const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..'));
const clientDir = path.join(root, 'src/client');
const serverDir = path.join(root, 'src/server');
const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function* walk(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.(ts|tsx)$/.test(name)) yield full;
  }
}

/** Each relative import of a source file under `dir` that stays under `dir`: [file, specifier, target]. */
function* relativeImports(dir) {
  for (const file of walk(dir)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2];
      if (!specifier?.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (target.startsWith(dir)) yield [file, specifier, target];
    }
  }
}

const problems = [];

/** 'features/<name>', 'routes', 'app', 'ui', 'services' or null, for a path inside src/client. */
function clientArea(file) {
  const [top, second] = path.relative(clientDir, file).split(path.sep);
  if (top === 'features' && second) return `features/${second}`;
  return top ?? null;
}

for (const [file, specifier, target] of relativeImports(clientDir)) {
  const from = clientArea(file);
  const to = clientArea(target);
  const crossFeature = from?.startsWith('features/') && to?.startsWith('features/') && from !== to;
  const upward =
    (from?.startsWith('features/') || from === 'ui' || from === 'services') && (to === 'routes' || to === 'app');
  const routeToApp = from === 'routes' && to === 'app';
  const lowerToFeature = (from === 'ui' || from === 'services') && to?.startsWith('features/');
  if (crossFeature || upward || routeToApp || lowerToFeature) {
    problems.push(
      `${path.relative(root, file)}: imports ${specifier} (${from} → ${to}; routes → features → {ui, services, shared}; features never import each other)`,
    );
  }
}

/**
 * Where a server file stands: its area (entry, tools, features, plugins, infra, base) and, inside
 * a feature, its layer by name (module 4, routes/socket 3, service 2, repository 1, helper 0).
 */
function serverPlace(file) {
  const relative = path.relative(serverDir, file).split(path.sep);
  const [top, second] = relative;
  const name = relative.at(-1).replace(/\.tsx?$/, '');
  if (relative.length === 1 && (name === 'main' || name === 'app' || name.startsWith('app-'))) return { area: 'entry' };
  if (top === 'tools') return { area: 'tools' };
  if (top === 'plugins') return { area: 'plugins' };
  if (top === 'infra') return { area: 'infra' };
  // A feature's environment (`<f>-config.ts`, parsed by config.ts) stands with config.ts.
  if (top === 'features' && /-config$/.test(name)) return { area: 'base' };
  if (top === 'features' && relative.length === 3 && name === 'index')
    return { area: 'features', feature: second, layer: 0, isIndex: true };
  if (top === 'features' && relative.length > 2) {
    const layer = /-module$/.test(name)
      ? 4
      : /-(routes|socket)$/.test(name)
        ? 3
        : /-service$/.test(name)
          ? 2
          : /-repository$/.test(name)
            ? 1
            : 0;
    return { area: 'features', feature: second, layer };
  }
  if (top === 'features') return { area: 'features', feature: name, layer: 4 };
  // config, logger, errors, validation, secrets, paths, openapi/, db/, delivery/: below the features.
  return { area: 'base' };
}

const LAYER_NAMES = ['helper', 'repository', 'service', 'routes/socket handler', 'module'];

/** Features that have an `index.ts`: other features reach them only through it. */
const featuresWithIndex = new Set(
  existsSync(path.join(serverDir, 'features'))
    ? readdirSync(path.join(serverDir, 'features')).filter((name) =>
        existsSync(path.join(serverDir, 'features', name, 'index.ts')),
      )
    : [],
);

/** Why an import from `from` to `to` runs the wrong way, or null. */
function serverProblem(from, to) {
  if (to.area === 'entry' && from.area !== 'entry') return 'nothing imports main.ts, app.ts or app-foundation.ts';
  if (to.area === 'tools' && from.area !== 'tools' && from.area !== 'entry')
    return 'tools stand above the features: only tools and the entry points import them';
  if (from.area === 'infra' && to.area !== 'infra' && to.area !== 'base')
    return 'infra/ is used by features and plugins, and uses neither';
  if (from.area === 'base' && to.area !== 'base' && to.area !== 'infra')
    return 'config, db, delivery and the other base pieces import no feature, plugin or tool';
  if (from.area === 'plugins' && (to.area === 'features' || to.area === 'tools'))
    return 'plugins import no feature (a feature hands its service to a plugin through app.ts)';
  if (from.area === 'features' && (from.layer === 1 || from.layer === 2) && to.area === 'plugins')
    return 'services and repositories import no plugin (the limiter and the bus are in infra/)';
  if (from.area !== 'features' || to.area !== 'features') return null;
  if (from.feature !== to.feature) {
    if (from.layer !== 4 && to.layer >= 3)
      return "a feature reaches another feature's routes, socket handlers or module only from its own module";
    if (featuresWithIndex.has(to.feature) && !to.isIndex && to.layer !== 4)
      return `features/${to.feature} has an index.ts: other features import it only through that index`;
    return null;
  }
  if (from.layer === 0 && to.layer >= 3) return 'a helper of a feature imports no routes, socket handler or module';
  if (from.layer > 0 && to.layer > from.layer)
    return `a ${LAYER_NAMES[from.layer]} imports no ${LAYER_NAMES[to.layer]} (module → routes/socket → service → repository)`;
  return null;
}

for (const [file, specifier, target] of relativeImports(serverDir)) {
  if (/\.test\.tsx?$/.test(file)) continue;
  const problem = serverProblem(serverPlace(file), serverPlace(target));
  if (problem) problems.push(`${path.relative(root, file)}: imports ${specifier} (${problem})`);
}

if (problems.length > 0) {
  console.error(`Dependency direction violations (ARCHITECTURE.md, "Dependency direction"): ${problems.length}`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log('check-boundaries: client and server dependency directions hold.');
