/**
 * A `gramkit worker` process of the built CLI (dist/cli.js), for the tests of `gramkit ab --queue`:
 * started on a queue, resolved once it says it listens; stopped with SIGTERM.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(new URL('../../', import.meta.url).pathname);

export interface Worker {
  readonly child: ChildProcess;
  readonly exited: Promise<NodeJS.Signals | number | null>;
  /** What it printed so far, stdout and stderr. */
  readonly out: () => string;
}

/** A `gramkit worker` on the queue at `url`, once it says it listens (its environment: PATH, GRAMKIT_TEST_TOOL_MS=150 and `env`). */
export const startWorker = async (url: string, args: ReadonlyArray<string> = [], env: Readonly<Record<string, string>> = {}): Promise<Worker> => {
  const child = spawn(process.execPath, ['dist/cli.js', 'worker', '--queue', url, '--lock-duration', '1000', '--concurrency', '2', ...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', GRAMKIT_TEST_TOOL_MS: '150', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<NodeJS.Signals | number | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) resolve();
    });
    child.stderr?.on('data', (d: Buffer) => void (out += d.toString()));
    void exited.then((c) => reject(new Error(`the worker ended (${String(c)}): ${out}`)));
  });
  return { child, exited, out: () => out };
};

export const stopWorker = async (w: Worker): Promise<void> => {
  if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
  await w.exited;
};
