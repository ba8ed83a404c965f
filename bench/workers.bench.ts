/**
 * Workers benchmark (issue 20): `gramkit ab --queue` with two `gramkit worker`s against one, on
 * runs dominated by tool latency (a tool that sleeps 200 ms), ratio measured in the same run;
 * target ≥ 1.7×. A real redis-server on 127.0.0.1 (a free port); the workers are processes of the
 * built CLI (`npm run build` first). The time is the experiment's (its report's `durationMs`), not
 * the command's start-up. Both workers are warmed up first (their first job loads the
 * experiment's modules); then the experiment runs on two workers, one is stopped, and it runs on one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { cli } from '../test/support/cli.js';
import { redisUnavailable, startRedis } from '../test/support/redis.js';
import { ratio, report } from './harness.js';

const root = resolve(new URL('../', import.meta.url).pathname);
const ARGS = [
  'ab',
  'examples/capitalsAgent.gram',
  '-l',
  'test/fixtures/workers/sleepy-library.ts',
  '-l',
  'examples/capitals-1950-library.ts',
  '-i',
  'examples/capitals-inputs.jsonl',
  '--json',
];

const startWorker = async (url: string): Promise<{ readonly child: ChildProcess; readonly exited: Promise<unknown> }> => {
  const child = spawn(process.execPath, ['dist/cli.js', 'worker', '--queue', url, '--concurrency', '2'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', GRAMKIT_TEST_TOOL_MS: '200' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((r) => child.on('exit', r));
  await new Promise<void>((ok, fail) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) ok();
    });
    void exited.then(() => fail(new Error(`the worker ended: ${out}`)));
  });
  return { child, exited };
};

/** The experiment's own time (its report's `durationMs`: the runs, not the command's start-up). */
const timed = async (url: string, runs: number): Promise<number> => {
  const r = await cli([...ARGS, '--runs', String(runs), '--queue', url], { cwd: root });
  if (r.code !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { durationMs: number }).durationMs;
};

export default async (): Promise<void> => {
  if (redisUnavailable !== undefined) {
    report('workers', [['skipped', redisUnavailable]]);
    return;
  }
  const redis = await startRedis();
  const a = await startWorker(redis.url);
  const b = await startWorker(redis.url);
  try {
    await timed(redis.url, 2);
    // 7 inputs × 2 libraries × 6 runs = 84 runs, half of them with one 200 ms tool call
    const two = await timed(redis.url, 6);
    b.child.kill('SIGTERM');
    await b.exited;
    const one = await timed(redis.url, 6);
    report('workers (gramkit ab --queue, 84 runs, a tool that sleeps 200 ms, 2 runs at a time per worker)', [
      ['one worker', `${(one / 1000).toFixed(2)} s`],
      ['two workers', `${(two / 1000).toFixed(2)} s`],
      ['two workers vs one', ratio(one / two, { min: 1.7 })],
    ]);
  } finally {
    for (const w of [a, b]) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    await redis.stop();
  }
};
