/**
 * `gramkit schema`: the JSON Schemas of a specification file's tools.
 */
import { type Command, Option } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('schema')
    .description('print the JSON Schemas of the tools of a specification file (all tools as an object keyed by name, or one with --tool)')
    .argument(
      '<file>',
      'a .gram specification file (or .json in the JSON form); - for stdin; builtin for the built-in tools; an MCP server (mcp:<url>, mcp+stdio:<command>)',
    )
    .option('--tool <name>', 'only this tool')
    .addOption(
      new Option('--format <format>', 'the schema dialect')
        .choices(['jsonschema', 'openai', 'openai-strict', 'anthropic', 'gemini', 'mcp'])
        .default('jsonschema'),
    )
    .option('--output', 'the result (output) schemas instead of the argument schemas')
    .action(async (file: string, opts: { tool?: string; format?: string; output?: boolean }) => {
      const { action } = await import('../actions/schema.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
