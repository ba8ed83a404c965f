/**
 * `gramkit invoke`: call one tool of a specification file through a library module.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('invoke')
    .description('bind one tool of a specification file to its implementation in a library module, call it, and print the result as JSON')
    .argument('<file>', 'a .gram (or .json) specification file, builtin for the built-in tools, or an MCP server (mcp:<url>, mcp+stdio:<command>)')
    .option('-t, --tool <name>', 'the tool to call (may be left out when the file defines one tool)')
    .option('-l, --library <module>', 'a .ts or .js module exporting a ToolLibrary or tools, builtin, or an MCP server (mcp:<url>, mcp+stdio:<command>)')
    .option('-a, --args <json>', 'the arguments, as a JSON object ("-" reads them from stdin)', '{}')
    .option('--timeout <ms>', 'give up after this many milliseconds (the result is then a TIMEOUT error)')
    .option('-w, --workspace <dir>', 'with the builtin library: the directory its tools are confined to (default: the current directory)')
    .option('-y, --yes', 'approve the call if it needs approval (on a terminal you are asked)')
    .option('--deny', 'refuse the call if it needs approval')
    .addHelpText(
      'after',
      `
The result goes to stdout as JSON: {"ok": true, "value": ...} (exit 0) or
{"ok": false, "error": {"code", "message", "retryable"}} (exit 1). Problems before the call
(specification errors, a library that does not load, a tool that does not match its
specification) go to stderr (exit 1).

The library is --library, else the file header's {library: "..."}, else the implementation the
file declares for the tool. The call goes through the policies of gramkit run: the safety rules,
the permissions of ALLOWED_TOOL_PERMS (e.g. ALLOWED_TOOL_PERMS=fs:read), and approval for the
calls that need it (asked on a terminal; --yes or --deny otherwise, else refused as DENIED).

Example:
  gramkit invoke examples/ab/capitals.gram --tool capital_of \\
    --library examples/ab/fast-library.ts --args '{"country": "France"}'`,
    )
    .action(
      async (file: string, opts: { tool?: string; library?: string; args?: string; timeout?: string; workspace?: string; yes?: boolean; deny?: boolean }) => {
        const { action } = await import('../actions/invoke.js');
        ctx.exit(await action(ctx, file, opts));
      },
    );
};
