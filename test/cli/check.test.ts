import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const dir = mkdtempSync(join(tmpdir(), 'gramkit-check-'));
mkdirSync(join(dir, 'specs', 'deep'), { recursive: true });
writeFileSync(join(dir, 'specs', 'a.gram'), '(a)-->(b)\n');
writeFileSync(join(dir, 'specs', 'deep', 'b.gram'), '(s {fields: [{name: "a"}], k: 1, k: 2})\n');
writeFileSync(join(dir, 'specs', 'notes.txt'), 'not gram');
writeFileSync(join(dir, 'bad.gram'), '(a {k: })\n(b), (c)\n');

describe('gramkit check', () => {
  it('checks files and directories and prints a summary', async () => {
    const r = await cli(['check', 'specs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('checked 2 files: ok; 0 errors, 1 warning\n');
    expect(r.stderr).toContain('warning[GRAM_DUPLICATE_KEY]: the key `k` is given twice; the last value wins');
    expect(r.stderr).toContain(`--> ${join('specs', 'deep', 'b.gram')}:1:34`);
  });
  it('fails with every error of every file', async () => {
    const r = await cli(['check', 'bad.gram', 'specs/a.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('checked 2 files: 1 with errors; 2 errors, 0 warnings\n');
    expect(r.stderr.match(/^error\[/gm)).toHaveLength(2);
  });
  it('applies --strict', async () => {
    const r = await cli(['check', '--strict', 'specs'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('checked 2 files (strict): 1 with errors; 1 error, 1 warning\n');
  });
  it('prints diagnostics as JSON with positions', async () => {
    const r = await cli(['check', '--json', 'bad.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(ds.map((d) => [d.code, d.line, d.column])).toEqual([
      ['GRAM_EXPECTED_VALUE', 1, 8],
      ['GRAM_TOP_LEVEL_SEQUENCE', 2, 4],
    ]);
    expect(ds[0]).toMatchObject({ file: 'bad.gram', severity: 'error', span: { start: 7, end: 8 }, endLine: 1, endColumn: 9 });
  });
  it('reports unreadable files and empty directories', async () => {
    const r = await cli(['check', 'missing.gram', 'specs/a.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot read missing.gram: no such file');
    mkdirSync(join(dir, 'empty'), { recursive: true });
    const e = await cli(['check', 'empty'], { cwd: dir });
    expect(e.code).toBe(1);
    expect(e.stderr).toBe('error[CLI_USAGE]: no .gram files found\n  hint: see gramkit <command> --help\n');
  });
  it('checks the README quick-start example', async () => {
    const r = await cli(['check', 'examples/hello.gram']);
    expect(r).toEqual({ code: 0, stdout: 'checked 1 file: ok; 0 errors, 0 warnings\n', stderr: '' });
  });
});

describe('gramkit check runs the checks of schema and run', () => {
  const d = mkdtempSync(join(tmpdir(), 'gramkit-check-spec-'));
  writeFileSync(join(d, 'types.gram'), '[t:Tool {description: "d"} | (q::Strin)==>(::String)]\n');
  writeFileSync(join(d, 'default.gram'), '[t:Tool {description: "d"} | (n::Integer {default: "ten"})==>(::String)]\n');
  writeFileSync(join(d, 'agent.gram'), '[t:Tool {description: "d"} | (q::String)==>(::String)]\n[a:Agent {description: "d", instruction: "i"} | t, serch]\n');
  writeFileSync(
    join(d, 'model.gram'),
    '[t:Tool {description: "d"} | (q::String)==>(::String)]\n[a:Agent {description: "d", instruction: "i", model: "gtp-4o"} | t]\n',
  );
  writeFileSync(join(d, 'header.gram'), '{library: 3}\n[t:Tool {description: "d"} | (q::String)==>(::String)]\n');
  writeFileSync(
    join(d, 'http.gram'),
    '[t:Tool {description: "d", http: {method: "GET", urlTemplate: "https://example.com/${qq}"}} | (q::String)==>(::String)]\n',
  );

  it.each([
    ['types.gram', 'SPEC_UNKNOWN_TYPE'],
    ['default.gram', 'SPEC_INVALID_DEFAULT'],
    ['agent.gram', 'SPEC_UNKNOWN_TOOL'],
    ['model.gram', 'AGENT_CONFIGURATION_ERROR'],
    ['header.gram', 'CLI_INVALID_HEADER'],
  ])('%s fails with %s', async (file, code) => {
    const r = await cli(['check', '--json', file], { cwd: d });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(ds.map((x) => x.code)).toContain(code);
  });
  it('checks the implementations a file declares', async () => {
    const r = await cli(['check', 'http.gram'], { cwd: d, env: {} });
    expect(r.stdout).toContain('1 warning');
    expect(r.stderr).toContain('placeholder ${qq} names neither a parameter nor a known secret');
    const strict = await cli(['check', '--strict', 'http.gram'], { cwd: d, env: {} });
    expect(strict.code).toBe(1);
    expect(strict.stdout).toBe('checked 1 file (strict): 1 with warnings; 0 errors, 1 warning\n');
  });
  it('binds to --library as run does', async () => {
    const ok = await cli(['check', 'examples/helloAgent.gram', '--library', 'examples/hello-library.ts']);
    expect(ok).toMatchObject({ code: 0, stdout: 'checked 1 file: ok; 0 errors, 0 warnings\n' });
    const missing = await cli(['check', 'examples/hello.gram', '--library', 'examples/hello-library.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error[TOOL_MISMATCH]');
  });

  it('--library: a mismatch at its tool, each parameter difference on its own line at the parameter', async () => {
    const r = await cli(['check', 'examples/hello.gram', '--library', 'examples/hello-library.ts']);
    expect(r.stderr).toContain('--> examples/hello.gram:6:2\n');
    expect(r.stderr).toMatch(/= note: \/properties\/name: only in the spec: .* \(7:4\)\n7 \|   \(name::String/);
    expect(r.stderr).toMatch(/= note: \/properties\/personName: only in the tool: .* \(6:2\)|= hint: .*personName/);
    expect(r.stderr).toContain('= hint: TOOL_DESCRIPTION_MISMATCH: the descriptions differ');
  });

  it('--library: handler types generated by gramkit types that disagree with the file, one error per tool', async () => {
    const d = mkdtempSync(join(tmpdir(), 'gramkit-check-types-'));
    mkdirSync(join(d, 'node_modules'));
    symlinkSync(root, join(d, 'node_modules', 'gramkit'), 'dir');
    const gram =
      '[greet:Tool {description: "Greets"} | (name::String)==>(::String)]\n[add:Tool {description: "Adds"} | (a::Number)==>(b::Number)==>(::Number)]\n';
    writeFileSync(join(d, 'tools.gram'), gram);
    writeFileSync(
      join(d, 'lib.mjs'),
      "// @ts-check\nimport { implement } from 'gramkit';\n/** @type {import('gramkit').Handlers<import('./tools-types.js').Tools>} */\nconst handlers = { greet: ({ name }) => name, add: ({ a, b }) => a + b };\nexport default await implement(new URL('./tools.gram', import.meta.url), handlers);\n",
    );
    expect((await cli(['types', 'tools.gram', '-o', 'tools-types.d.ts'], { cwd: d })).code).toBe(0);
    expect(await cli(['check', 'tools.gram', '--library', 'lib.mjs'], { cwd: d })).toMatchObject({
      code: 0,
      stdout: 'checked 1 file: ok; 0 errors, 0 warnings\n',
    });
    // the file changes: greet gains a parameter, add becomes sub, mul is new; the types are not regenerated
    writeFileSync(
      join(d, 'tools.gram'),
      gram.replace('(name::String)', '(name::String)==>(loud::Boolean)').replace('[add:Tool {description: "Adds"}', '[mul:Tool {description: "Multiplies"}'),
    );
    // (a new module: this process has imported lib.mjs already, and a module is imported once)
    writeFileSync(join(d, 'lib2.mjs'), readFileSync(join(d, 'lib.mjs'), 'utf8').replace('add: ({ a, b }) => a + b', 'mul: ({ a, b }) => a * b'));
    const r = await cli(['check', 'tools.gram', '--library', 'lib2.mjs'], { cwd: d });
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error['));
    expect(errors).toEqual([
      'error[CLI_HANDLER_TYPES_STALE]: the handler types of "greet" in tools-types.d.ts disagree with tools.gram: its arguments or result changed since they were generated',
      'error[CLI_HANDLER_TYPES_STALE]: tools-types.d.ts has no handler types for "mul" of tools.gram: it was generated before the tool was added',
      'error[CLI_HANDLER_TYPES_STALE]: tools-types.d.ts types a handler for "add", which tools.gram no longer has',
    ]);
    expect(r.stderr).toContain('= hint: regenerate them: gramkit types tools.gram -o tools-types.d.ts');
    expect((await cli(['types', 'tools.gram', '-o', 'tools-types.d.ts'], { cwd: d })).code).toBe(0);
    expect((await cli(['check', 'tools.gram', '--library', 'lib2.mjs'], { cwd: d })).code).toBe(0);
  });
});
