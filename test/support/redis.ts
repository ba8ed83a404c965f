/**
 * A real `redis-server` for tests (Debian's package; `.ci/run` installs it): started on 127.0.0.1
 * on a free port with a temporary directory, no persistence, and stopped after. When the program
 * is missing, `redisAvailable` says why and the Redis tests are skipped with that reason.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The first of `paths` that runs with `--version` (Debian's servers, wherever the package put them). */
export const findProgram = (paths: ReadonlyArray<string>): string | undefined => {
  for (const p of paths) {
    try {
      execFileSync(p, ['--version'], { stdio: 'ignore' });
      return p;
    } catch {
      // not there
    }
  }
  return undefined;
};

export const REDIS_SERVER = findProgram(['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server']);

/** Why the Redis tests cannot run here, or undefined when they can. */
export const redisUnavailable: string | undefined =
  REDIS_SERVER === undefined ? 'redis-server is not installed (apt-get install redis-server; .ci/run installs it): the Redis store tests need it' : undefined;

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  readonly stop: () => Promise<void>;
  /** Stops the server, keeping its port and directory (an outage). */
  readonly pause: () => Promise<void>;
  /** Starts it again on the same port (the end of the outage). */
  readonly resume: () => Promise<void>;
}

/** Resolves once 127.0.0.1:`port` accepts a connection (throws after `ms`). */
export const waitForPort = async (port: number, ms: number): Promise<void> => {
  const end = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const c = connect(port, '127.0.0.1');
      c.once('connect', () => {
        c.destroy();
        resolve(true);
      });
      c.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > end) throw new Error(`nothing listens on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** Starts a redis-server of its own (throws when it is not installed). */
export const startRedis = async (): Promise<RedisServer> => {
  if (REDIS_SERVER === undefined) throw new Error(redisUnavailable);
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-redis-'));
  const port = await freePort();
  const spawnServer = (): ChildProcess =>
    spawn(
      REDIS_SERVER as string,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
      { stdio: 'ignore' },
    );
  let child = spawnServer();
  await waitForPort(port, 10_000);
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    }
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    pause: kill,
    resume: async () => {
      child = spawnServer();
      await waitForPort(port, 10_000);
    },
  };
};
