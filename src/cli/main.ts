/**
 * The `gramkit` binary: runs the CLI on the real process. Only the CLI layer reads argv,
 * environment variables and the process.
 */
import { processIO } from './io.js';
import { EXIT_INTERNAL, runCli } from './run.js';

runCli(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`gramkit: internal error: ${String(e)}\n`);
    process.exitCode = EXIT_INTERNAL;
  },
);
