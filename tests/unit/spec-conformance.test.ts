import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const TABLE = readFileSync(new URL('docs/spec-conformance.md', ROOT), 'utf8');

type Row = { line: number; spec: string; requirement: string; file: string; test: string };

/** The table rows of docs/spec-conformance.md: `| n | spec | requirement | \`file\` | test |`. */
function rows(): Row[] {
  const found: Row[] = [];
  for (const [index, line] of TABLE.split('\n').entries()) {
    if (!/^\| \d+ \|/.test(line)) continue;
    // Cells split on | not preceded by a backslash; \| inside a cell is a literal bar.
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    const [, spec = '', requirement = '', file = '', test = ''] = cells;
    found.push({ line: index + 1, spec, requirement, file: file.replace(/^`|`$/g, ''), test });
  }
  return found;
}

/** Whether `source` declares a test (it/test, .each included) titled exactly `title`. */
function declaresTest(source: string, title: string): boolean {
  for (const quote of ["'", '"', '`']) {
    const escaped = quote === "'" ? title.replaceAll("'", "\\'") : title;
    if (source.includes(`${quote}${escaped}${quote}`)) {
      const at = source.indexOf(`${quote}${escaped}${quote}`);
      if (/(?:\bit|\btest)(?:\.each\([^)]*\))?\(\s*$/.test(source.slice(Math.max(0, at - 120), at))) return true;
    }
  }
  return false;
}

describe('docs/spec-conformance.md (#19 §1)', () => {
  const table = rows();

  it('has a row for each requirement of both specs, each naming a spec section', () => {
    expect(table.length).toBeGreaterThan(400);
    for (const row of table) expect(row.spec, `line ${row.line}`).toMatch(/^00[01] §\d$/);
    const specs = new Set(table.map((row) => row.spec.slice(0, 3)));
    expect([...specs].sort()).toEqual(['000', '001']);
  });

  it('covers every section, §1 to §9, of both specs', () => {
    const sections = new Set(table.map((row) => row.spec));
    const missing = ['000', '001'].flatMap((spec) =>
      Array.from({ length: 9 }, (_, index) => `${spec} §${index + 1}`).filter((section) => !sections.has(section)),
    );
    expect(missing).toEqual([]);
  });

  it('names, on every row, a test file that exists and a test that file declares', () => {
    const missing: string[] = [];
    for (const row of table) {
      const path = new URL(row.file, ROOT);
      if (!row.file || !existsSync(path)) {
        missing.push(`line ${row.line}: no file ${row.file}`);
        continue;
      }
      if (!row.test || !declaresTest(readFileSync(path, 'utf8'), row.test)) {
        missing.push(`line ${row.line}: ${row.file} has no test "${row.test}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('catches a row whose test does not exist (the check can fail)', () => {
    const source = "it('does one thing', () => {});\ndescribe('a group', () => {});";
    expect(declaresTest(source, 'does one thing')).toBe(true);
    expect(declaresTest(source, 'a group')).toBe(false);
    expect(declaresTest(source, 'does another thing')).toBe(false);
  });
});
