/**
 * `gramkit check <files...> [--strict] [--json]`
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('check')
    .description('check .gram files (directories: every .gram file under them) and report every error and warning')
    .argument('<files...>', '.gram files or directories, - for standard input, or builtin for the built-in specifications')
    .option('--strict', 'accept only standard gram (report nested values inside records)')
    .option('--json', 'print the diagnostics as JSON on standard output')
    .action(async (files: string[], options: { strict?: boolean; json?: boolean }) => {
      const { action } = await import('../actions/check.js');
      ctx.exit(await action(ctx, files, options));
    });
};
