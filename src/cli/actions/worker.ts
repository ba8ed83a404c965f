/**
 * `gramkit worker --queue redis://host:port [--root DIR] [--yes]`: makes the runs `gramkit ab
 * --queue` puts on the queue, any number of workers on any machines that can load the same files
 * (at the same paths), until SIGINT or SIGTERM.
 *
 * A job is data (ab-job.ts): the worker checks it against what it was allowed (files under its
 * `--root`, its own `--base-url`), builds the experiment as `gramkit ab` would from the same
 * arguments (once per set of files: kept, by their paths, sizes and modification times, for the
 * next runs of this experiment and of others on the same files, and built again when one changes;
 * its variants bound once), and makes the one run the job names,
 * with the worker's policies (`ALLOWED_TOOL_PERMS`) and approvals: nobody is there to ask, so a call
 * that needs approval is refused unless the worker was started with `--yes`, whatever the job says.
 * A refused job fails at once (not retried) with the reasons; `gramkit ab` reports it as a failed
 * run (`AGENT_EXECUTOR_FAILED`).
 *
 * A worker killed mid-run holds its jobs' locks until they expire (`--lock-duration`, default 30 s);
 * BullMQ's stalled-job check then puts them back on the queue for another worker. Model requests
 * keep the per-provider limits across every worker (worker-limits.ts).
 */
import { type ExperimentRun, type ExperimentRunKey, runExperiment } from '../../agent/experiment.js';
import type { Model } from '../../agent/model.js';
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { positiveIntegers } from './agent-setup.js';
import { type AbCommandOptions, type Plan, planExperiment, runOptionsOf } from './ab.js';
import { type AbJob, checkJob, QUEUE_NAME, type WorkerAllowance } from './ab-job.js';
import { redisConnections } from './ab-queue.js';
import { type AgentCatalog, openAgentCatalog } from './catalog-library.js';
import { resolveWorkspace } from './spec-source.js';
import { sharedLimits } from './worker-limits.js';
import { reportError, usageError } from '../report.js';
import { AgentCodes } from '../../agent/codes.js';
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';

export interface WorkerCommandOptions {
  readonly queue?: string;
  /** The only directory whose files a job may name (default: the current directory). */
  readonly root?: string;
  /** The directory built-in tools are confined to (default: the root). */
  readonly workspace?: string;
  readonly yes?: boolean;
  readonly concurrency?: string;
  /** How long a worker holds a job without renewing its lock before it counts as stalled (ms). */
  readonly lockDuration?: string;
  readonly baseUrl?: string;
  /** Most model requests per minute to each provider, across every worker. */
  readonly requestsPerMinute?: string;
}

/** An experiment built for a job (or why it cannot be), kept for the experiment's other runs. */
type Built = Result<{ readonly plan: Plan; readonly sources: ReadonlyArray<AgentCatalog> }, CodedError<typeof AgentCodes.EXECUTOR_FAILED>>;

/** The files a job's definition names (checked to be under the root), each as path, size, modification time and inode. */
const fileStamps = (d: AbJob['definition']): ReadonlyArray<string> => {
  const o = d.options;
  const files = [
    d.file,
    o.inputs,
    ...(o.library ?? []).filter((r) => r !== 'builtin' && !r.includes(':')),
    ...(o.spec ?? []),
    ...(o.scorer ?? []),
    ...(o.catalog ?? []),
    ...(o.model ?? []).flatMap((m) => (m.startsWith('replay:') ? [m.slice(7)] : [])),
  ];
  return files.map((f) => {
    try {
      const s = statSync(f);
      return `${s.size}:${s.mtimeMs}:${s.ino}`;
    } catch {
      return 'missing';
    }
  });
};

/** Experiments kept at once: an older one is built again if a job of it comes back. */
const KEPT_EXPERIMENTS = 8;

export const action = async (ctx: CommandContext, options: WorkerCommandOptions): Promise<number> => {
  const { io } = ctx;
  const usage = (text: string): number => {
    usageError(io, text);
    return EXIT_USAGE;
  };
  if (options.queue === undefined) return usage('give the queue: --queue redis://host:port');
  const limits = positiveIntegers({
    concurrency: ['--concurrency', options.concurrency],
    lockDuration: ['--lock-duration', options.lockDuration],
    perMinute: ['--requests-per-minute', options.requestsPerMinute],
  });
  if (!limits.ok) return usage(limits.error.message);
  const { concurrency, lockDuration, perMinute } = limits.value;
  const root = options.root === undefined ? io.cwd : isAbsolute(options.root) ? options.root : resolve(io.cwd, options.root);
  const rootOk = await resolveWorkspace(io, root);
  if (!rootOk.ok) return usage(`--root: ${rootOk.error.message}`);
  const workspace = await resolveWorkspace(io, options.workspace ?? root);
  if (!workspace.ok) return usage(workspace.error.message);
  const allowance: WorkerAllowance = { root, ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}) };

  const connections = await redisConnections(options.queue);
  if (!connections.ok) {
    reportError(io, { ...connections.error, message: `--queue ${options.queue}: ${connections.error.message}` });
    return EXIT_FAILURE;
  }
  const limitStore = connections.value.client();
  await limitStore.connect();
  const limited = sharedLimits(limitStore, perMinute !== undefined ? { requestsPerMinute: perMinute } : {});

  // each experiment is built once (its libraries loaded, its variants bound), as ab builds it
  const cleanups: Array<() => unknown> = [];
  const built = new Map<string, Promise<Built>>();
  const build = async (job: AbJob): Promise<Built> => {
    const messages: string[] = [];
    const jobCtx: CommandContext = {
      ...ctx,
      io: { ...io, cwd: root, stderr: (t) => void messages.push(t) },
      exit: () => undefined,
      defer: (c) => void cleanups.push(c),
    };
    const { file, options: o } = job.definition;
    const sources: AgentCatalog[] = [];
    for (const location of o.catalog ?? []) {
      const opened = await openAgentCatalog(jobCtx.io, location, workspace.value);
      if (!opened.ok) return failWith(AgentCodes.EXECUTOR_FAILED, `--catalog ${location}: ${opened.error.reason}: ${opened.error.message}`);
      sources.push(opened.value);
    }
    const abOptions: AbCommandOptions = { ...o, ...(o.model !== undefined ? { model: o.model } : {}) };
    const plan = await planExperiment(jobCtx, file, abOptions, { workspacePath: workspace.value, refs: o.library ?? [], catalogs: o.catalog ?? [], sources });
    if (typeof plan === 'number') {
      for (const s of sources) await s.close();
      return failWith(AgentCodes.EXECUTOR_FAILED, messages.join('').trim() || `the experiment does not load (exit ${plan})`);
    }
    io.stdout(`gramkit worker: loaded ${file} (${plan.variants.length} variants, ${plan.inputs.length} inputs)\n`);
    return ok({ plan, sources });
  };
  const experimentOf = (job: AbJob): Promise<Built> => {
    // by the job's files as they are now: another experiment on the same files reuses what is
    // built (variants bound once), and a file changed since is loaded again
    const key = JSON.stringify([job.definition, fileStamps(job.definition)]);
    let b = built.get(key);
    if (b === undefined) {
      b = build(job);
      built.set(key, b);
      if (built.size > KEPT_EXPERIMENTS) {
        const [oldest, gone] = built.entries().next().value as [string, Promise<Built>];
        built.delete(oldest);
        void gone.then(async (x) => (x.ok ? Promise.all(x.value.sources.map((s) => s.close())) : undefined));
      }
    }
    return b;
  };

  const { Worker, UnrecoverableError } = await import('bullmq');
  const refuse = (text: string): never => {
    io.stderr(`gramkit worker: refused a job: ${text}\n`);
    throw new UnrecoverableError(text);
  };
  const makeRun = async (data: unknown): Promise<ExperimentRun> => {
    const checked = checkJob(data, allowance);
    if (!checked.ok) return refuse(checked.error.message);
    const job = checked.value;
    const b = await experimentOf(job);
    if (!b.ok) return refuse(b.error.message);
    const { plan } = b.value;
    const o = job.definition.options;
    const numbers = positiveIntegers({ runs: ['--runs', o.runs], maxSteps: ['--max-steps', o.maxSteps], timeout: ['--timeout', o.timeout] });
    if (!numbers.ok) return refuse(numbers.error.message);
    // each variant's model, its requests under the limits every worker shares
    const variants = plan.variants.map((v) => {
      const m = v.model;
      return m === undefined ? v : { ...v, model: typeof m === 'function' ? (k: ExperimentRunKey): Model => limited(m(k)) : limited(m) };
    });
    let made: ExperimentRun | undefined;
    const result = await runExperiment({
      agent: plan.agent,
      variants,
      inputs: plan.inputs,
      scorers: plan.scorers,
      // the worker's approvals and policies, never the job's
      ...runOptionsOf({ ...ctx, io: { ...io, cwd: root } }, { yes: options.yes === true }, numbers.value),
      only: [job.key],
      keepRuns: false,
      onRun: (run) => {
        made = run;
      },
    });
    if (!result.ok) return refuse(result.error.message);
    if (made === undefined) return refuse(`the experiment has no run ${JSON.stringify(job.key)}`);
    return made;
  };

  const worker = new Worker(QUEUE_NAME, async (job) => makeRun(job.data), {
    connection: connections.value.client() as never,
    concurrency: concurrency ?? 4,
    lockDuration: lockDuration ?? 30_000,
    // a stalled job (its worker died) is seen within one lock duration, and put back up to 5 times
    stalledInterval: lockDuration ?? 30_000,
    maxStalledCount: 5,
  });
  worker.on('error', (e) => io.stderr(`gramkit worker: ${e instanceof Error ? e.message : String(e)}\n`));
  await worker.waitUntilReady();
  io.stdout(`gramkit worker listening on ${options.queue} (queue ${QUEUE_NAME}, concurrency ${concurrency ?? 4}, root ${root})\n`);
  const signal = await (io.untilStopped?.() ?? new Promise<string>(() => undefined));
  io.stderr(`gramkit worker: ${signal}: finishing the runs in progress\n`);
  await worker.close();
  for (const b of built.values()) {
    const x = await b;
    if (x.ok) for (const s of x.value.sources) await s.close();
  }
  for (const c of cleanups.reverse()) await c();
  await connections.value.close();
  return EXIT_OK;
};
