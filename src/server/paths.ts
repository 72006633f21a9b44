import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file both in the sources and in the built bundle. */
function findAppRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the server module');
    dir = parent;
  }
  return dir;
}

export const APP_ROOT = findAppRoot();
export const MIGRATIONS_DIR = path.join(APP_ROOT, 'src/server/db/migrations');
