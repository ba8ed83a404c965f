/**
 * An experiment on two workers: `gramkit ab --queue` puts every run on a Redis queue, and two
 * `gramkit worker` processes make them. This script does what you would do in three terminals:
 *
 *   redis-server --port 6379
 *   gramkit worker --queue redis://127.0.0.1:6379        # on each machine, as many as you like
 *   gramkit ab examples/capitalsAgent.gram --library examples/ab/fast-library.ts \
 *     --library examples/capitals-1950-library.ts --inputs examples/capitals-inputs.jsonl \
 *     --runs 3 --queue redis://127.0.0.1:6379
 *
 * It starts its own redis-server on 127.0.0.1 on a free port (and stops it); without redis-server
 * installed it says so and ends. Run it from the repository: `npx tsx examples/ab-workers.ts`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const gramkit = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Starts `gramkit <args>` and resolves once its output holds `ready`. */
const start = (args: ReadonlyArray<string>, ready: string): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gramkit, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`gramkit ${args[0]} ended (${String(code)}): ${out}`)));
  });

/** Runs `gramkit <args>` to its end and returns its output. */
const run = (args: ReadonlyArray<string>): Promise<string> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [gramkit, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout?.on('data', (d: Buffer) => void (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`gramkit ${args[0]} exited with ${String(code)}`))));
  });

export const experimentOnTwoWorkers = async (): Promise<string | undefined> => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  const port = await freePort();
  const redis = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const queue = `redis://127.0.0.1:${port}`;
  const workers: ChildProcess[] = [];
  try {
    // redis-server takes a moment to listen: a worker retries until it answers
    for (let i = 0; i < 50 && workers.length === 0; i++) {
      try {
        workers.push(await start(['worker', '--queue', queue], 'listening on'));
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    workers.push(await start(['worker', '--queue', queue], 'listening on'));
    return await run([
      'ab',
      'examples/capitalsAgent.gram',
      '--library',
      'examples/ab/fast-library.ts',
      '--library',
      'examples/capitals-1950-library.ts',
      '--inputs',
      'examples/capitals-inputs.jsonl',
      '--runs',
      '3',
      '--queue',
      queue,
    ]);
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => new Promise((r) => (w.exitCode !== null ? r(null) : w.once('exit', r)))));
    redis.kill('SIGTERM');
  }
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const table = await experimentOnTwoWorkers();
  process.stdout.write(table ?? 'redis-server is not installed: this example needs it (apt-get install redis-server)\n');
}
