/**
 * What every command gets (the IO and a way to set the exit code) and the exit codes, apart from
 * `run.ts`: commands and actions import this module, and `run.ts` imports the commands.
 *
 * Exit codes: 0 success, 1 invalid input or a failed check, 2 usage errors, 70 an internal error.
 */
import type { CliIO } from './io.js';

export interface CommandContext {
  readonly io: CliIO;
  /** Sets the exit code of the run (the last call wins). */
  readonly exit: (code: number) => void;
  /**
   * Runs `cleanup` when the command is done, whatever happened (connections to MCP servers are
   * closed, the processes of stdio servers end). Cleanups run in reverse order of registration.
   */
  readonly defer: (cleanup: () => unknown) => void;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 70;
