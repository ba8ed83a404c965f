/**
 * `builtin` as a specification source and as a library, in every command that takes one
 * (src/cli/actions/spec-source.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES } from '../../src/entries/builtins.js';
import { cli } from '../support/cli.js';

const ws = mkdtempSync(join(tmpdir(), 'gramkit-builtin-'));
writeFileSync(join(ws, 'hello.txt'), 'hi there\n');

describe('builtin in every command', () => {
  it('check builtin checks the built-in specifications', async () => {
    expect(await cli(['check', 'builtin'])).toEqual({ code: 0, stdout: 'checked 1 file: ok; 0 errors, 0 warnings\n', stderr: '' });
  });

  it("schema builtin prints the built-in tools' schemas", async () => {
    const r = await cli(['schema', 'builtin']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout))).toEqual([...BUILTIN_TOOL_NAMES]);
    const one = await cli(['schema', 'builtin', '--tool', 'read_file', '--format', 'openai']);
    expect(JSON.parse(one.stdout)).toMatchObject({ type: 'function', function: { name: 'read_file' } });
  });

  it('validate and types accept builtin', async () => {
    expect((await cli(['validate', 'builtin', '--tool', 'read_file', '--args', '{"path": "a.txt"}'])).code).toBe(0);
    const bad = await cli(['validate', 'builtin', '--tool', 'read_file', '--args', '{"path": 3}']);
    expect(bad.code).toBe(1);
    const types = await cli(['types', 'builtin', '--tool', 'read_file']);
    expect(types.code).toBe(0);
    expect(types.stdout).toContain('ReadFile');
  });

  it('invoke builtin calls a built-in tool in the workspace', async () => {
    const r = await cli(['invoke', 'builtin', '--tool', 'read_file', '--args', '{"path": "hello.txt"}', '--workspace', ws]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, value: { content: 'hi there\n' } });
    const outside = await cli(['invoke', 'builtin', '--tool', 'read_file', '--args', '{"path": "../../etc/passwd"}', '--workspace', ws]);
    expect(outside.code).toBe(1);
    expect(JSON.parse(outside.stdout).error.reason).toBe('BUILTIN_INVALID_PATH');
    const nowhere = await cli(['invoke', 'builtin', '--tool', 'read_file', '--args', '{}', '--workspace', join(ws, 'missing')]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('does not exist');
  });

  it('an agent file that names built-in tools loads in schema (they are known tools)', async () => {
    const r = await cli(['schema', 'examples/builtins-agent.gram']);
    expect(r).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
  });

  it('a file named builtin is reached as ./builtin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-named-'));
    writeFileSync(join(dir, 'builtin'), '[t:Tool {description: "d"} | (x::String)==>(::String)]\n');
    const r = await cli(['schema', './builtin'], { cwd: dir });
    expect(Object.keys(JSON.parse(r.stdout))).toEqual(['t']);
  });
});
