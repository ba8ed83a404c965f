/**
 * `gramkit validate`: check tool-call arguments against a specification file.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('validate')
    .description('check the arguments of a tool call (--tool and --args) or of a log of calls (--calls, JSON lines) against a specification file')
    .argument(
      '<file>',
      'a .gram specification file (or .json in the JSON form); builtin for the built-in tools; an MCP server (mcp:<url>, mcp+stdio:<command>)',
    )
    .option('--tool <name>', 'the tool called (with --calls: for lines that name none)')
    .option('--args <json>', 'the arguments as JSON (- for stdin)')
    .option('--calls <file>', 'JSON lines of calls {"tool": .., "args": ..}; prints one JSON result per line')
    .option('--json', 'with --args: print the result as JSON (with the defaults filled in when valid)')
    .action(async (file: string, opts: { tool?: string; args?: string; calls?: string; json?: boolean }) => {
      const { action } = await import('../actions/validate.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
