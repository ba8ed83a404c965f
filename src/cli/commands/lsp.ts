/**
 * `gramkit lsp`: the language server for .gram files, over stdio.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('lsp')
    .description('run the language server for .gram files over stdio (diagnostics, hover, completion, definition, symbols, formatting, rename)')
    .option('--stdio', 'talk over standard input and output (the default, accepted for editors that pass it)')
    .action(async () => {
      const { action } = await import('../actions/lsp.js');
      ctx.exit(await action(ctx));
    });
};
