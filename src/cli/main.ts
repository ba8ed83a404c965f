/**
 * The `gramkit` command line. Only this layer reads argv, environment variables and the process.
 *
 * Each command is declared in `commands/<name>.ts` as a `register(program)` function whose action
 * loads its implementation with a dynamic `import()`, so start-up evaluates only commander and the
 * declarations (the CLI is bundled into one file with code-split chunks).
 *
 * Exit codes: 0 success, 1 invalid input or a failed check, 2 usage errors.
 */
import { Command, CommanderError } from 'commander';
import { registerCommands } from './commands/index.js';
import { VERSION } from './version.js';

export const buildProgram = (): Command => {
  const program = new Command('gramkit')
    .description('Tool and agent specifications in gram notation: parse, check, compile to JSON Schema, bind, invoke, run.')
    .version(VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerCommands(program);
  return program;
};

const main = async (argv: ReadonlyArray<string>): Promise<number> => {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    process.stderr.write(`gramkit: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 70;
  }
};

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`gramkit: internal error: ${String(e)}\n`);
    process.exitCode = 70;
  },
);
