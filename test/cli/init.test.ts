/**
 * `gramkit init [dir]`: the project it writes works as written. Into a temp folder whose
 * node_modules has this package, then each command it prints is run for real: check, invoke and
 * run through the CLI, the test with node's test runner (or vitest, when the project's package.json
 * has it), and the library type-checked with tsc against the handler types it wrote. It never
 * overwrites a file.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseShell } from '../../src/entries/policy.js';
import { cli } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const base = mkdtempSync(join(tmpdir(), 'gramkit-init-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));
mkdirSync(join(base, 'node_modules'));
symlinkSync(root, join(base, 'node_modules', 'gramkit'), 'dir');
symlinkSync(join(root, 'node_modules', 'vitest'), join(base, 'node_modules', 'vitest'), 'dir');

const run = (argv: ReadonlyArray<string>, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, argv, { cwd, timeout: 120_000, maxBuffer: 16 << 20, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

/** The indented commands init printed, as argv (after `cd` and `npm install`, which the test does itself). */
const printedCommands = (stdout: string): ReadonlyArray<ReadonlyArray<string>> =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('  '))
    .map((l) => parseShell(l.trim()).commands[0]?.words ?? [])
    .filter((w) => w[0] !== 'cd' && w[0] !== 'npm');

/** Runs the printed commands in the project: gramkit's in-process, the test runner as a process. */
const runAll = async (project: string, stdout: string): Promise<string[]> => {
  const commands = printedCommands(stdout);
  expect(commands.map((c) => c.slice(0, 3).join(' '))).toEqual([
    'npx gramkit check',
    'npx gramkit invoke',
    'npx gramkit run',
    expect.stringMatching(/^(node --test|npx vitest run)/),
  ]);
  const outputs: string[] = [];
  for (const words of commands.slice(0, 3)) {
    const r = await cli(words.slice(2), { cwd: project });
    expect(r.code, `${words.join(' ')}\n${r.stderr}`).toBe(0);
    outputs.push(r.stdout);
  }
  const test = commands[3] as ReadonlyArray<string>;
  const argv = test[0] === 'node' ? test.slice(1) : [join(root, 'node_modules', 'vitest', 'vitest.mjs'), ...test.slice(2)];
  const r = await run(argv, project);
  expect(r.code, `${test.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
  outputs.push(r.stdout + r.stderr);
  return outputs;
};

describe('gramkit init', { timeout: 180_000 }, () => {
  it('writes a project whose check, invoke, run and node --test commands pass, and a package.json with its scripts', async () => {
    const r = await cli(['init', 'hello'], { cwd: base });
    expect(r.code, r.stderr).toBe(0);
    const project = join(base, 'hello');
    expect(r.stdout).toContain('wrote greeter.gram, greeter-tools.d.ts, greetings.mjs, greetings.test.mjs, package.json into hello');
    const outputs = await runAll(project, r.stdout);
    expect(outputs[0]).toBe('checked 1 file: ok; 0 errors, 0 warnings\n');
    expect(JSON.parse(outputs[1] as string)).toEqual({ ok: true, value: 'Hello, Ada!' });
    expect(outputs[2]).toBe('Hello, Ada!\n');
    expect(outputs[3]).toMatch(/# pass 2\n# fail 0/);
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { scripts: Record<string, string>; type: string };
    expect(manifest.type).toBe('module');
    expect(manifest.scripts['test']).toBe('node --test greetings.test.mjs');
    // the .gram file is formatted, and the types it ships are what gramkit types writes
    expect((await cli(['fmt', '--check', 'greeter.gram'], { cwd: project })).code).toBe(0);
    const body = (t: string): string => t.slice(t.indexOf('\n'));
    expect(body((await cli(['types', 'greeter.gram'], { cwd: project })).stdout)).toBe(body(readFileSync(join(project, 'greeter-tools.d.ts'), 'utf8')));
  });

  it('the library type-checks against its handler types, and a wrong handler does not', async () => {
    const project = join(base, 'hello');
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          allowJs: true,
          checkJs: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          types: [],
        },
        files: ['greetings.mjs'],
      }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const good = await run([tsc, '-p', '.'], project);
    expect(good.code, good.stdout).toBe(0);
    const library = readFileSync(join(project, 'greetings.mjs'), 'utf8');
    writeFileSync(join(project, 'greetings.mjs'), library.replace('excited ? "!" : "."}`', 'excited ? "!" : "."}`.length'));
    const bad = await run([tsc, '-p', '.'], project);
    expect(bad.code).not.toBe(0);
    expect(bad.stdout).toMatch(/greetings\.mjs\(\d+,\d+\): error TS2322/);
    writeFileSync(join(project, 'greetings.mjs'), library);
  });

  it('writes a vitest test when the project has vitest, and keeps its package.json', async () => {
    const project = join(base, 'with-vitest');
    mkdirSync(project);
    const manifest = `${JSON.stringify({ name: 'mine', type: 'module', devDependencies: { vitest: '*', gramkit: '*' } })}\n`;
    writeFileSync(join(project, 'package.json'), manifest);
    const r = await cli(['init'], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('wrote greeter.gram, greeter-tools.d.ts, greetings.mjs, greetings.test.mjs\n');
    expect(r.stdout).not.toContain('npm install');
    expect(readFileSync(join(project, 'package.json'), 'utf8')).toBe(manifest);
    const outputs = await runAll(project, r.stdout);
    expect((outputs[3] as string).replace(/\x1b\[[0-9;]*m/g, '')).toMatch(/Tests\s+2 passed/);
  });

  it('refuses to overwrite: writes nothing when any of its files exists', async () => {
    const project = join(base, 'taken');
    mkdirSync(project);
    writeFileSync(join(project, 'greetings.mjs'), '// mine\n');
    const r = await cli(['init', project]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('already has greetings.mjs');
    expect(readFileSync(join(project, 'greetings.mjs'), 'utf8')).toBe('// mine\n');
    expect(() => readFileSync(join(project, 'greeter.gram'))).toThrow();
  });
});
