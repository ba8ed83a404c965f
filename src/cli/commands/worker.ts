/**
 * `gramkit worker --queue redis://host:port`: makes the runs of `gramkit ab --queue`.
 */
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';

export const register = (program: Command, ctx: CommandContext): void => {
  program
    .command('worker')
    .description('make the runs `gramkit ab --queue` puts on a Redis queue (any number of workers, on any machines that can load the same files)')
    .requiredOption('--queue <redis://host:port>', 'the Redis whose queue the runs are on')
    .option('--root <dir>', 'the only directory whose files a job may name: agent, libraries, inputs, scorers, recordings (default: the current directory)')
    .option('-w, --workspace <dir>', 'the directory built-in tools are confined to (default: the root)')
    .option('-y, --yes', 'approve every call that needs approval (default: refuse them, as gramkit ab does: nobody is asked)')
    .option('-c, --concurrency <n>', 'runs at the same time (default 4)')
    .option('--lock-duration <ms>', 'how long a run may go without its worker renewing its lock before another worker takes it over (default 30000)')
    .option('--base-url <url>', 'the API root a job may send model requests to (a job naming another is refused)')
    .option('--requests-per-minute <n>', 'most model requests to each provider in any minute, all workers of the queue together')
    .addHelpText(
      'after',
      `
A job names files by absolute path: run workers where the experiment's files are at the same paths.
The worker runs until SIGINT or SIGTERM, then finishes the runs in progress.

Example:
  gramkit worker --queue redis://127.0.0.1:6379 --root .`,
    )
    .action(async (opts: Record<string, unknown>) => {
      const { action } = await import('../actions/worker.js');
      ctx.exit(await action(ctx, opts));
    });
};
