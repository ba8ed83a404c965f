/**
 * `gramkit mcp <spec.gram | builtin> [--library M] [--workspace DIR]`: serve the bound tools of a
 * specification file to an MCP client over stdio.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('mcp')
    .description('serve the tools of a specification file to an MCP client (Claude Desktop, an IDE, an agent framework) over stdio')
    .argument('<file>', 'a .gram (or .json) specification file, builtin for the built-in tools, or an MCP server to re-serve (mcp:<url>, mcp+stdio:<command>)')
    .option(
      '-l, --library <module>',
      'a .ts or .js module implementing the tools, builtin, or an MCP server (repeatable; default: the file header\'s {library: "..."})',
      collect,
    )
    .option('-w, --workspace <dir>', 'the directory built-in and command tools are confined to (default: the current directory)')
    .option('-y, --yes', 'approve every call that needs approval (by default such calls are refused, saying why)')
    .option('--timeout <ms>', "longest call, in milliseconds (default: each tool's own limit)")
    .option('--no-watch', 'do not reload the file when it changes (by default clients are told the new tool list)')
    .addHelpText(
      'after',
      `
The server speaks MCP on stdin and stdout (nothing else is written there). Calls go through the
policies of gramkit run: the safety rules, the permissions of ALLOWED_TOOL_PERMS (e.g.
fs:read,net:read) and approvals. Failures, denials and invalid arguments are results with
isError: true and a message a model can act on.

Examples:
  gramkit mcp builtin --workspace ./sandbox
  gramkit mcp examples/ab/capitals.gram --library examples/ab/fast-library.ts
  claude mcp add gramkit -- npx gramkit mcp builtin`,
    )
    .action(async (file: string, opts: Record<string, unknown>) => {
      const { action } = await import('../actions/mcp.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
