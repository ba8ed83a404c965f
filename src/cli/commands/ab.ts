/**
 * `gramkit ab <agent.gram> --library a.ts --library b.ts --inputs inputs.jsonl`: an A/B experiment.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('ab')
    .description('run the same agent on the same inputs against several tool libraries and compare them (success, tool errors, latency, answers)')
    .argument('<agent>', 'a .gram (or .json) file with the agent')
    .option(
      '-l, --library <module>',
      'a library to compare: a .ts or .js module, builtin, or an MCP server (mcp:<url>, mcp+stdio:<command>) (repeat for each variant)',
      collect,
    )
    .option(
      '--spec <file.gram>',
      "an alternate specification of the agent's tools (other descriptions, parameters, types): a variant with each library and model after the agent file's own, bound where the library accepts every argument it allows (repeatable)",
      collect,
    )
    .option('--catalog <dir|redis://…>', 'a tool catalog to compare, its tools bound at run time (repeatable; each is a variant after the libraries)', collect)
    .requiredOption(
      '-i, --inputs <file>',
      'JSON lines: a message per line, as "text" or {"message": "...", "id": "...", "expected": "...", "equals": "...", "pattern": "regex", "schema": {...}, "expectedToolCalls": [{"tool": {"param": [values…]}}], "toolCalls": [{"name": "...", "arguments": {...}}]}; or a BFCL test file (its possible_answer/ beside it)',
    )
    .option('-n, --runs <n>', 'runs of each input on each library (default 1)')
    .option(
      '-o, --out <file>',
      'write the whole report as JSON to this file; a .jsonl file instead gets each run as it finishes (continue a stopped experiment with --resume)',
    )
    .option(
      '--report <file.html>',
      'write the report as one self-contained HTML page: success and score per variant with their intervals, latency, tool errors by code, and the runs where variants disagree side by side',
    )
    .option(
      '--cache <dir>',
      'keep each model answer in this directory under a hash of the whole request: a request made before is answered from it, not sent again',
    )
    .option('--resume', 'continue the experiment whose runs the --out .jsonl file holds: only the runs it lacks are made')
    .option('--scorer <module>', 'a module whose default export scores a run: (run) => {score, reason}, a score from 0 to 1 (repeatable)', collect)
    .option('--json', 'print the JSON report instead of the table')
    .option('--agent <name>', 'the agent to run, when the file defines several')
    .option(
      '-m, --model <id>',
      "openai/<model>, openai-responses/<model>, anthropic/<model>, gemini/<model>, offline or replay:<file> (default: the agent's model, else offline); repeat it to compare models: each library with each model is a variant",
      collect,
    )
    .option(
      '--replay-match <how>',
      'with a replay:<file> model: exact (default: each request must match a recorded one) or sequence (each run replays the recording from its start)',
    )
    .option('--base-url <url>', 'the API root of an OpenAI-, Anthropic- or Gemini-compatible server')
    .option('-c, --concurrency <n>', 'runs at the same time (default 4)')
    .option('-y, --yes', 'approve every call that needs approval')
    .option('--deny', 'refuse every call that needs approval (the default: nobody is asked during an experiment)')
    .option('-w, --workspace <dir>', 'the directory built-in tools are confined to (default: the current directory)')
    .option('--max-steps <n>', 'most model calls in one run (default 10)')
    .option('--timeout <ms>', 'longest run, in milliseconds')
    .option(
      '--queue <redis://host:port>',
      'put every run on a BullMQ queue in this Redis and collect the results: `gramkit worker --queue …` processes make them',
    )
    .addHelpText(
      'after',
      `
The table is followed by a legend of its columns; the JSON report (--json, --out) describes them
in "columns". An input's "toolCalls" are made before the model answers, on every library alike:
with the offline model, an A/B of libraries needs no key.

Example:
  gramkit ab examples/capitalsAgent.gram --library examples/ab/fast-library.ts \\
    --library examples/ab/slow-library.ts --inputs examples/capitals-inputs.jsonl --runs 3`,
    )
    .action(async (file: string, opts: Record<string, unknown>) => {
      const { action } = await import('../actions/ab.js');
      ctx.exit(await action(ctx, file, opts));
    });
};
