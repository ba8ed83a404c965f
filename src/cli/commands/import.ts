/**
 * `gramkit import`: tool definitions from other formats to one `.gram` document.
 */
import { type Command, Option } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('import')
    .description(
      "convert tool definitions (JSON Schema, OpenAI, MCP, Anthropic, BFCL, the catalog's tool.json, the registry's Tool JSON) to one .gram document on stdout; what cannot be imported is reported per tool",
    )
    .argument('<file>', 'a JSON file: one definition, an array, {tools: [...]}, or JSON lines; - for stdin; or an MCP server (mcp:<url>, mcp+stdio:<command>)')
    .addOption(
      new Option('--from <format>', 'the input format (detected per definition when absent)').choices([
        'jsonschema',
        'openai',
        'mcp',
        'bfcl',
        'anthropic',
        'tool-json',
        'registry',
      ]),
    )
    .option('--name <name>', 'the tool name of a bare JSON Schema without title (default: the file name)')
    .option('--verbose', 'also print the notes (lossless rewrites)')
    .option(
      '--repair',
      'repair schemas whose intent is clear but which accept nothing (an enum of strings on an array, an integer or a boolean); each repair is a warning',
    )
    .action(async (file: string, opts: { from?: string; name?: string; verbose?: boolean; repair?: boolean }) => {
      const { action } = await import('../actions/import.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
