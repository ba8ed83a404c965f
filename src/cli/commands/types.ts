/**
 * `gramkit types`: TypeScript declarations for the tools of a specification file.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('types')
    .description('write TypeScript declarations (.d.ts) of the arguments and results of the tools of a specification file')
    .argument(
      '<file>',
      'a .gram specification file (or .json in the JSON form); - for stdin; builtin for the built-in tools; an MCP server (mcp:<url>, mcp+stdio:<command>)',
    )
    .option('--tool <name>', 'only this tool')
    .option('-o, --out <file>', 'write to this file instead of stdout')
    .action(async (file: string, opts: { tool?: string; out?: string }) => {
      const { action } = await import('../actions/types.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
