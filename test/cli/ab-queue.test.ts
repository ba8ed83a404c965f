/**
 * `gramkit ab --queue redis://…` and `gramkit worker`: a real redis-server (started here, on
 * 127.0.0.1, a free port), workers as processes of the built CLI.
 *
 * - two workers, one killed with `kill -9` in the middle of the experiment: every run is in the
 *   results exactly once, and the report is the one a single process makes (timings aside);
 * - a worker's approvals and policies are its own (refused without its --yes, ALLOWED_TOOL_PERMS hold);
 * - a job forged directly on the queue (anyone who can write to the Redis can) that names a
 *   library outside the worker's --root is refused, and the library is never loaded;
 * - a Redis that does not answer is a reason at once.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue, QueueEvents } from 'bullmq';
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { freePort, type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';
import { startWorker, stopWorker, type Worker } from '../support/worker.js';

/** A Redis connection of the test's own (closed after each test; a connection cut when Redis stops is not an error). */
type Connection = { readonly isOpen: boolean; quit(): Promise<unknown>; destroy(): void };
let opened: Connection[] = [];
const connection = (url: string): Connection => {
  const c = createClient({ url });
  c.on('error', () => undefined);
  opened.push(c);
  return c;
};
const closeConnections = async (): Promise<void> => {
  for (const c of opened) if (c.isOpen) await c.quit().catch(() => c.destroy());
  opened = [];
};

const root = resolve(new URL('../../', import.meta.url).pathname);
const tmp = mkdtempSync(join(tmpdir(), 'gramkit-ab-queue-'));
const AGENT = 'examples/capitalsAgent.gram';
const INPUTS = 'examples/capitals-inputs.jsonl';
const SLEEPY = 'test/fixtures/workers/sleepy-library.ts';
const OLD = 'examples/capitals-1950-library.ts';
const ARGS = ['ab', AGENT, '-l', SLEEPY, '-l', OLD, '-i', INPUTS, '--runs', '3', '--json'];

/** The report without what changes from one run to the next (timings, the tools' latency). */
const comparable = (report: Record<string, unknown>): unknown =>
  JSON.parse(
    JSON.stringify({ ...report, startedAt: 0, durationMs: 0 }, (key, v) => {
      if (key === 'latencyCI' || key === 'latencyMs' || key === 'lastCalledAt' || /durationMs$/.test(key)) return 0;
      return v;
    }),
  );

describe.skipIf(redisUnavailable !== undefined)('gramkit ab --queue and gramkit worker', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(closeConnections);
  afterAll(async () => {
    await redis?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('two workers, one killed with kill -9 mid-experiment: every run exactly once, the report of one process', async () => {
    const a = await startWorker(redis.url);
    const b = await startWorker(redis.url);
    try {
      const out = join(tmp, 'queued.jsonl');
      const queued = cli([...ARGS, '--queue', redis.url, '--out', out], { cwd: root });
      // kill a as soon as it holds a run (its lock is in Redis): it dies in the middle of it
      const events = new QueueEvents('gramkit-ab', { connection: connection(redis.url) as never });
      const queue = new Queue('gramkit-ab', { connection: connection(redis.url) as never });
      for (;;) {
        const completed = await queue.getCompletedCount();
        const active = await queue.getActiveCount();
        if (completed >= 4 && active >= 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      a.child.kill('SIGKILL');
      expect(await a.exited).toBe('SIGKILL');
      const r = await queued;
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout) as { results: Array<{ variant: string; input: number; repetition: number; error?: unknown }>; summaries: unknown };
      expect(report.results).toHaveLength(42);
      expect(new Set(report.results.map((x) => `${x.variant}/${x.input}/${x.repetition}`)).size).toBe(42);
      expect(report.results.filter((x) => x.error !== undefined)).toEqual([]);
      // the experiment's line, a line per run, and the report
      const lines = readFileSync(out, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      expect(lines).toHaveLength(44);
      expect(JSON.parse(lines.at(-1) as string)).toMatchObject({ kind: 'gramkit-experiment-report', summaries: report.summaries });
      // the killed worker's runs were taken over by the other one: some job stalled and was made again
      const jobs = await queue.getCompleted(0, 100);
      expect(jobs).toHaveLength(42);
      expect(jobs.some((j) => (j.stalledCounter ?? 0) > 0 || j.attemptsStarted > 1)).toBe(true);
      await events.close();
      await queue.close();

      const local = await cli(ARGS, { cwd: root });
      expect(local.code, local.stderr).toBe(0);
      expect(comparable(JSON.parse(r.stdout))).toEqual(comparable(JSON.parse(local.stdout)));
    } finally {
      await stopWorker(a);
      await stopWorker(b);
    }
  }, 120_000);

  it('refuses a job forged on the queue that names a library outside its --root, without loading it', async () => {
    // the worker's root is a temporary directory (never under the checkout: a test that times out
    // must not leave a link there); the forged library would leave a mark if it were loaded
    const outside = mkdtempSync(join(tmpdir(), 'gramkit-forged-'));
    const jail = mkdtempSync(join(tmpdir(), 'gramkit-forged-root-'));
    const mark = join(outside, 'loaded');
    const evil = join(outside, 'evil-library.mjs');
    writeFileSync(evil, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'loaded');\nexport default {};\n`);
    copyFileSync(join(root, AGENT), join(jail, 'agent.gram'));
    copyFileSync(join(root, INPUTS), join(jail, 'inputs.jsonl'));
    writeFileSync(join(jail, 'library.mjs'), 'export default {};\n');
    // a link inside the root to the file outside it is the same file: refused too
    symlinkSync(evil, join(jail, 'evil-library.mjs'));
    const agent = join(jail, 'agent.gram');
    const inputs = join(jail, 'inputs.jsonl');
    let w: Worker | undefined;
    let queue: Queue | undefined;
    let events: QueueEvents | undefined;
    try {
      w = await startWorker(redis.url, ['--root', jail]);
      queue = new Queue('gramkit-ab', { connection: connection(redis.url) as never });
      events = new QueueEvents('gramkit-ab', { connection: connection(redis.url) as never });
      await events.waitUntilReady();
      for (const library of [evil, join(jail, 'evil-library.mjs')]) {
        const job = await queue.add('run', {
          kind: 'gramkit-ab-run',
          experiment: `forged-${library.length}`,
          definition: { file: agent, options: { library: [library], inputs } },
          key: { variant: 'evil-library', input: 0, repetition: 0 },
        });
        await expect(job.waitUntilFinished(events)).rejects.toThrow(/outside the worker's root/);
      }
      // nor may a job make the worker start a command (an MCP server over stdio), or send its API key elsewhere
      const started = join(outside, 'started');
      const command = `mcp+stdio:${process.execPath} -e require('fs').writeFileSync(${JSON.stringify(started)},'x')`;
      const others: ReadonlyArray<readonly [Record<string, unknown>, RegExp]> = [
        [{ library: [command], inputs }, /does not start or connect to MCP servers/],
        [{ library: [join(jail, 'library.mjs')], inputs, model: ['openai/gpt-4o-mini'], baseUrl: 'http://127.0.0.1:9/v1' }, /is not this worker's/],
      ];
      for (const [options, reason] of others) {
        const job = await queue.add('run', {
          kind: 'gramkit-ab-run',
          experiment: 'forged-more',
          definition: { file: agent, options },
          key: { variant: 'x', input: 0, repetition: 0 },
        });
        await expect(job.waitUntilFinished(events)).rejects.toThrow(reason);
      }
      expect(existsSync(mark)).toBe(false);
      expect(existsSync(started)).toBe(false);
      expect(w.out()).toContain('refused a job');
    } finally {
      await events?.close();
      await queue?.close();
      if (w !== undefined) await stopWorker(w);
      rmSync(jail, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);

  it('a worker decides approvals and policies itself, as gramkit ab does: refused without its --yes, whatever ab was given', async () => {
    const ws = mkdtempSync(join(tmp, 'ws-'));
    writeFileSync(join(ws, 'agent.gram'), '[cleaner:Agent {description: "Deletes files", instruction: "Delete what the user asks."} | delete_file]\n');
    writeFileSync(join(ws, 'inputs.jsonl'), '{"message": "delete it", "toolCalls": [{"name": "delete_file", "arguments": {"path": "victim.txt"}}]}\n');
    writeFileSync(join(ws, 'victim.txt'), 'still here');
    const args = ['ab', join(ws, 'agent.gram'), '-l', 'builtin', '-i', join(ws, 'inputs.jsonl'), '--yes', '--json', '--queue', redis.url];
    type Report = { summaries: ReadonlyArray<{ toolErrors: number }> };
    /** The experiment on one worker started with `flags` and `env`: its tool errors, and whether the file is still there. */
    const onWorker = async (flags: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}): Promise<[number | undefined, boolean]> => {
      const w = await startWorker(redis.url, ['--root', ws, ...flags], env);
      try {
        const r = await cli(args, { cwd: ws });
        expect(r.code, r.stderr).toBe(0);
        return [(JSON.parse(r.stdout) as Report).summaries[0]?.toolErrors, existsSync(join(ws, 'victim.txt'))];
      } finally {
        await stopWorker(w);
      }
    };
    expect(await onWorker([])).toEqual([1, true]);
    // the worker's ALLOWED_TOOL_PERMS hold too, even with its --yes
    expect(await onWorker(['--yes'], { ALLOWED_TOOL_PERMS: 'fs:read' })).toEqual([1, true]);
    expect(await onWorker(['--yes'])).toEqual([0, false]);
  }, 60_000);

  it('a worker loads an experiment once per set of files: another experiment on the same files reuses it, a changed file is loaded again', async () => {
    const ws = mkdtempSync(join(tmp, 'files-'));
    writeFileSync(join(ws, 'agent.gram'), '[parser:Agent {description: "Parses JSON", instruction: "Parse what the user gives."} | json_parse]\n');
    const call = { name: 'json_parse', arguments: { text: '[1]' } };
    const inputs = (text: string): string =>
      `${JSON.stringify({ message: 'parse it', toolCalls: [call], expectedToolCalls: [{ json_parse: { text: [text] } }] })}\n`;
    writeFileSync(join(ws, 'inputs.jsonl'), inputs('[1]'));
    const args = ['ab', join(ws, 'agent.gram'), '-l', 'builtin', '-i', join(ws, 'inputs.jsonl'), '--runs', '3', '--json', '--queue', redis.url];
    const w = await startWorker(redis.url, ['--root', ws]);
    try {
      const succeeded = async (): Promise<number | undefined> => {
        const r = await cli(args, { cwd: ws });
        expect(r.code, r.stderr).toBe(0);
        return (JSON.parse(r.stdout) as { summaries: ReadonlyArray<{ succeeded: number }> }).summaries[0]?.succeeded;
      };
      const loads = (): number =>
        w
          .out()
          .split('\n')
          .filter((l) => l.startsWith('gramkit worker: loaded')).length;
      expect(await succeeded()).toBe(3);
      expect(loads()).toBe(1);
      // another experiment (another id) on the same files: nothing loaded again
      expect(await succeeded()).toBe(3);
      expect(loads()).toBe(1);
      // the inputs changed (the calls expected are others): loaded again, and scored by the new ones
      writeFileSync(join(ws, 'inputs.jsonl'), inputs('[2]'));
      expect(await succeeded()).toBe(0);
      expect(loads()).toBe(2);
    } finally {
      await stopWorker(w);
    }
  }, 60_000);

  it('a Redis that does not answer is a reason at once', async () => {
    const port = await freePort();
    const r = await cli([...ARGS, '--queue', `redis://127.0.0.1:${port}`], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^error\\[CLI_QUEUE_UNAVAILABLE\\]: --queue redis://127.0.0.1:${port}: Redis does not answer`));
    const bad = await cli([...ARGS, '--queue', 'http://127.0.0.1:1'], { cwd: root });
    expect(bad.stderr).toMatch(/^error\[CLI_USAGE\]: --queue http:\/\/127.0.0.1:1: not a Redis URL/);
    const worker = await cli(['worker', '--queue', `redis://127.0.0.1:${port}`], { cwd: root });
    expect(worker.code).toBe(1);
    expect(worker.stderr).toMatch(new RegExp(`^error\\[CLI_QUEUE_UNAVAILABLE\\]: --queue redis://127.0.0.1:${port}: Redis does not answer`));
  });
});
