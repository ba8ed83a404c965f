/**
 * `gramkit init [dir]`: a working project to start from.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('init')
    .description(
      'write a working project: a .gram file with a tool and an agent, its typed library (implement), a test, and the commands to try them; never overwrites a file',
    )
    .argument('[dir]', 'the folder to write into (created if missing)', '.')
    .action(async (dir: string) => {
      const { action } = await import('../actions/init.js');
      ctx.exit(await action(ctx, dir));
    });
};
