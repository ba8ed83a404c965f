/**
 * `gramkit run <agent.gram> [message]`: run an agent on a message, or chat with it.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('run')
    .description('run an agent of a .gram file on a message and print its answer (no message: chat on a terminal, or read it from stdin)')
    .argument('<agent>', 'a .gram (or .json) file with the agent, or - for stdin')
    .argument('[message]', "the user's message")
    .option(
      '-l, --library <module>',
      'a .ts or .js module implementing the tools, builtin, or an MCP server (mcp:<url>, mcp+stdio:<command>) (repeatable; default: the file header\'s {library: "..."})',
      collect,
    )
    .option('--agent <name>', 'the agent to run, when the file defines several')
    .option(
      '-m, --model <id>',
      "openai/<model>, openai-responses/<model>, anthropic/<model>, gemini/<model>, offline or replay:<file> (default: the agent's model, else offline)",
    )
    .option('--base-url <url>', 'the API root of an OpenAI-, Anthropic- or Gemini-compatible server (Ollama: http://localhost:11434/v1)')
    .option('--json', 'print the whole result as JSON (answer, tool calls, messages, usage, trace)')
    .option('--debug', 'print each step as it happens and the trace on stderr')
    .option('--record <file>', 'record the model exchanges to a file (replay them with --model replay:<file>)')
    .option('-y, --yes', 'approve every call that needs approval')
    .option('--deny', 'refuse every call that needs approval')
    .option('-w, --workspace <dir>', 'the directory built-in tools are confined to (default: the current directory)')
    .option('--max-steps <n>', 'most model calls in one run (default 10)')
    .option('--timeout <ms>', 'longest run, in milliseconds')
    .option(
      '--catalog <dir|redis://…>',
      "bind the agent's tools from a tool catalog (a directory or a Redis URL); the agent may name its tools without defining them",
    )
    .addHelpText(
      'after',
      `
Keys come from OPENAI_API_KEY (openai/, openai-responses/), ANTHROPIC_API_KEY and GEMINI_API_KEY.
Without --model and without a model in the agent, the offline demo model runs (no key, no network).

Examples:
  gramkit run examples/helloAgent.gram "Hello, I'm Alice"
  gramkit run examples/helloAgent.gram "Hello, I'm Alice" --model openai/gpt-4o-mini
  gramkit run examples/helloAgent.gram --json "Hi, I'm Bob"`,
    )
    .action(async (file: string, message: string | undefined, opts: Record<string, unknown>) => {
      const { action } = await import('../actions/run.js');
      ctx.exit(await action(ctx, file, message, opts));
    });
};
