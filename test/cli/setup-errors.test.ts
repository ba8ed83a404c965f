/**
 * How `gramkit run`, `ab` and `mcp` report an agent, a library or a model they cannot set up
 * (cli/actions/agent-setup.ts, spec-source.ts): a coded error returned to the command and printed
 * once by the one renderer (report.ts), a file's or a module's diagnostics as diagnostics (with
 * carets into the file); exit 2 for a command line the command cannot run, else 1.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-setup-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOOL = `{ name: 'double', description: 'Doubles a number', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, invoke: ({ n }) => n * 2 }`;
writeFileSync(join(dir, 'lib.mjs'), `export default [${TOOL}];\n`);
writeFileSync(
  join(dir, 'twice.mjs'),
  `export const a = ${TOOL};\nexport const b = ${TOOL};\nexport const c = { ...a, name: 'c' };\nexport const d = { ...c };\n`,
);
const DOUBLE = '[double:Tool {description: "Doubles a number"} | (n::Int)==>(::Int)]\n';
writeFileSync(join(dir, 'agent.gram'), `${DOUBLE}[doubler:Agent {description: "Doubles", instruction: "Double it."} | double]\n`);
writeFileSync(
  join(dir, 'two.gram'),
  `${DOUBLE}[a:Agent {description: "A", instruction: "a"} | double]\n[b:Agent {description: "B", instruction: "b"} | double]\n`,
);
writeFileSync(join(dir, 'broken.gram'), `[doubler:Agent {description: "Doubles", instruction: "Double it."} | double\n`);
writeFileSync(join(dir, 'inputs.jsonl'), '"double 2"\n');

/** The command `run`, `ab` or `mcp` on `file` with `flags`. */
const on = (command: string, file: string, ...flags: string[]) => {
  const args = command === 'run' ? ['run', file, 'hi'] : command === 'ab' ? ['ab', file, '-i', 'inputs.jsonl'] : ['mcp', file, '--no-watch'];
  return cli([...args, ...flags], { cwd: dir });
};

/** How many times stderr holds `error[REASON]`. */
const count = (stderr: string, reason: string): number => stderr.split(`error[${reason}]`).length - 1;

describe('a failure to set up the agent, its library or its model', () => {
  it.each(['run', 'ab', 'mcp'])('%s: a module that does not load is printed once, every diagnostic of it (exit 1)', async (command) => {
    const missing = await on(command, 'agent.gram', '-l', 'absent.mjs');
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toBe(`error[PROJECT_LIBRARY_NOT_FOUND]: no library module at absent.mjs (looked at ${join(dir, 'absent.mjs')})\n --> absent.mjs\n`);
    const twice = await on(command, 'agent.gram', '-l', 'twice.mjs');
    expect(twice.code).toBe(1);
    expect(count(twice.stderr, 'PROJECT_LIBRARY_DUPLICATE_TOOL')).toBe(2);
    expect(twice.stderr).toContain('exports two different tools named "double" (a and b)');
    expect(twice.stderr).toContain('exports two different tools named "c" (c and d)');
  });

  it.each(['run', 'ab', 'mcp'])('%s: a file that does not compile is its diagnostics, once, with carets (exit 1)', async (command) => {
    const r = await on(command, 'broken.gram', '-l', 'lib.mjs');
    expect(r.code).toBe(1);
    expect(count(r.stderr, 'GRAM_UNCLOSED_SUBJECT_PATTERN')).toBe(1);
    expect(r.stderr).toContain(' --> broken.gram:1:');
    expect(r.stderr).toContain('^');
    const absent = await on(command, 'absent.gram', '-l', 'lib.mjs');
    expect([absent.code, absent.stderr]).toEqual([
      1,
      'error[CLI_UNREADABLE]: cannot read absent.gram: no such file\n  hint: check the path and its permissions\n',
    ]);
  });

  it.each(['run', 'ab'])(
    '%s: several agents and no --agent, or --base-url with the offline model, is a command line it cannot run (exit 2)',
    async (command) => {
      const two = await on(command, 'two.gram', '-l', 'lib.mjs');
      expect([two.code, count(two.stderr, 'PROJECT_AMBIGUOUS_AGENT')]).toEqual([2, 1]);
      const base = await on(command, 'agent.gram', '-l', 'lib.mjs', '--base-url', 'http://127.0.0.1:1/v1');
      expect([base.code, count(base.stderr, 'CLI_USAGE')]).toEqual([2, 1]);
      const model = await on(command, 'agent.gram', '-l', 'lib.mjs', '--model', 'nope/x');
      expect([model.code, count(model.stderr, 'AGENT_CONFIGURATION_ERROR')]).toEqual([1, 1]);
    },
  );
});
