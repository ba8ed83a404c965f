/**
 * A run of `gramkit ab --queue` as a BullMQ job: what a worker needs to make the run the way `ab`
 * would make it, as data (no closure crosses the queue): the agent file, the library modules,
 * catalogs, inputs, scorers and cache as absolute paths, the model arguments, the limits; and the
 * run's key (variant, input, repetition).
 *
 * A job comes from the queue, and anyone who can write to the Redis can put one there: a worker
 * checks it (`checkJob`) before loading anything. Every file it names must be under the worker's
 * root (symbolic links resolved), MCP servers and Redis catalogs are refused (a job would make the
 * worker start a command or connect anywhere), and a `--base-url` must be the worker's own (a job
 * cannot send the worker's API keys elsewhere). Approvals and policies are the worker's, never the
 * job's.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ExperimentRunKey } from '../../agent/experiment.js';
import { isRecord } from '../../core/json.js';
import { AgentCodes } from '../../agent/codes.js';
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The queue `gramkit ab --queue` puts runs on and `gramkit worker` takes them from. */
export const QUEUE_NAME = 'gramkit-ab';

const KIND = 'gramkit-ab-run';

/** What of `ab`'s arguments a worker needs to make the experiment's runs (paths absolute). */
export interface JobOptions {
  readonly library?: ReadonlyArray<string>;
  readonly catalog?: ReadonlyArray<string>;
  /** Alternate specifications of the agent's tools (`--spec`). */
  readonly spec?: ReadonlyArray<string>;
  readonly inputs: string;
  readonly runs?: string;
  readonly agent?: string;
  readonly model?: ReadonlyArray<string>;
  readonly baseUrl?: string;
  readonly replayMatch?: string;
  readonly scorer?: ReadonlyArray<string>;
  readonly cache?: string;
  readonly maxSteps?: string;
  readonly timeout?: string;
}

/** What of `gramkit ab`'s options (`AbCommandOptions`) a job is made from. */
export interface AbArguments extends Omit<JobOptions, 'inputs' | 'model'> {
  readonly inputs?: string;
  readonly model?: string | ReadonlyArray<string>;
}

/** The experiment a job belongs to: the same for every run of one `gramkit ab`. */
export interface JobDefinition {
  readonly file: string;
  readonly options: JobOptions;
}

export interface AbJob {
  readonly kind: typeof KIND;
  /** The id of the `gramkit ab` that put the job on the queue. */
  readonly experiment: string;
  readonly definition: JobDefinition;
  readonly key: ExperimentRunKey;
}

/** What a worker may load: files under `root`, and `baseUrl` (its own `--base-url`) as a model's API root. */
export interface WorkerAllowance {
  readonly root: string;
  readonly baseUrl?: string;
}

// -------------------------------------------------------------------------------------------------
// making a job
// -------------------------------------------------------------------------------------------------

const isNamed = (ref: string): boolean => ref === 'builtin' || ref.startsWith('mcp:') || ref.startsWith('mcp+stdio:');
const isUrl = (ref: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(ref);
const listOf = (v: string | ReadonlyArray<string> | undefined): ReadonlyArray<string> | undefined =>
  v === undefined ? undefined : typeof v === 'string' ? [v] : v;

/** `ab`'s arguments as a job's definition: every file path absolute (from `cwd`). */
export const jobDefinition = (file: string, options: AbArguments, cwd: string): JobDefinition => {
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p));
  const models = listOf(options.model)?.map((m) => (m.startsWith('replay:') ? `replay:${abs(m.slice(7))}` : m));
  const o: Record<string, unknown> = {
    library: options.library?.map((r) => (isNamed(r) ? r : abs(r))),
    catalog: options.catalog?.map((c) => (isUrl(c) ? c : abs(c))),
    spec: options.spec?.map(abs),
    inputs: abs(options.inputs ?? ''),
    runs: options.runs,
    agent: options.agent,
    model: models,
    baseUrl: options.baseUrl,
    replayMatch: options.replayMatch,
    scorer: options.scorer?.map(abs),
    cache: options.cache === undefined ? undefined : abs(options.cache),
    maxSteps: options.maxSteps,
    timeout: options.timeout,
  };
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return { file: abs(file), options: o as unknown as JobOptions };
};

export const makeJob = (experiment: string, definition: JobDefinition, key: ExperimentRunKey): AbJob => ({ kind: KIND, experiment, definition, key });

// -------------------------------------------------------------------------------------------------
// checking a job from the queue
// -------------------------------------------------------------------------------------------------

const strings = (v: unknown): v is ReadonlyArray<string> => Array.isArray(v) && v.every((x) => typeof x === 'string');
const wholeAtLeast0 = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The real path of `path` when it exists under the real `root`, else why not. */
const underRoot = (root: string, path: string, what: string): string | undefined => {
  if (!isAbsolute(path)) return `${what} ${JSON.stringify(path)} is not an absolute path`;
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return `${what} ${path} does not exist on this worker`;
  }
  const rel = relative(root, real);
  if (rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))) return undefined;
  return `${what} ${path} is outside the worker's root ${root}: a worker loads only files under its --root`;
};

/**
 * The job, when it is one this worker may run; else every reason it may not, joined by `; ` (for the
 * job's failure, the run's `AGENT_EXECUTOR_FAILED`, and the worker's log; `details.problems` lists
 * them). Nothing is loaded: only paths are resolved.
 */
export const checkJob = (data: unknown, allowance: WorkerAllowance): Result<AbJob, CodedError<typeof AgentCodes.EXECUTOR_FAILED>> => {
  const problems: string[] = [];
  const no = (...ps: ReadonlyArray<string>) => failWith(AgentCodes.EXECUTOR_FAILED, ps.join('; '), { details: { problems: ps } });
  if (!isRecord(data) || data['kind'] !== KIND) return no(`not a gramkit ab run (kind ${JSON.stringify(isRecord(data) ? data['kind'] : undefined)})`);
  const { experiment, definition, key } = data;
  if (typeof experiment !== 'string' || experiment === '') problems.push('no experiment id');
  if (!isRecord(key) || typeof key['variant'] !== 'string' || !wholeAtLeast0(key['input']) || !wholeAtLeast0(key['repetition']))
    problems.push('the key must be {variant, input, repetition}');
  if (!isRecord(definition) || typeof definition['file'] !== 'string' || !isRecord(definition['options'])) return no('the definition must be {file, options}');
  let root: string;
  try {
    root = realpathSync(allowance.root);
  } catch {
    return no(`the worker's root ${allowance.root} does not exist`);
  }
  const o = definition['options'];
  const file = (p: unknown, what: string): void => {
    if (typeof p !== 'string') problems.push(`${what} must be a path`);
    else {
      const bad = underRoot(root, p, what);
      if (bad !== undefined) problems.push(bad);
    }
  };
  const list = (v: unknown, what: string, each: (x: string) => void): void => {
    if (v === undefined) return;
    if (!strings(v)) problems.push(`${what} must be a list of strings`);
    else v.forEach(each);
  };
  file(definition['file'], 'the agent file');
  file(o['inputs'], 'the inputs');
  list(o['library'], 'library', (r) => {
    if (r === 'builtin') return;
    if (r.startsWith('mcp:') || r.startsWith('mcp+stdio:')) problems.push(`library ${r}: a worker does not start or connect to MCP servers named by a job`);
    else file(r, 'the library');
  });
  list(o['catalog'], 'catalog', (c) =>
    isUrl(c) ? problems.push(`catalog ${c}: a worker opens only catalog directories under its root`) : file(c, 'the catalog'),
  );
  list(o['scorer'], 'scorer', (s) => file(s, 'the scorer'));
  list(o['spec'], 'spec', (s) => file(s, 'the specification'));
  list(o['model'], 'model', (m) => (m.startsWith('replay:') ? file(m.slice(7), 'the recording') : undefined));
  if (o['cache'] !== undefined) {
    if (typeof o['cache'] !== 'string' || !isAbsolute(o['cache'])) problems.push('the cache must be an absolute path');
    else if (relative(root, resolve(o['cache'])).startsWith('..')) problems.push(`the cache ${o['cache']} is outside the worker's root ${root}`);
  }
  if (o['baseUrl'] !== undefined && o['baseUrl'] !== allowance.baseUrl)
    problems.push(`the base URL ${String(o['baseUrl'])} is not this worker's (give the worker --base-url ${String(o['baseUrl'])} to allow it)`);
  for (const k of ['runs', 'agent', 'replayMatch', 'maxSteps', 'timeout'] as const)
    if (o[k] !== undefined && typeof o[k] !== 'string') problems.push(`${k} must be a string`);
  return problems.length > 0 ? no(...problems) : ok(data as unknown as AbJob);
};
