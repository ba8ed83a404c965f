/**
 * `defaultLoaders` of `gramkit/project`: the CLI's loaders for a program's own
 * `resolveLibrary(request, defaultLoaders({ cwd }))` — a module file relative to `cwd`, `builtin`
 * and a program's own named libraries, the tools a file declares (reading only the `env` given),
 * the built-in tools a file names (confined to the workspace); and a library that does not load
 * is a `Result` whose coded error carries every diagnostic.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bindTool, createTool, invoke, lookupTool, parseSpecifications, toolLibrary, toolNames, type ToolSpecification } from '../../src/index.js';
import { isLeft } from '../../src/core/either.js';
import { builtinSpecification } from '../../src/entries/builtins.js';
import { defaultLoaders, loadLibrary, resolveLibrary } from '../../src/entries/project.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-default-loaders-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const specsOf = (gram: string): ReadonlyArray<ToolSpecification> => {
  const r = parseSpecifications(gram);
  if (isLeft(r)) throw new Error(r.left.map((d) => d.message).join('\n'));
  return r.right.tools;
};

const TOOL = `{ name: 'double', description: 'Doubles a number', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, invoke: ({ n }) => n * 2 }`;
writeFileSync(join(dir, 'lib.mjs'), `export default [${TOOL}];\n`);
writeFileSync(
  join(dir, 'twice.mjs'),
  `export const a = ${TOOL};\nexport const b = ${TOOL};\nexport const c = { ...a, name: 'c' };\nexport const d = { ...c };\n`,
);
mkdirSync(join(dir, 'ws'));
writeFileSync(join(dir, 'ws', 'note.txt'), 'in the workspace\n');

const DOUBLE = specsOf('[double:Tool {description: "Doubles a number"} | (n::Int)==>(::Int)]');
const GREET = specsOf(
  '[greet:Tool {description: "Says the greeting of the environment", ' +
    'command: {argv: ["sh", "-c", "printf %s \\"$GREETING\\""], env: ["GREETING", "PATH"], output: "text"}} | (who::String)==>(::Object)]',
);

describe('defaultLoaders', () => {
  it('loads a module relative to cwd, as the header or --library names it', async () => {
    const r = await resolveLibrary({ tools: DOUBLE, given: [], header: join(dir, 'lib.mjs') }, defaultLoaders({ cwd: dir }));
    expect(r.ok && r.value.modules).toEqual([join(dir, 'lib.mjs')]);
    const given = await resolveLibrary({ tools: DOUBLE, given: ['lib.mjs'] }, defaultLoaders({ cwd: dir }));
    if (!given.ok) throw new Error(given.error.kind);
    const double = bindTool(DOUBLE[0] as ToolSpecification, given.value.library);
    if (isLeft(double)) throw new Error('unbound');
    expect(await invoke(double.right, { n: 21 })).toEqual({ ok: true, value: 42 });
  });

  it('gives declared tools the env passed, and nothing of the process without it', async () => {
    process.env['GREETING'] = 'from the process';
    try {
      const call = async (env?: Readonly<Record<string, string | undefined>>): Promise<unknown> => {
        const r = await resolveLibrary({ tools: GREET, given: [] }, defaultLoaders({ cwd: dir, ...(env !== undefined ? { env } : {}) }));
        if (!r.ok) return r.error.kind;
        const bound = bindTool(GREET[0] as ToolSpecification, r.value.library);
        if (isLeft(bound)) return bound.left;
        const result = await invoke(bound.right, { who: 'x' });
        return result.ok ? (result.value as { output?: unknown }).output : result.error.reason;
      };
      expect(await call({ GREETING: 'hello', PATH: process.env['PATH'] })).toBe('hello');
      expect(await call({ PATH: process.env['PATH'] })).toBe('');
      expect(await call()).not.toBe('from the process');
    } finally {
      delete process.env['GREETING'];
    }
  });

  it('implements the built-in tools a file names, confined to the workspace', async () => {
    const tools = [builtinSpecification('read_file') as ToolSpecification];
    const r = await resolveLibrary({ tools, given: [] }, defaultLoaders({ cwd: dir, workspace: 'ws' }));
    if (!r.ok) throw new Error(r.error.kind);
    const readFile = bindTool(tools[0] as ToolSpecification, r.value.library);
    if (isLeft(readFile)) throw new Error('unbound');
    expect(JSON.stringify(await invoke(readFile.right, { path: 'note.txt' }))).toContain('in the workspace');
    const outside = await invoke(readFile.right, { path: '../lib.mjs' });
    expect(outside.ok || outside.error.code).toBe('INVALID_PATH');
  });

  it('knows builtin and a program’s own named libraries by name', async () => {
    const echo = createTool('echo', 'Echoes its input', { type: 'object' }, (a: { text: string }) => a.text);
    const named = { demo: { library: async () => toolLibrary([echo]) } };
    const loaders = defaultLoaders({ cwd: dir, named });
    const demo = await loaders.module('demo');
    expect(demo.ok && toolNames(demo.value)).toEqual(['echo']);
    const builtin = await loaders.module('builtin');
    expect(builtin.ok && toolNames(builtin.value)).toContain('read_file');
    const direct = await loadLibrary('demo', { cwd: dir, named });
    expect(direct.ok && lookupTool('echo', direct.value)).toBe(echo);
  });

  it('a library that does not load is a coded error with every diagnostic in its details', async () => {
    const missing = await defaultLoaders({ cwd: dir }).module('absent.mjs');
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    expect(missing.error).toMatchObject({ code: 'NOT_FOUND', reason: 'PROJECT_LIBRARY_NOT_FOUND', retryable: false, details: { file: 'absent.mjs' } });
    expect(missing.error.message).toMatch(/^no library module at absent\.mjs/);
    expect((missing.error.details as { diagnostics: unknown[] }).diagnostics).toHaveLength(1);

    const twice = await loadLibrary('twice.mjs', { cwd: dir });
    if (twice.ok) throw new Error('loaded');
    expect(twice.error.reason).toBe('PROJECT_LIBRARY_DUPLICATE_TOOL');
    expect(twice.error.message).toBe('twice.mjs exports two different tools named "double" (a and b)');
    const all = (twice.error.details as { diagnostics: ReadonlyArray<{ code: string; message: string }> }).diagnostics;
    expect(all.map((d) => d.message)).toEqual([
      'twice.mjs exports two different tools named "double" (a and b)',
      'twice.mjs exports two different tools named "c" (c and d)',
    ]);
  });
});
