import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = path.resolve(import.meta.dirname, '../../scripts/check-boundaries.mjs');
const trees: string[] = [];

/** A throwaway tree of the given files (path → source), checked by the script: its exit and its report. */
function check(files: Record<string, string>): { ok: boolean; report: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'boundaries-'));
  trees.push(root);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  try {
    return { ok: true, report: execFileSync(process.execPath, [script, root], { encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    return { ok: false, report: String((error as { stderr?: string }).stderr) };
  }
}

afterEach(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('check-boundaries on the server', () => {
  it('passes the directions ARCHITECTURE.md draws', () => {
    const result = check({
      'src/server/app.ts': "import { createChatModule } from './features/chat/chat-module.ts';\n",
      'src/server/tools/seed.ts': "import { x } from '../features/chat/chat-repository.ts';\n",
      'src/server/features/chat/chat-module.ts':
        "import { chatRoutes } from './chat-routes.ts';\nimport type { PushService } from '../push/push-service.ts';\n",
      'src/server/features/chat/chat-routes.ts':
        "import { requireAuth } from '../../plugins/auth.ts';\nimport { s } from './chat-service.ts';\n",
      'src/server/features/chat/chat-service.ts':
        "import { r } from './chat-repository.ts';\nimport { limit } from '../../infra/rate-limit.ts';\n",
      'src/server/features/chat/chat-repository.ts': "import { db } from '../../db/client.ts';\n",
      'src/server/plugins/auth.ts': "import type { SessionGate } from '../infra/session-contract.ts';\n",
    });
    expect(result.report).toContain('dependency directions hold');
    expect(result.ok).toBe(true);
  });

  it.each([
    ['a service importing its routes', 'src/server/features/a/a-service.ts', "import { r } from './a-routes.ts';"],
    [
      'a repository importing a service',
      'src/server/features/a/a-repository.ts',
      "import { s } from './a-service.ts';",
    ],
    ['a plugin importing a feature', 'src/server/plugins/auth.ts', "import { s } from '../features/a/a-service.ts';"],
    ['infra importing a plugin', 'src/server/infra/bus.ts', "import { p } from '../plugins/realtime.ts';"],
    ['a feature importing a tool', 'src/server/features/a/a-module.ts', "import { seed } from '../../tools/seed.ts';"],
    ['db importing a feature', 'src/server/db/seed.ts', "import { m } from '../features/a/a-model.ts';"],
    [
      'a service importing a plugin',
      'src/server/features/a/a-service.ts',
      "import { l } from '../../plugins/rate-limit.ts';",
    ],
    [
      "a service importing another feature's routes",
      'src/server/features/a/a-service.ts',
      "import { r } from '../b/b-routes.ts';",
    ],
    ['anything importing app.ts', 'src/server/features/a/a-module.ts', "import { buildApp } from '../../app.ts';"],
  ])('refuses %s', (_name, file, source) => {
    const result = check({ [file]: `${source}\n` });
    expect(result.ok).toBe(false);
    expect(result.report).toContain(file);
  });

  it('reaches a feature that has an index.ts only through it (or, from a module, its module)', () => {
    const tree = {
      'src/server/features/b/index.ts': "export type { BService } from './b-service.ts';\n",
      'src/server/features/b/b-service.ts': "import { r } from './b-repository.ts';\n",
      'src/server/features/b/b-module.ts': "import { s } from './b-service.ts';\n",
      'src/server/features/a/a-module.ts': "import { m } from '../b/b-module.ts';\n",
      'src/server/features/a/a-service.ts': "import type { BService } from '../b/index.ts';\n",
    };
    expect(check(tree).ok).toBe(true);
    const past = check({
      ...tree,
      'src/server/features/a/a-repository.ts': "import { r } from '../b/b-repository.ts';\n",
    });
    expect(past.ok).toBe(false);
    expect(past.report).toContain('src/server/features/a/a-repository.ts');
    expect(past.report).toContain('features/b has an index.ts');
  });

  it('refuses a client feature importing another one', () => {
    const result = check({ 'src/client/features/chat/chat.tsx': "import { x } from '../profile/profile.tsx';\n" });
    expect(result.ok).toBe(false);
    expect(result.report).toContain('src/client/features/chat/chat.tsx');
  });
});
