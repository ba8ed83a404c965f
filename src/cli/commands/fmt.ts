/**
 * `gramkit fmt <files...> [--write | --check] [--width <n>]`
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('fmt')
    .description('format .gram files: print them, rewrite them (--write) or list the unformatted ones (--check)')
    .argument('<files...>', '.gram files or directories, or - for standard input')
    .option('--write', 'rewrite the files in place')
    .option('--check', 'exit 1 if any file is not formatted, listing them')
    .option('--width <n>', 'line width (default 80)')
    .action(async (files: string[], options: { write?: boolean; check?: boolean; width?: string }) => {
      const { action } = await import('../actions/fmt.js');
      ctx.exit(await action(ctx, files, options));
    });
};
