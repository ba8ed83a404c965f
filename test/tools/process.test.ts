import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/entries/tools.js';
import { eventually, isAlive, liveGroupMembers } from './proc-support.js';

const env = { PATH: '/usr/local/bin:/usr/bin:/bin' };
const dir = mkdtempSync(join(tmpdir(), 'gramkit-proc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const base = { cwd: dir, env, timeoutMs: 10_000, maxOutputBytes: 1 << 20 };

describe('runProcess: arguments, input, environment', () => {
  it('passes every argument as exactly one argument, never through a shell', async () => {
    const args = ['; rm -rf /', '$(id)', '`id`', 'a b  c', '"quoted" \'single\'', '*', '$HOME', '\n', ''];
    const r = await runProcess(['printf', '%s\\0', ...args], base);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\0').slice(0, -1)).toEqual(args);
  });

  it('law: any argument list (no NUL) reaches the program unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\0')),
          { maxLength: 6 },
        ),
        async (args) => {
          // a first fixed argument: printf prints its format once even with no arguments
          const r = await runProcess(['printf', '%s\\0', 'first', ...args], base);
          expect(r.stdout.split('\0').slice(1, -1)).toEqual(args);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('writes stdin and closes it; without stdin the program reads end-of-file', async () => {
    const withInput = await runProcess(['cat'], { ...base, stdin: 'line 1\nline 2 ünïcode\n' });
    expect(withInput.stdout).toBe('line 1\nline 2 ünïcode\n');
    const without = await runProcess(['cat'], base);
    expect(without).toMatchObject({ exitCode: 0, stdout: '', timedOut: false });
  });

  it('gives the child exactly the environment passed, nothing inherited', async () => {
    const r = await runProcess(['env'], { ...base, env: { ...env, ONLY_THIS: 'yes' } });
    const names = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('=')[0])
      .sort();
    expect(names).toEqual(['ONLY_THIS', 'PATH']);
  });

  it('reports exit codes and stderr', async () => {
    const r = await runProcess(['sh', '-c', 'echo oops >&2; exit 3'], base);
    expect(r).toMatchObject({ exitCode: 3, signal: null, stderr: 'oops\n', stdout: '', truncated: false, timedOut: false, cancelled: false });
    expect(r.pid).toBeGreaterThan(0);
  });

  it('runs in the working directory given', async () => {
    const r = await runProcess(['pwd'], base);
    expect(r.stdout.trim()).toBe(dir);
  });
});

describe('runProcess: spawn failures are results', () => {
  it('a missing program', async () => {
    const r = await runProcess(['no-such-program-gramkit'], base);
    expect(r.error?.code).toBe('ENOENT');
    expect(r.error?.message).toContain('no-such-program-gramkit');
    expect(r.exitCode).toBeNull();
  });

  it('a missing working directory is named as such', async () => {
    const r = await runProcess(['true'], { ...base, cwd: join(dir, 'missing') });
    expect(r.error?.code).toBe('ENOENT');
    expect(r.error?.message).toContain('working directory');
  });

  it('a file that is not executable', async () => {
    const file = join(dir, 'not-exec.sh');
    writeFileSync(file, 'echo hi\n', { mode: 0o644 });
    const r = await runProcess([file], base);
    expect(r.error?.code).toBe('EACCES');
  });

  it('empty argv and NUL characters', async () => {
    expect((await runProcess([], base)).error?.code).toBe('IMPL_INVALID_ARGV');
    expect((await runProcess(['echo', 'a\0b'], base)).error?.code).toBe('IMPL_INVALID_ARGV');
  });

  it('an already aborted signal starts nothing', async () => {
    const r = await runProcess(['sleep', '5'], { ...base, signal: AbortSignal.abort() });
    expect(r.cancelled).toBe(true);
    expect(r.pid).toBeUndefined();
  });
});

/** A leader that ignores SIGTERM and forks three grandchildren that ignore it too, writing their pids. */
const stubbornTree = (pidFile: string, leaderTraps = true): string[] => [
  'sh',
  '-c',
  `${leaderTraps ? "trap '' TERM; " : ''}for i in 1 2 3; do sh -c 'trap "" TERM; echo $$ >> ${pidFile}; while :; do sleep 1; done' & done; echo ready; wait`,
];

const readPids = (file: string): number[] =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map(Number);

describe('runProcess: timeouts and cancellation kill the whole process group', () => {
  it('a leader and grandchildren that ignore SIGTERM are all killed (SIGKILL after the grace period)', async () => {
    const pidFile = join(dir, 'pids-timeout');
    const r = await runProcess(stubbornTree(pidFile), { ...base, timeoutMs: 400, killGraceMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(r.stdout).toBe('ready\n');
    const grandchildren = readPids(pidFile);
    expect(grandchildren).toHaveLength(3);
    expect(await eventually(() => liveGroupMembers(r.pid!).length === 0)).toBe(true);
    expect(grandchildren.filter(isAlive)).toEqual([]);
  });

  it('grandchildren that ignore SIGTERM die with a leader that does not', async () => {
    const pidFile = join(dir, 'pids-leader-dies');
    const r = await runProcess(stubbornTree(pidFile, false), { ...base, timeoutMs: 400, killGraceMs: 5000 });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    // the leader died on SIGTERM, so its group was killed at once, long before the 5 s grace period
    expect(r.durationMs).toBeLessThan(4000);
    expect(await eventually(() => liveGroupMembers(r.pid!).length === 0)).toBe(true);
    expect(readPids(pidFile).filter(isAlive)).toEqual([]);
  });

  it('aborting the signal cancels and kills the group', async () => {
    const pidFile = join(dir, 'pids-abort');
    const controller = new AbortController();
    const running = runProcess(stubbornTree(pidFile), { ...base, signal: controller.signal, killGraceMs: 200 });
    setTimeout(() => controller.abort(), 300);
    const r = await running;
    expect(r).toMatchObject({ cancelled: true, timedOut: false });
    expect(await eventually(() => liveGroupMembers(r.pid!).length === 0)).toBe(true);
    expect(readPids(pidFile).filter(isAlive)).toEqual([]);
  });

  it('many concurrent calls may share one signal without listener warnings', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const shared = new AbortController().signal;
      const results = await Promise.all(Array.from({ length: 24 }, () => runProcess(['true'], { ...base, signal: shared })));
      expect(results.every((r) => r.exitCode === 0)).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a program that exits leaves no background process behind', async () => {
    const r = await runProcess(['sh', '-c', 'sleep 30 & sleep 30 > /dev/null 2>&1 & echo started'], base);
    expect(r).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    expect(r.durationMs).toBeLessThan(5000);
    expect(await eventually(() => liveGroupMembers(r.pid!).length === 0)).toBe(true);
  });

  it('a process that escaped the group with setsid cannot hold the call open', async () => {
    const r = await runProcess(['sh', '-c', "setsid sh -c 'echo $$ >&2; exec sleep 30' & sleep 0.2; echo done"], { ...base, closeGraceMs: 200 });
    expect(r.stdout).toBe('done\n');
    expect(r.durationMs).toBeLessThan(5000);
    const escaped = Number(r.stderr.trim());
    expect(escaped).toBeGreaterThan(0);
    process.kill(escaped, 'SIGKILL'); // out of reach of the group: clean up here
  });
});

describe('runProcess: output is capped', () => {
  it('endless output stops at the cap, the group is killed and the result marked truncated', async () => {
    const r = await runProcess(['cat', '/dev/zero'], { ...base, maxOutputBytes: 256 * 1024 });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBe(256 * 1024);
    expect(await eventually(() => liveGroupMembers(r.pid!).length === 0)).toBe(true);
  });

  it('gigabytes of output are cut without being read (memory stays bounded)', async () => {
    const before = process.memoryUsage().rss;
    const r = await runProcess(['head', '-c', String(4 * 1024 ** 3), '/dev/zero'], { ...base, maxOutputBytes: 1024 * 1024 });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(1024 * 1024);
    expect(process.memoryUsage().rss - before).toBeLessThan(512 * 1024 ** 2);
  });

  it('stderr counts towards the cap', async () => {
    const r = await runProcess(['sh', '-c', 'head -c 5000 /dev/zero >&2; echo after'], { ...base, maxOutputBytes: 1000 });
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.stderr) + Buffer.byteLength(r.stdout)).toBe(1000);
  });

  it('law: output of n bytes under a cap c keeps min(n, c) bytes, truncated exactly when n > c', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 0, max: 200_000 }), async (n, c) => {
        const r = await runProcess(['head', '-c', String(n), '/dev/zero'], { ...base, maxOutputBytes: c });
        expect(r.stdout.length).toBe(Math.min(n, c));
        expect(r.truncated).toBe(n > c);
      }),
      { numRuns: 25 },
    );
  });
});
