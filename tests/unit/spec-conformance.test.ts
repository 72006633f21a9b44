import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url);
const TABLE = readFileSync(new URL('docs/spec-conformance.md', ROOT), 'utf8');

type Row = { line: number; spec: string; requirement: string; file: string; test: string; state: string };

const DECISIONS = readdirSync(new URL('docs/decisions/', ROOT));

/**
 * What a row's State cell says is wrong, or null: `conforms`, or `deliberate deviation, decision
 * NNNN` naming a record that exists in docs/decisions/ (`decisions` lists its file names).
 */
function stateProblem(state: string, decisions: readonly string[] = DECISIONS): string | null {
  if (state === 'conforms') return null;
  const deviation = /^deliberate deviation, decision (\d{4})$/.exec(state);
  if (!deviation) return `state "${state}" is neither "conforms" nor "deliberate deviation, decision NNNN"`;
  const number = deviation[1] as string;
  return decisions.some((name) => name.startsWith(`${number}-`) && name.endsWith('.md'))
    ? null
    : `decision ${number} has no record in docs/decisions/`;
}

/** The table rows of docs/spec-conformance.md: `| n | spec | requirement | \`file\` | test | state |`. */
function rows(): Row[] {
  const found: Row[] = [];
  for (const [index, line] of TABLE.split('\n').entries()) {
    if (!/^\| \d+ \|/.test(line)) continue;
    // Cells split on | not preceded by a backslash; \| inside a cell is a literal bar.
    const cells = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    const [, spec = '', requirement = '', file = '', test = '', state = ''] = cells;
    found.push({ line: index + 1, spec, requirement, file: file.replace(/^`|`$/g, ''), test, state });
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

  it('gives every row a state: conforms, or a deliberate deviation naming a record that exists', () => {
    const problems = table.flatMap((row) => {
      const problem = stateProblem(row.state);
      return problem ? [`line ${row.line}: ${problem}`] : [];
    });
    expect(problems).toEqual([]);
    // The rows #32 §6 asked for are there, each with its state.
    const deviations = new Set(table.filter((row) => row.state !== 'conforms').map((row) => row.state.slice(-4)));
    for (const record of ['0044', '0045', '0046', '0047', '0048', '0049']) expect(deviations).toContain(record);
  });

  it('catches a deviation whose record does not exist (the check can fail)', () => {
    const records = ['0044-signed-out-and-session-edges.md', '0045-phone.md'];
    expect(stateProblem('conforms', records)).toBeNull();
    expect(stateProblem('deliberate deviation, decision 0044', records)).toBeNull();
    expect(stateProblem('deliberate deviation, decision 0999', records)).toBe(
      'decision 0999 has no record in docs/decisions/',
    );
    expect(stateProblem('deliberate deviation', records)).not.toBeNull();
    expect(stateProblem('', records)).not.toBeNull();
    expect(stateProblem('conforma', records)).not.toBeNull();
  });

  it('catches a row whose test does not exist (the check can fail)', () => {
    const source = "it('does one thing', () => {});\ndescribe('a group', () => {});";
    expect(declaresTest(source, 'does one thing')).toBe(true);
    expect(declaresTest(source, 'a group')).toBe(false);
    expect(declaresTest(source, 'does another thing')).toBe(false);
  });
});
