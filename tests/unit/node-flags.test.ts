import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Node's flags before the script in a command line (`node --a=1 --b x.js` → ['--a=1', '--b']). */
const flagsOf = (words: string[]) => {
  const start = words.indexOf('node') + 1;
  const script = words.findIndex((word, index) => index >= start && !word.startsWith('--'));
  return words.slice(start, script);
};

/** docs/decisions/0062: the server runs with the same V8 flags however it is started. */
describe('the server’s Node flags', () => {
  it('are the same for npm start and the container image, and size the young generation', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    const npmStart = flagsOf(manifest.scripts.start.split(/\s+/));
    const cmd = readFileSync('Dockerfile', 'utf8').match(/^CMD (\[.*\])$/m)?.[1];
    expect(cmd).toBeDefined();
    const image = flagsOf(JSON.parse(cmd as string) as string[]);
    expect(npmStart).toEqual(['--max-semi-space-size=64']);
    expect(image).toEqual(npmStart);
    expect(readFileSync('docs/deploy.md', 'utf8')).toContain(`node ${npmStart.join(' ')} dist/server/main.js`);
  });
});
