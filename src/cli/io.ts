import { isatty } from 'node:tty';

/**
 * What a command may touch of the outside world. The binary passes the real process; tests pass
 * buffers, so every command runs in-process under test.
 */

export interface CliIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** All of standard input (for `-` file arguments). */
  readonly readStdin: () => Promise<string>;
  /** Standard input as a stream, for interactive commands. */
  readonly stdin: NodeJS.ReadableStream;
  /** Whether stdin and stdout are a terminal (interactive prompts, colours). */
  readonly isTTY: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * Resolves when the process is asked to stop (SIGINT, SIGTERM), with the signal's name: what a
   * long-running command (`gramkit serve`) waits for. Tests pass their own.
   */
  readonly untilStopped?: () => Promise<string>;
}

/**
 * The real process. Standard input is touched only by a command that reads it: creating its
 * stream costs start-up time (whether it is a terminal is asked of the descriptor).
 */
export const processIO = (): CliIO => ({
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
    return Buffer.concat(chunks).toString('utf8');
  },
  get stdin() {
    return process.stdin;
  },
  isTTY: isatty(0) && isatty(1),
  env: process.env,
  cwd: process.cwd(),
  untilStopped: () =>
    new Promise((resolve) => {
      const stop = (signal: string): void => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        resolve(signal);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }),
});
