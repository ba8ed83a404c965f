/**
 * A TypeScript library is bundled by tsx's esbuild and imported (cli/actions/bundle-typescript.ts):
 * its relative imports come along, each file keeps its own `import.meta.url`, nothing is left in
 * the library's folder, and a syntax error is a diagnostic with its place, never a stack trace.
 * The bundle is kept in the user's cache (cli/actions/bundle-cache.ts) and used while none of its
 * files changed: esbuild is then not needed (a run with an esbuild that cannot start shows it).
 * Through the built CLI, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { chmodSync, lutimesSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LibraryCodes } from '../../src/project/load-library.js';

const cli = new URL('../../dist/cli.js', import.meta.url).pathname;
const home = mkdtempSync(join(tmpdir(), 'gramkit-ts-library-'));
const cache = mkdtempSync(join(tmpdir(), 'gramkit-ts-cache-'));
afterAll(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

/** Runs the built CLI in `home`, with a cache folder of its own; `env` adds variables. */
const gramkit = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: home, timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: cache, ...env } },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
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

  describe('the cache of its bundle', () => {
    // an esbuild binary that exits at once (a path that does not exist, esbuild ignores)
    const NO_ESBUILD = { ESBUILD_BINARY_PATH: '/bin/false' };
    const invoke = (env: Readonly<Record<string, string>> = {}) =>
      gramkit(['invoke', 'tools.gram', '--library', 'cached/index.ts', '--args', '{"place": "Paris"}'], env);
    const write = (greeting: string): void => {
      mkdirSync(join(home, 'cached'), { recursive: true });
      writeFileSync(join(home, 'tools.gram'), TOOLS);
      writeFileSync(join(home, 'cached', 'greeting.ts'), `export const greeting = (place: string): string => \`${greeting}, \${place}\`;\n`);
      writeFileSync(
        join(home, 'cached', 'index.ts'),
        [
          "import { greeting } from './greeting.js';",
          "const schema = { type: 'object', properties: { place: { type: 'string' } }, required: ['place'] };",
          "export default [{ name: 'motto', description: 'Says the motto of a place', schema, invoke: ({ place }: { place: string }) => greeting(place) }];",
          '',
        ].join('\n'),
      );
    };
    const folder = join(cache, 'gramkit', 'typescript');

    it('serves a library whose files are unchanged without esbuild, and bundles it again when one of them changes', async () => {
      write('Hello');
      const first = await invoke();
      expect(first.stderr).toBe('');
      expect(JSON.parse(first.stdout)).toEqual({ ok: true, value: 'Hello, Paris' });
      expect(readdirSync(folder).filter((f) => f.endsWith('.json')).length).toBeGreaterThan(0);
      // unchanged: no esbuild needed
      const cached = await invoke(NO_ESBUILD);
      expect(cached.stderr).toBe('');
      expect(JSON.parse(cached.stdout)).toEqual({ ok: true, value: 'Hello, Paris' });
      // a relative import changed: bundled again (so an esbuild that cannot start fails it)
      write('Salut');
      expect((await invoke(NO_ESBUILD)).code).toBe(1);
      expect(JSON.parse((await invoke()).stdout)).toEqual({ ok: true, value: 'Salut, Paris' });
      expect(JSON.parse((await invoke(NO_ESBUILD)).stdout)).toEqual({ ok: true, value: 'Salut, Paris' });
    });

    it('is bundled again when a file added beside one of its files changes what an import resolves to', async () => {
      write('Hi');
      expect(JSON.parse((await invoke()).stdout)).toEqual({ ok: true, value: 'Hi, Paris' });
      expect(JSON.parse((await invoke(NO_ESBUILD)).stdout)).toEqual({ ok: true, value: 'Hi, Paris' });
      // `./greeting.js` resolved to greeting.ts; a greeting.js written beside it is what it resolves to now
      writeFileSync(join(home, 'cached', 'greeting.js'), 'export const greeting = (place) => `Ahoy, ${place}`;\n');
      try {
        expect((await invoke(NO_ESBUILD)).code).toBe(1);
        expect(JSON.parse((await invoke()).stdout)).toEqual({ ok: true, value: 'Ahoy, Paris' });
      } finally {
        rmSync(join(home, 'cached', 'greeting.js'), { force: true });
      }
    });

    it('stays bounded: writing an entry removes those unused for a month, and leaves what is not its own', async () => {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const day = 24 * 3600;
      const ago = (days: number): number => Date.now() / 1000 - days * day;
      const plant = (name: string, days: number, text = '{}'): string => {
        const path = join(folder, name);
        writeFileSync(path, text);
        utimesSync(path, ago(days), ago(days));
        return path;
      };
      const stale = plant(`${'a'.repeat(32)}.json`, 31);
      const recent = plant(`${'b'.repeat(32)}.json`, 29);
      const unrelated = plant('notes.txt', 400);
      const oldTemporary = plant(`${'c'.repeat(32)}.json.123.abc.tmp`, 1);
      const target = plant('outside.json', 400);
      const link = join(folder, `${'d'.repeat(32)}.json`);
      symlinkSync(target, link);
      lutimesSync(link, ago(400), ago(400));
      // a library bundled anew writes its entry, then prunes
      write('Servus');
      expect(JSON.parse((await invoke()).stdout)).toEqual({ ok: true, value: 'Servus, Paris' });
      const names = readdirSync(folder);
      expect(names).not.toContain(basename(stale));
      expect(names).not.toContain(basename(oldTemporary));
      expect(names).toEqual(expect.arrayContaining([basename(recent), basename(unrelated), basename(target), basename(link)]));
      // an entry used is marked so: it is not pruned as unused
      // (this library's entry: the one just written; the folder also holds other libraries' entries)
      const [own] = names
        .filter((n) => /^[0-9a-f]{32}\.json$/.test(n) && ![recent, link].map((p) => basename(p)).includes(n))
        .sort((a, b) => statSync(join(folder, b)).mtimeMs - statSync(join(folder, a)).mtimeMs);
      if (own === undefined) throw new Error('no entry written');
      utimesSync(join(folder, own), ago(2), ago(2));
      expect(JSON.parse((await invoke(NO_ESBUILD)).stdout)).toEqual({ ok: true, value: 'Servus, Paris' });
      expect(statSync(join(folder, own)).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
    });

    it("is not used from a folder others may write to (a bundle there could be anyone's code)", async () => {
      write('Hola');
      expect(JSON.parse((await invoke()).stdout)).toEqual({ ok: true, value: 'Hola, Paris' });
      chmodSync(folder, 0o777);
      try {
        const r = await invoke(NO_ESBUILD);
        expect(r.code).toBe(1);
        expect(r.stdout).toBe('');
      } finally {
        chmodSync(folder, 0o700);
      }
      expect(JSON.parse((await invoke(NO_ESBUILD)).stdout)).toEqual({ ok: true, value: 'Hola, Paris' });
    });
  });
});
