import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools, probeSandbox, type BuiltinOptions } from '../../../src/entries/builtins.js';
import { emptyRuleEngine } from '../../../src/entries/policy.js';
import { findBwrap } from '../../../src/tools/builtin/sandbox.js';
import { SECRET, caller, code, value, workspace } from './support.js';

/** Whether bubblewrap works here: decides which half of this file applies (the other is the documented fallback). */
const bwrap = await findBwrap(undefined);
const probeDir = workspace();
const sandboxWorks = bwrap !== undefined && (await probeSandbox(bwrap, false, probeDir.ws)).ok;

interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  duration: number;
  truncated: boolean;
  signal?: string;
  sandboxed: boolean;
}

/** Processes whose command line contains `marker`. */
const processesWith = (marker: string): string[] =>
  execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));

const waitUntilGone = async (marker: string): Promise<string[]> => {
  for (let i = 0; i < 30; i++) {
    const left = processesWith(marker);
    if (left.length === 0) return [];
    await new Promise((r) => setTimeout(r, 100));
  }
  return processesWith(marker);
};

/** A TCP server on 127.0.0.1 that answers "pong", to see whether code can reach the network. */
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((sock) => sock.end('pong'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const connectPython = (p: number) => `
import socket
try:
    s = socket.create_connection(("127.0.0.1", ${p}), timeout=2)
    print("CONNECTED", s.recv(10).decode())
except Exception as e:
    print("NO NETWORK", type(e).__name__)
`;

/** Behaviour common to both modes (sandboxed, or unsandboxed by opt-in). */
const common = (label: string, options: (ws: string) => BuiltinOptions) =>
  describe(`run_code and shell ${label}`, () => {
    const s = workspace();
    const call = caller(options(s.ws));

    it('runs python with arguments and environment, in the workspace', async () => {
      s.file('helper.py', 'VALUE = 41\n');
      const r = value<RunResult>(
        await call('run_code', {
          language: 'python',
          code: 'import os, sys, helper\nprint(os.path.basename(os.getcwd()) or "/", sys.argv[1:], os.environ["GREETING"], helper.VALUE + 1)\nopen("out.txt", "w").write("written")',
          args: ['a b', '--x'],
          env: { GREETING: 'hi' },
        }),
      );
      expect(r.exitCode).toBe(0);
      expect(r.stdout.trim().endsWith("['a b', '--x'] hi 42")).toBe(true);
      expect(readFileSync(path.join(s.ws, 'out.txt'), 'utf8')).toBe('written');
      expect(r.truncated).toBe(false);
      expect(typeof r.duration).toBe('number');
    });

    it('runs bash; a failing program is a result with its exit code and stderr', async () => {
      const r = value<RunResult>(await call('run_code', { language: 'bash', code: 'echo "$1-$2"; echo oops >&2; exit 3', args: ['x', 'y'] }));
      expect(r).toMatchObject({ stdout: 'x-y\n', stderr: 'oops\n', exitCode: 3 });
      const py = value<RunResult>(await call('run_code', { language: 'python', code: 'raise SystemExit("bad input")' }));
      expect(py).toMatchObject({ exitCode: 1, stderr: 'bad input\n' });
    });

    it('never passes the host environment on', async () => {
      process.env['GRAMKIT_TEST_HOST_SECRET'] = SECRET;
      try {
        const r = value<RunResult>(await call('run_code', { language: 'bash', code: 'env' }));
        expect(r.stdout).not.toContain(SECRET);
        expect(r.stdout).toContain('PATH=');
      } finally {
        delete process.env['GRAMKIT_TEST_HOST_SECRET'];
      }
    });

    it('times out, killing children that ignore SIGTERM', async () => {
      const marker = `${3000 + Math.floor(Math.random() * 1000)}.${Date.now() % 100000}`;
      const t0 = Date.now();
      const r = await call('run_code', {
        language: 'bash',
        code: `trap '' TERM; (trap '' TERM; sleep ${marker}) & (trap '' TERM; sleep ${marker}) & echo started; wait`,
        timeout: 1,
      });
      expect(code(r)).toBe('BUILTIN_TIMEOUT');
      if (!r.ok) expect((r.error.details as { stdout: string }).stdout).toBe('started\n');
      expect(Date.now() - t0).toBeLessThan(8000);
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it('caps gigabytes of output without holding them in memory', async () => {
      const c = caller({ ...options(s.ws), limits: { outputMaxBytes: 64 * 1024 } });
      const t0 = Date.now();
      const r = value<RunResult>(await c('run_code', { language: 'bash', code: 'head -c 4G /dev/zero | tr "\\0" "x"', timeout: 60 }));
      expect(r.truncated).toBe(true);
      expect(r.stdout.length + r.stderr.length).toBeLessThanOrEqual(64 * 1024);
      expect(Date.now() - t0).toBeLessThan(10_000);
    });

    it('limits memory', async () => {
      const c = caller({ ...options(s.ws), limits: { memoryBytes: 256 * 1024 * 1024 } });
      const r = value<RunResult>(await c('run_code', { language: 'python', code: 'x = bytearray(1024 * 1024 * 1024)\nprint("allocated")' }));
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout).not.toContain('allocated');
      expect(r.stderr).toContain('MemoryError');
    });

    it('limits CPU time', async () => {
      const c = caller({ ...options(s.ws), limits: { cpuSeconds: 1 } });
      const r = value<RunResult>(await c('run_code', { language: 'python', code: 'while True: pass', timeout: 20 }));
      expect(['SIGXCPU', 'SIGKILL']).toContain(r.signal);
      expect(r.exitCode).toBeGreaterThan(128);
    });

    it('limits the size of files written', async () => {
      const c = caller({ ...options(s.ws), limits: { fileSizeBytes: 1024 * 1024 } });
      const r = value<RunResult>(await c('run_code', { language: 'bash', code: 'head -c 5M /dev/zero > big.bin; echo "status $?"' }));
      expect(r.stdout).toMatch(/status [1-9]/);
      expect(readFileSync(path.join(s.ws, 'big.bin')).length).toBeLessThanOrEqual(1024 * 1024);
    });

    it('shell runs a command line in a directory of the workspace', async () => {
      s.file('sub/f.txt', 'content');
      const r = value<RunResult>(await call('shell', { command: 'ls; cat f.txt | tr a-z A-Z', cwd: 'sub' }));
      expect(r.stdout).toBe('f.txt\nCONTENT');
      expect(value<RunResult>(await call('shell', { command: 'exit 7' })).exitCode).toBe(7);
      expect(code(await call('shell', { command: 'sleep 5', timeout: 0.5 }))).toBe('BUILTIN_TIMEOUT');
      expect(code(await call('shell', { command: 'ls', cwd: 'sub/f.txt' }))).toBe('BUILTIN_NOT_A_DIRECTORY');
    });

    it('shell refuses dangerous commands before running anything', async () => {
      const r = await call('shell', { command: 'touch marker.txt; rm -rf / --no-preserve-root' });
      expect(code(r)).toBe('POLICY_DENIED');
      if (!r.ok) expect(r.error.message).toContain('no-recursive-delete-of-root');
      expect(existsSync(path.join(s.ws, 'marker.txt'))).toBe(false);
      expect(code(await call('run_code', { language: 'bash', code: 'cat ~/.ssh/id_rsa' }))).toBe('POLICY_DENIED');
    });
  });

const sandboxed = (ws: string): BuiltinOptions => ({ workspace: ws });
const unsandboxed = (ws: string): BuiltinOptions => ({ workspace: ws, sandbox: { mode: 'none' } });

if (sandboxWorks) {
  common('in the bubblewrap sandbox', sandboxed);

  describe('what the sandbox enforces', () => {
    const s = workspace();
    // the safety rules would refuse some of these commands first: test the sandbox alone
    const call = caller({ workspace: s.ws, rules: emptyRuleEngine });

    it('reports that it ran sandboxed, in /workspace, as an unprivileged user', async () => {
      const r = value<RunResult>(await call('run_code', { language: 'bash', code: 'pwd; id -u; cat /proc/self/status | grep CapEff' }));
      expect(r.sandboxed).toBe(true);
      expect(r.stdout).toBe('/workspace\n1000\nCapEff:\t0000000000000000\n');
    });

    it('has no network: a server on the host loopback is out of reach', async () => {
      const r = value<RunResult>(await call('run_code', { language: 'python', code: connectPython(port) }));
      expect(r.stdout).toContain('NO NETWORK');
    });

    it('has the network when the run allows it', async () => {
      const c = caller({ workspace: s.ws, sandbox: { network: true } });
      const r = value<RunResult>(await c('run_code', { language: 'python', code: connectPython(port) }));
      expect(r.stdout).toContain('CONNECTED pong');
      expect(builtinTools({ workspace: s.ws, sandbox: { network: true } }).find((t) => t.name === 'run_code')?.annotations?.permissions).toContain('net:read');
      expect(builtinTools({ workspace: s.ws }).find((t) => t.name === 'run_code')?.annotations?.permissions).not.toContain('net:read');
    });

    it('cannot see or touch files outside the workspace', async () => {
      const secretPath = path.join(s.outside, 'secret.txt');
      const r = value<RunResult>(
        await call('run_code', {
          language: 'bash',
          code: [
            `cat ${secretPath} 2>&1 || echo "no secret"`,
            'cat /etc/shadow 2>&1 || echo "no shadow"',
            'ls /root 2>&1 || echo "no root"',
            `ls ${path.dirname(process.cwd())} 2>&1 || echo "no host tree"`,
            'touch /usr/pwned 2>&1 || echo "read-only usr"',
            'touch /etc/pwned 2>&1 || echo "no etc write"',
            'ps -e -o pid= | wc -l',
          ].join('\n'),
        }),
      );
      expect(r.stdout).not.toContain(SECRET);
      for (const m of ['no secret', 'no shadow', 'no root', 'no host tree', 'read-only usr', 'no etc write']) expect(r.stdout).toContain(m);
      // its own PID namespace: only its own few processes are visible
      expect(Number(r.stdout.trim().split('\n').pop())).toBeLessThan(10);
      expect(existsSync(secretPath) && readFileSync(secretPath, 'utf8')).toBe(SECRET);
    });

    it('kills processes that escaped into their own session on timeout (PID namespace)', async () => {
      const marker = `${4000 + Math.floor(Math.random() * 1000)}.${Date.now() % 100000}`;
      const r = await call('run_code', { language: 'bash', code: `setsid sleep ${marker} & nohup sleep ${marker} & sleep 30`, timeout: 1 });
      expect(code(r)).toBe('BUILTIN_TIMEOUT');
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it('leaves nothing behind after a normal exit either', async () => {
      const marker = `${5000 + Math.floor(Math.random() * 1000)}.${Date.now() % 100000}`;
      const r = value<RunResult>(await call('run_code', { language: 'bash', code: `setsid sleep ${marker} & echo done` }));
      expect(r.stdout).toBe('done\n');
      expect(await waitUntilGone(`sleep ${marker}`)).toEqual([]);
    });

    it('shows extra read-only directories when configured', async () => {
      const c = caller({ workspace: s.ws, sandbox: { readOnlyPaths: [s.outside] } });
      const r = value<RunResult>(
        await c('run_code', { language: 'bash', code: `cat ${s.outside}/secret.txt; touch ${s.outside}/x 2>/dev/null || echo read-only` }),
      );
      expect(r.stdout).toBe(`${SECRET}read-only\n`);
    });
  });
} else {
  describe('without a working bubblewrap (this machine): the documented fallback', () => {
    it('run_code and shell refuse to run unsandboxed unless the run opts in', async () => {
      const s = workspace();
      const call = caller(sandboxed(s.ws));
      const r = await call('run_code', { language: 'python', code: 'print(1)' });
      expect(code(r)).toBe('BUILTIN_SANDBOX_UNAVAILABLE');
      expect(code(await call('shell', { command: 'ls' }))).toBe('BUILTIN_SANDBOX_UNAVAILABLE');
    });
  });
}

common('unsandboxed (sandbox.mode "none", an explicit opt-in)', unsandboxed);

describe('sandbox availability', () => {
  const s = workspace();

  it('a missing bubblewrap is BUILTIN_SANDBOX_UNAVAILABLE, saying how to fix it; nothing runs', async () => {
    const call = caller({ workspace: s.ws, sandbox: { bwrapPath: path.join(s.outside, 'no-bwrap') } });
    const r = await call('run_code', { language: 'bash', code: 'touch ran.txt' });
    expect(code(r)).toBe('BUILTIN_SANDBOX_UNAVAILABLE');
    if (!r.ok) expect(r.error.message).toContain('apt-get install bubblewrap');
    expect(existsSync(path.join(s.ws, 'ran.txt'))).toBe(false);
  });

  it('a bubblewrap that cannot create namespaces is BUILTIN_SANDBOX_UNAVAILABLE with its reason', async () => {
    const fake = path.join(s.outside, 'bwrap-broken');
    writeFileSync(fake, '#!/bin/sh\necho "bwrap: No permissions to creating new namespace" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    const r = await caller({ workspace: s.ws, sandbox: { bwrapPath: fake } })('shell', { command: 'touch ran.txt' });
    expect(code(r)).toBe('BUILTIN_SANDBOX_UNAVAILABLE');
    if (!r.ok) expect(r.error.message).toContain('No permissions to creating new namespace');
    expect(existsSync(path.join(s.ws, 'ran.txt'))).toBe(false);
  });

  it('unsandboxed runs say so, and reach the network (what the opt-in gives up)', async () => {
    const call = caller(unsandboxed(s.ws));
    const r = value<RunResult>(await call('run_code', { language: 'python', code: connectPython(port) }));
    expect(r.sandboxed).toBe(false);
    expect(r.stdout).toContain('CONNECTED pong');
    expect(builtinTools(unsandboxed(s.ws)).find((t) => t.name === 'shell')?.annotations?.permissions).toContain('net:read');
  });
});
