/**
 * `gramkit invoke` applies the policies of `gramkit run` (the safety rules, `ALLOWED_TOOL_PERMS`,
 * approval: asked on a terminal, `--yes`/`--deny` otherwise), and reads the file's
 * `{library}` header; `ALLOWED_TOOL_PERMS` holds in every command that calls tools.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { CliIO } from '../../src/cli/io.js';
import { PolicyCodes } from '../../src/entries/policy.js';
import { cli } from '../support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'gramkit-invoke-policies-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const workspace = (): string => {
  const dir = mkdtempSync(join(scratch, 'ws-'));
  writeFileSync(join(dir, 'notes.txt'), 'hello\n');
  mkdirSync(join(dir, '.ssh'));
  writeFileSync(join(dir, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  return dir;
};

const result = (stdout: string): { ok: boolean; error?: { code: string; reason: string; message: string } } => JSON.parse(stdout) as never;

/** The CLI on a terminal: `answers` are what the person types. */
const onTerminal = async (argv: string[], answers: string): Promise<{ code: number; stdout: string; stderr: string }> => {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => answers,
    stdin: Readable.from([answers]),
    isTTY: true,
    env: {},
    cwd: process.cwd(),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
};

describe('gramkit invoke applies the policies of gramkit run', () => {
  it('refuses a call that needs approval without a terminal, saying how to approve (DENIED, exit 1), and deletes nothing', async () => {
    const ws = workspace();
    const r = await cli(['invoke', 'builtin', '--tool', 'delete_file', '--workspace', ws, '--args', '{"path": "notes.txt"}']);
    expect(r.code).toBe(1);
    const out = result(r.stdout);
    expect(out.error?.reason).toBe(PolicyCodes.DENIED);
    expect(out.error?.message).toContain('--yes');
    expect(existsSync(join(ws, 'notes.txt'))).toBe(true);
  });

  it('--yes approves the call, --deny refuses it, and the two together are a usage error', async () => {
    const ws = workspace();
    const denied = await cli(['invoke', 'builtin', '-t', 'delete_file', '-w', ws, '-a', '{"path": "notes.txt"}', '--deny']);
    expect(result(denied.stdout).error?.reason).toBe(PolicyCodes.DENIED);
    expect(existsSync(join(ws, 'notes.txt'))).toBe(true);
    const approved = await cli(['invoke', 'builtin', '-t', 'delete_file', '-w', ws, '-a', '{"path": "notes.txt"}', '--yes']);
    expect(approved.code, approved.stdout).toBe(0);
    expect(existsSync(join(ws, 'notes.txt'))).toBe(false);
    const both = await cli(['invoke', 'builtin', '-t', 'delete_file', '-w', ws, '-a', '{"path": "x"}', '--yes', '--deny']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--yes and --deny cannot be used together');
  });

  it('asks on a terminal: "n" refuses, "y" approves', async () => {
    const ws = workspace();
    const no = await onTerminal(['invoke', 'builtin', '-t', 'delete_file', '-w', ws, '-a', '{"path": "notes.txt"}'], 'n\n');
    expect(no.stderr).toContain('delete_file');
    expect(result(no.stdout).error?.reason).toBe(PolicyCodes.DENIED);
    expect(existsSync(join(ws, 'notes.txt'))).toBe(true);
    const yes = await onTerminal(['invoke', 'builtin', '-t', 'delete_file', '-w', ws, '-a', '{"path": "notes.txt"}'], 'y\n');
    expect(yes.code, yes.stdout).toBe(0);
    expect(existsSync(join(ws, 'notes.txt'))).toBe(false);
  });

  it('applies the safety rules: reading .ssh/id_rsa is DENIED, even with --yes', async () => {
    const ws = workspace();
    const r = await cli(['invoke', 'builtin', '-t', 'read_file', '-w', ws, '-a', '{"path": ".ssh/id_rsa"}', '--yes']);
    expect(r.code).toBe(1);
    expect(result(r.stdout).error?.reason).toBe(PolicyCodes.DENIED);
    expect(r.stdout).not.toContain('PRIVATE KEY');
  });

  it('ALLOWED_TOOL_PERMS=fs:read lets read_file run and refuses write_file', async () => {
    const ws = workspace();
    const env = { ALLOWED_TOOL_PERMS: 'fs:read' };
    const read = await cli(['invoke', 'builtin', '-t', 'read_file', '-w', ws, '-a', '{"path": "notes.txt"}'], { env });
    expect(read.code, read.stdout).toBe(0);
    const write = await cli(['invoke', 'builtin', '-t', 'write_file', '-w', ws, '-a', '{"path": "new.txt", "content": "x"}', '--yes'], { env });
    expect(write.code).toBe(1);
    const out = result(write.stdout);
    expect(out.error?.reason).toBe(PolicyCodes.DENIED);
    expect(out.error?.message).toContain('fs:write');
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
  });

  it('a permission list grants a tool exactly when it covers every permission the tool needs', async () => {
    // write_file needs fs:write: granted by fs:write, fs:* and *, refused by any list without them
    const ws = workspace();
    const entries = fc.constantFrom('fs:read', 'fs:write', 'fs:*', 'net:read', 'proc:exec', '*', 'net:*');
    await fc.assert(
      fc.asyncProperty(fc.array(entries, { minLength: 1, maxLength: 4 }), async (list) => {
        const grants = list.some((p) => p === 'fs:write' || p === 'fs:*' || p === '*');
        const r = await cli(['invoke', 'builtin', '-t', 'write_file', '-w', ws, '-a', '{"path": "p.txt", "content": "x"}', '--yes'], {
          env: { ALLOWED_TOOL_PERMS: list.join(',') },
        });
        expect(r.code === 0, `${list.join(',')}: ${r.stdout}`).toBe(grants);
        rmSync(join(ws, 'p.txt'), { force: true });
      }),
      { numRuns: 15 },
    );
  });

  it('reads the file header {library} as gramkit run does (relative to the file)', async () => {
    const dir = mkdtempSync(join(scratch, 'header-'));
    const lib = resolve('test/fixtures/library/cli/library.ts');
    writeFileSync(
      join(dir, 'tools.gram'),
      `{library: ${JSON.stringify(relative(dir, lib))}}\n[greet:Tool {description: "Returns a friendly greeting for the given name"} |\n  (name::String {description: "Who to greet"})==>(times::Int {default: 1, minimum: 1})==>(::String)\n]\n`,
    );
    const r = await cli(['invoke', join(dir, 'tools.gram'), '--args', '{"name": "Ada"}']);
    expect(r.stderr).toBe('');
    expect(result(r.stdout)).toEqual({ ok: true, value: 'Hello, Ada!' });
  });
});

describe('ALLOWED_TOOL_PERMS in every command that calls tools', () => {
  it('gramkit run: the agent’s write_file call is DENIED under fs:read', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'agent.gram'), '[writer:Agent {description: "Writes files", instruction: "Write the file the user asks for."} | write_file]\n');
    const r = await cli(['run', join(ws, 'agent.gram'), 'write "x" to new.txt', '--workspace', ws, '--yes', '--json'], {
      env: { ALLOWED_TOOL_PERMS: 'fs:read' },
    });
    const out = JSON.parse(r.stdout) as {
      value?: { toolsUsed: ReadonlyArray<{ name: string; result: { ok: boolean; error?: { code: string; reason: string } } }> };
    };
    const calls = out.value?.toolsUsed ?? [];
    expect(calls.length, r.stdout).toBeGreaterThan(0);
    for (const c of calls) expect(c.result.error?.reason).toBe(PolicyCodes.DENIED);
    expect(existsSync(join(ws, 'new.txt'))).toBe(false);
  });
});
