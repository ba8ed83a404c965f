/**
 * A real `nats-server` for tests (Debian's package; `.ci/run` installs it): started on 127.0.0.1 on
 * a free port and stopped after. When the program is missing, `natsUnavailable` says why and the
 * NATS tests are skipped with that reason.
 */
import { spawn } from 'node:child_process';
import { findProgram, freePort, waitForPort } from './redis.js';

export const NATS_SERVER = findProgram(['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']);

/** Why the NATS tests cannot run here, or undefined when they can. */
export const natsUnavailable: string | undefined =
  NATS_SERVER === undefined ? 'nats-server is not installed (apt-get install nats-server; .ci/run installs it)' : undefined;

export interface NatsServer {
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** Starts a nats-server of its own on 127.0.0.1 (throws when it is not installed). */
export const startNats = async (): Promise<NatsServer> => {
  if (NATS_SERVER === undefined) throw new Error(natsUnavailable);
  const port = await freePort();
  const child = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  await waitForPort(port, 10_000);
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
};
