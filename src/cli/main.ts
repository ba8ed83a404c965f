/**
 * The `gramkit` binary: runs the CLI on the real process. Only the CLI layer reads argv,
 * environment variables and the process.
 *
 * Once the command is done and its output flushed, the process exits: a tool implementation that
 * ignored its abort signal (a stray timer, an open socket) must not keep the command hanging after
 * its result was printed.
 */
import './registries.js';
import { processIO } from './io.js';
import { EXIT_INTERNAL } from './context.js';
import { runCli } from './run.js';
import { setMaxConcurrentRuns } from '../tools/run-slots.js';

/** `GRAMKIT_MAX_CONCURRENT_RUNS`: the programs run_code, shell and sandboxed command tools run at once (default: CPUs × 2). */
const maxRuns = Number(process.env['GRAMKIT_MAX_CONCURRENT_RUNS'] ?? '');
if (Number.isInteger(maxRuns) && maxRuns > 0) setMaxConcurrentRuns(maxRuns);

const exitAfterFlush = (code: number): void => {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};

runCli(process.argv.slice(2), processIO()).then(exitAfterFlush, (e: unknown) => {
  process.stderr.write(`gramkit: internal error: ${String(e)}\n`);
  exitAfterFlush(EXIT_INTERNAL);
});
