/**
 * `runCli(argv, io)`: the whole command line as a function from arguments to an exit code.
 *
 * Each command is declared in `commands/<name>.ts` as `register(program, ctx)`; its action loads
 * its implementation with a dynamic `import()` (the CLI bundle is code-split), so start-up only
 * evaluates commander and the declarations (of the one command named, when one is). An action returns its exit code through `ctx.exit`.
 *
 * Exit codes: see `context.ts`.
 */
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, type CommandContext } from './context.js';
import type { CliIO } from './io.js';
import { VERSION } from './version.js';
import { reportError } from './report.js';
import { CliCodes } from './codes.js';

/** Runs the CLI; `argv` excludes `node` and the script (e.g. `['check', 'a.gram']`). */
export const runCli = async (argv: ReadonlyArray<string>, io: CliIO): Promise<number> => {
  let code = EXIT_OK;
  const cleanups: Array<() => unknown> = [];
  const ctx: CommandContext = { io, exit: (c) => void (code = c), defer: (f) => void cleanups.push(f) };
  const program = new Command('gramkit')
    .description('Tool and agent specifications in gram notation: parse, check, compile to JSON Schema, bind, invoke, run.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .exitOverride();
  registerCommands(program, ctx, argv);
  for (const c of program.commands) c.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT_OK;
      if (e.code === 'commander.executeSubCommandAsync') return code;
      return EXIT_USAGE;
    }
    reportError(io, { reason: CliCodes.INTERNAL, message: `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` });
    return EXIT_INTERNAL;
  } finally {
    for (const f of cleanups.reverse()) {
      try {
        await f();
      } catch {
        // a cleanup that fails must not change the command's outcome
      }
    }
  }
};
