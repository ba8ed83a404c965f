/**
 * `gramkit/project` from a program of its own: the example the docs show runs, and on the built
 * package under plain node a TypeScript library is imported through the program's `importTs`,
 * or refused as `PROJECT_LIBRARY_NEEDS_TSX` without one (never a stack trace), while a `.js` one loads.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { projectBasics } from '../../examples/project-basics.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gramkit-project-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const node = (code: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['--input-type', 'module', '-e', code], { cwd: ROOT, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

const TOOL = `{ name: 'double', description: 'Doubles a number', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, invoke: ({ n }) => n * 2 }`;

describe('gramkit/project', { timeout: 90_000 }, () => {
  it('the example: a file loaded once, its header library resolved, the approver chosen, a call', async () => {
    expect(await projectBasics()).toEqual([
      'tools: sayHello',
      'header library: hello-library.ts',
      'approver: refuses every call that needs approval',
      'sayHello: Hello, Alice! Nice to meet you.',
    ]);
  });

  it("docs/library.md's section shows the example's code and what it prints", async () => {
    const doc = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## From your own program'));
    const block = (lang: string): string => section.match(new RegExp(`^\`\`\`${lang}\n([\\s\\S]*?)^\`\`\``, 'm'))?.[1] ?? '';
    expect(block('ts')).not.toBe('');
    expect(readFileSync(join(ROOT, 'examples/project-basics.ts'), 'utf8')).toContain(block('ts'));
    expect(block('text').trimEnd().split('\n')).toEqual(await projectBasics());
  });

  it('under plain node: a .js library loads, a .ts one needs importTs (PROJECT_LIBRARY_NEEDS_TSX without), and loads with it', async () => {
    writeFileSync(join(dir, 'lib.mjs'), `export default [${TOOL}];\n`);
    writeFileSync(join(dir, 'lib.ts'), `const n: number = 2;\nexport default [{ ...${TOOL}, invoke: ({ n: x }: { n: number }) => x * n }];\n`);
    const r = await node(`
      import { loadLibrary, TypeScriptUnavailable } from 'gramkit/project';
      import { lookupTool } from 'gramkit';
      const cwd = ${JSON.stringify(dir)};
      const out = {};
      const js = await loadLibrary('lib.mjs', { cwd });
      out.js = js.ok ? lookupTool('double', js.value).invoke({ n: 21 }) : js.error.reason;
      const bare = await loadLibrary('lib.ts', { cwd });
      out.bare = bare.ok ? 'loaded' : { code: bare.error.code, reason: bare.error.reason, message: bare.error.message, hint: bare.error.hint };
      // an importTs of the program's own: here the type annotations stripped by hand
      const { readFile, writeFile } = await import('node:fs/promises');
      const importTs = async (file) => {
        const js = (await readFile(file, 'utf8')).replace(': number', '').replace(': { n: number }', '');
        await writeFile(file + '.mjs', js);
        return import(file + '.mjs');
      };
      const ts = await loadLibrary('lib.ts', { cwd, importTs });
      out.ts = ts.ok ? lookupTool('double', ts.value).invoke({ n: 21 }) : ts.error.message;
      const refused = await loadLibrary('lib.ts', { cwd, importTs: async () => { throw new TypeScriptUnavailable('no compiler here', 'build it first'); } });
      out.refused = refused.ok ? 'loaded' : [refused.error.reason, refused.error.message, refused.error.hint];
      console.log(JSON.stringify(out));
    `);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(out['js']).toBe(42);
    expect(out['bare']).toMatchObject({ code: 'FAILED_PRECONDITION', reason: 'PROJECT_LIBRARY_NEEDS_TSX', hint: expect.stringContaining('importTs') });
    expect(String((out['bare'] as { message: string }).message)).toMatch(/^lib\.ts is a TypeScript module, and this node does not import one/);
    expect(out['ts']).toBe(42);
    expect(out['refused']).toEqual(['PROJECT_LIBRARY_NEEDS_TSX', 'lib.ts is a TypeScript module, and no compiler here', 'build it first']);
  });
});
