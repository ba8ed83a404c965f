/**
 * `gramkit check <files...> [--library <module>] [--strict] [--json]`
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('check')
    .description('check .gram files (directories: every .gram file under them) as schema and run would, and report every error and warning')
    .argument('<files...>', '.gram (or .json) files or directories, - for standard input, or builtin for the built-in specifications')
    .option('-l, --library <module>', 'also bind the tools to a .ts or .js module, builtin, or an MCP server, as run would (repeatable)', collect)
    .option('-w, --workspace <dir>', 'the directory tools are confined to (default: the current directory)')
    .option('--strict', 'accept only standard gram (report nested values inside records), and fail on warnings too')
    .option('--json', 'print the diagnostics as JSON on standard output')
    .addHelpText(
      'after',
      `
Errors exit 1; warnings (an unknown property, a near-miss label, ...) are printed and exit 0,
unless --strict.

Examples:
  gramkit check examples
  gramkit check examples/helloAgent.gram --library examples/hello-library.ts`,
    )
    .action(async (files: string[], options: { strict?: boolean; json?: boolean; library?: string[]; workspace?: string }) => {
      const { action } = await import('../actions/check.js');
      ctx.exit(await action(ctx, files, options));
    });
};
