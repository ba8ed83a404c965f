/**
 * `gramkit parse <file|-> [--strict] [--format json|gram] [--pretty]`
 */
import { type Command, Option } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('parse')
    .description('parse a .gram file and print its patterns as canonical JSON, or as formatted gram')
    .argument('<file>', 'a .gram file, or - for standard input')
    .option('--strict', 'accept only standard gram (report nested values inside records)')
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'gram']).default('json'))
    .option('--pretty', 'indent the JSON output')
    .action(async (file: string, options: { strict?: boolean; format?: 'json' | 'gram'; pretty?: boolean }) => {
      const { action } = await import('../actions/parse.js');
      ctx.exit(await action(ctx, file, options));
    });
};
