/**
 * A TypeScript library is bundled by tsx's esbuild and imported (cli/actions/bundle-typescript.ts):
 * its relative imports come along, each file keeps its own `import.meta.url`, nothing is left in
 * the library's folder, and a syntax error is a diagnostic with its place, never a stack trace.
 * Through the built CLI, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LibraryCodes } from '../../src/cli/actions/load-library.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'gramkit-ts-library-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const gramkit = (args: ReadonlyArray<string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: home, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

const TOOLS = '[motto:Tool {description: "Says the motto of a place"} | (place::String)==>(::String)]\n';

describe('a TypeScript library', { timeout: 90_000 }, () => {
  it('brings its relative imports, each with its own import.meta.url, and leaves nothing behind', async () => {
    mkdirSync(join(home, 'lib', 'data'), { recursive: true });
    writeFileSync(join(home, 'tools.gram'), TOOLS);
    writeFileSync(join(home, 'lib', 'data', 'motto.txt'), 'Fluctuat nec mergitur');
    writeFileSync(
      join(home, 'lib', 'data', 'read.ts'),
      "import { readFileSync } from 'node:fs';\nexport const motto = (place: string): string => `${place}: ${readFileSync(new URL('./motto.txt', import.meta.url), 'utf8')}`;\n",
    );
    writeFileSync(
      join(home, 'lib', 'index.ts'),
      [
        "import { motto } from './data/read.js';",
        'interface Args { readonly place: string }',
        "const schema = { type: 'object', properties: { place: { type: 'string' } }, required: ['place'] };",
        "export default [{ name: 'motto', description: 'Says the motto of a place', schema, invoke: ({ place }: Args) => motto(place) }];",
        '',
      ].join('\n'),
    );
    const r = await gramkit(['invoke', 'tools.gram', '--library', 'lib/index.ts', '--args', '{"place": "Paris"}']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, value: 'Paris: Fluctuat nec mergitur' });
    expect(readdirSync(join(home, 'lib')).sort()).toEqual(['data', 'index.ts']);
  });

  it('reports a syntax error with the file and line, not a stack trace', async () => {
    writeFileSync(join(home, 'tools.gram'), TOOLS);
    writeFileSync(join(home, 'broken.ts'), "export default [\n  { name: 'motto', invoke: ( => 1 },\n];\n");
    const r = await gramkit(['invoke', 'tools.gram', '--library', 'broken.ts', '--args', '{"place": "Paris"}']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(LibraryCodes.LOAD_FAILED);
    expect(r.stderr).toMatch(/broken\.ts:2/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(home).filter((f) => f.includes('.gramkit-'))).toEqual([]);
  });
});
