import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { libraryFromModule } from '../../src/project/load-library.js';
import { createTool, lookupTool, toolLibrary, toolNames } from '../../src/index.js';
import { cli } from '../support/cli.js';

const dir = 'test/fixtures/library/cli';
const run = (...args: string[]) => cli(['invoke', ...args]);
const json = (text: string) => JSON.parse(text) as unknown;

const scratch = mkdtempSync(join(tmpdir(), 'gramkit-invoke-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('gramkit invoke', () => {
  it('binds the tool, calls it and prints the result as JSON (exit 0)', async () => {
    const r = await run(`${dir}/tools.gram`, '--tool', 'greet', '--library', `${dir}/library.ts`, '--args', '{"name":"Ada","times":2}');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ ok: true, value: 'Hello, Ada! Hello, Ada!' });
  });

  it('runs the A/B example’s libraries from the command line', async () => {
    for (const lib of ['fast', 'slow']) {
      const r = await run('examples/ab/capitals.gram', '--library', `examples/ab/${lib}-library.ts`, '--args', '{"country": "France"}');
      expect(r.code).toBe(0);
      expect(json(r.stdout)).toEqual({ ok: true, value: 'Paris' });
    }
  });

  it('prints failed results as JSON too, with exit 1', async () => {
    const notFound = await run(`${dir}/tools.gram`, '-t', 'greet', '-l', `${dir}/library.ts`, '-a', '{"name":"nobody"}');
    expect(notFound.code).toBe(1);
    expect(json(notFound.stdout)).toEqual({
      ok: false,
      error: { code: 'NOT_FOUND', reason: 'NOT_FOUND', message: 'there is nobody to greet', retryable: false },
    });
    const invalid = await run(`${dir}/tools.gram`, '-t', 'greet', '-l', `${dir}/library.ts`, '-a', '{"name": 3}');
    expect(invalid.code).toBe(1);
    expect(json(invalid.stdout)).toMatchObject({
      ok: false,
      error: { reason: 'TOOL_INVALID_ARGUMENTS', message: 'invalid arguments for "greet": argument "name" must be a string, got 3' },
    });
    const notJson = await run(`${dir}/tools.gram`, '-t', 'greet', '-l', `${dir}/library.ts`, '-a', '{name}');
    expect(notJson.code).toBe(1);
    expect(json(notJson.stdout)).toMatchObject({ ok: false, error: { reason: 'TOOL_INVALID_ARGUMENTS' } });
  });

  it('gives TOOL_TIMEOUT when the implementation does not answer in time', async () => {
    const r = await run(`${dir}/tools.gram`, '-t', 'greet', '-l', `${dir}/hangs.ts`, '-a', '{"name":"Ada"}', '--timeout', '50');
    expect(r.code).toBe(1);
    expect(json(r.stdout)).toEqual({
      ok: false,
      error: { code: 'TIMEOUT', reason: 'TOOL_TIMEOUT', message: '"greet" did not finish within 50 ms', details: { timeoutMs: 50 }, retryable: true },
    });
  });

  it('reads the arguments from stdin with --args -, and takes the only tool of a file without --tool', async () => {
    const only = join(scratch, 'only.gram');
    writeFileSync(only, '[add:Tool {description: "Adds two numbers"} | (a::Double)==>(b::Double)==>(::Double)]\n');
    const r = await cli(['invoke', only, '-l', `${dir}/library.ts`, '--args', '-'], { stdin: '{"a": 1.5, "b": 2}' });
    expect(r.code).toBe(0);
    expect(json(r.stdout)).toEqual({ ok: true, value: 3.5 });
  });

  it('loads plain JavaScript modules exporting tools', async () => {
    const r = await run(`${dir}/tools.gram`, '-t', 'add', '-l', `${dir}/plain-tools.mjs`, '-a', '{"a":2,"b":3}');
    expect(r.stderr).toBe('');
    expect(json(r.stdout)).toEqual({ ok: true, value: 5 });
  });

  it('explains a tool that does not match its specification, with the JSON-pointer diff (exit 1)', async () => {
    const r = await run(`${dir}/tools.gram`, '-t', 'greet', '-l', `${dir}/mismatch.ts`, '-a', '{"name":"Ada"}');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'error[TOOL_MISMATCH]: the tool "greet" does not match its specification: its description and argument schema differ',
        '  TOOL_DESCRIPTION_MISMATCH: the descriptions differ: spec "… a friendly greeting for the given name", tool "… a friendly greeting"',
        '  TOOL_SCHEMA_MISMATCH: the argument schemas differ in 2 places',
        '    /properties/name/description: only in the spec: "Who to greet"',
        '    /properties/name/type: spec "string", tool "integer"',
        '',
      ].join('\n'),
    );
  });

  it('reports a missing tool, bad specification files and library problems on stderr (exit 1)', async () => {
    const missing = await run(`${dir}/tools.gram`, '-t', 'nope', '-l', `${dir}/library.ts`);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `error[CLI_UNKNOWN_TOOL]: ${dir}/tools.gram defines no tool "nope"; it defines greet, add\n  hint: name one of the tools the message lists\n`,
    ]);

    const broken = await run(`${dir}/broken.gram`, '-l', `${dir}/library.ts`);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^error\[[A-Z_]+\]: .*Strng/);
    expect(broken.stderr).toContain(`--> ${dir}/broken.gram:2:`);
    expect(broken.stderr).toContain('^');

    const noFile = await run(`${dir}/absent.gram`, '-l', `${dir}/library.ts`);
    expect([noFile.code, noFile.stderr]).toEqual([
      1,
      `error[CLI_UNREADABLE]: cannot read ${dir}/absent.gram: no such file\n  hint: check the path and its permissions\n`,
    ]);

    const codes = async (library: string) => {
      const r = await run(`${dir}/tools.gram`, '-t', 'add', '-l', library);
      expect(r.code).toBe(1);
      return r.stderr.split('\n')[0];
    };
    expect(await codes(`${dir}/absent.ts`)).toMatch(/^error\[PROJECT_LIBRARY_NOT_FOUND\]: no library module at test\/fixtures\/library\/cli\/absent\.ts/);
    expect(await codes(`${dir}/tools.gram`)).toBe(
      `error[PROJECT_LIBRARY_UNSUPPORTED_FILE]: a library is a .ts or .js module, not a .gram file: ${dir}/tools.gram`,
    );
    expect(await codes(`${dir}/nothing.ts`)).toBe(`error[PROJECT_LIBRARY_EMPTY]: ${dir}/nothing.ts exports no ToolLibrary and no tool`);
    expect(await codes(`${dir}/duplicate.mjs`)).toBe(
      `error[PROJECT_LIBRARY_DUPLICATE_TOOL]: ${dir}/duplicate.mjs exports two different tools named "add" (one and two)`,
    );
    const brokenTs = join(scratch, 'broken.ts');
    writeFileSync(brokenTs, 'export const x = ;\n');
    expect(await codes(brokenTs)).toMatch(/^error\[PROJECT_LIBRARY_LOAD_FAILED\]: cannot load .*broken\.ts/);
  });

  it('exits 2 on usage errors', async () => {
    const several = await run(`${dir}/tools.gram`, '-l', `${dir}/library.ts`);
    expect([several.code, several.stderr]).toEqual([
      2,
      `error[CLI_USAGE]: ${dir}/tools.gram defines 2 tools; choose one with --tool (greet, add)\n  hint: see gramkit <command> --help\n`,
    ]);
    const noLibrary = await run(`${dir}/tools.gram`, '-t', 'add');
    expect(noLibrary.code).toBe(2);
    expect(noLibrary.stderr).toContain('--library <module> is required');
    for (const t of ['abc', '0', '-5']) {
      const bad = await run(`${dir}/tools.gram`, '-t', 'add', '-l', `${dir}/library.ts`, '--timeout', t);
      expect(bad.code).toBe(2);
    }
    expect((await cli(['invoke'])).code).toBe(2);
  });
});

describe('libraryFromModule', () => {
  const t = (name: string) => createTool(name, `the ${name} tool`, { type: 'object' }, () => name);
  const [a, b, c] = [t('a'), t('b'), t('c')];

  it('accepts a library, tools, arrays and objects of tools, and joins them', () => {
    const r = libraryFromModule({ default: toolLibrary([a]), b, more: [c, 42], other: 'not a tool' }, 'm.ts');
    expect(r._tag === 'Right' && toolNames(r.right)).toEqual(['a', 'b', 'c']);
    const obj = libraryFromModule({ default: { a, b } }, 'm.ts');
    expect(obj._tag === 'Right' && toolNames(obj.right)).toEqual(['a', 'b']);
  });

  it('accepts the same tool exported twice, and keeps the names library entries were registered under', () => {
    const r = libraryFromModule({ default: toolLibrary([a, b]), a, b }, 'm.ts');
    expect(r._tag === 'Right' && toolNames(r.right)).toEqual(['a', 'b']);
    expect(r._tag === 'Right' && lookupTool('a', r.right)).toBe(a);
  });

  it('recognizes libraries made by another copy of gramkit', () => {
    const foreign = {
      [Symbol.for('gramkit.ToolLibrary')]: true,
      entries: new Map<string, unknown>([
        ['a', a],
        ['bad', 3],
      ]),
    };
    const r = libraryFromModule({ default: foreign }, 'm.ts');
    expect(r._tag === 'Left' && r.left.map((d) => d.code)).toEqual(['TOOL_LIBRARY_INVALID_ENTRY']);
    const ok = libraryFromModule({ default: { [Symbol.for('gramkit.ToolLibrary')]: true, entries: new Map([['a', a]]) } }, 'm.ts');
    expect(ok._tag === 'Right' && lookupTool('a', ok.right)).toBe(a);
  });
});
