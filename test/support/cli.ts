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
  options: { readonly stdin?: string; readonly env?: Record<string, string | undefined>; readonly cwd?: string } = {},
): Promise<CliRun> => {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readStdin: async () => options.stdin ?? '',
    stdin: Readable.from([options.stdin ?? '']),
    isTTY: false,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
};
