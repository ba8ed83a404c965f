/**
 * Runs the CLI in-process with captured output, for command tests.
 */
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import type { CliIO } from '../../src/cli/io.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const cli = async (
  argv: ReadonlyArray<string>,
  options: { readonly stdin?: string; readonly env?: Record<string, string | undefined>; readonly cwd?: string; readonly isTTY?: boolean } = {},
): Promise<CliRun> => {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => options.stdin ?? '',
    stdin: Readable.from([options.stdin ?? '']),
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
};

/** A CLI command that keeps running (`gramkit serve`): its output so far, how to stop it, and its exit code. */
export interface RunningCli {
  /** The exit code, once the command has ended. */
  readonly done: Promise<number>;
  /** Sends the command a signal (SIGTERM), as a terminal would. */
  readonly stop: (signal?: string) => void;
  readonly out: () => string;
  readonly err: () => string;
  /** The address after "listening on", if the command printed one. */
  readonly url: () => string | undefined;
}

/**
 * Starts a long-running command and returns when it says it listens, complains on stderr, or
 * ends: no sleeps, no polling.
 */
export const startCli = async (
  argv: ReadonlyArray<string>,
  options: { readonly env?: Record<string, string | undefined>; readonly cwd?: string } = {},
): Promise<RunningCli> => {
  let stdout = '';
  let stderr = '';
  let stop!: (s: string) => void;
  const stopped = new Promise<string>((r) => (stop = r));
  let ready!: () => void;
  const listening = new Promise<void>((r) => (ready = r));
  const io: CliIO = {
    stdout: (t) => {
      stdout += t;
      if (stdout.includes('listening on')) ready();
    },
    stderr: (t) => {
      stderr += t;
      ready();
    },
    readStdin: async () => '',
    stdin: Readable.from(['']),
    isTTY: false,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
    untilStopped: () => stopped,
  };
  const done = runCli(argv, io);
  await Promise.race([listening, done]);
  return { done, stop: (s = 'SIGTERM') => stop(s), out: () => stdout, err: () => stderr, url: () => /listening on (\S+)/.exec(stdout)?.[1] };
};

/**
 * The auth arguments of every `gramkit serve` a test starts for a client that sends no token
 * (one place to change when the service's auth defaults change).
 */
export const SERVE_AUTH_ARGS: ReadonlyArray<string> = ['--no-auth'];
