/**
 * `gramkit ab --queue redis://host:port`: the experiment's executor puts each run on a BullMQ queue
 * (ab-job.ts says what a job carries) and resolves with the run a `gramkit worker` made of it.
 *
 * - A run is made once per key: its job id is the experiment's id and the run's key, so a job put
 *   twice is one job; its result is taken once, and a result that is not the run of its key is
 *   refused.
 * - A worker killed mid-run loses nothing: its lock expires, BullMQ's stalled-job check puts the
 *   job back, and another worker makes the run.
 * - A job that fails (a worker refused it, or it failed every attempt) is a failed run in the
 *   report (`AGENT_EXECUTOR_FAILED`, with the worker's reason), not a lost one.
 *
 * BullMQ is loaded only here and in the worker: `gramkit ab` without `--queue` never loads it. It
 * talks to Redis through the node-redis client the catalog store already uses.
 */
import { type CodedError, codedError, failWith, ok, type Result } from '../../core/result.js';
import { type CliCode, CliCodes } from '../codes.js';
import { createHash, randomUUID } from 'node:crypto';
import { AgentCodes } from '../../agent/codes.js';
import type { ExperimentExecutor, ExperimentRun, ExperimentRunKey } from '../../agent/experiment.js';
import { isRecord } from '../../core/json.js';
import { type AbArguments, jobDefinition, makeJob, QUEUE_NAME } from './ab-job.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface QueueExecutor {
  readonly executor: ExperimentExecutor;
  /** The queue's connections closed (the jobs stay on it until they expire). */
  readonly close: () => Promise<void>;
}

/** A queue's connections, or why they cannot be opened (`CLI_USAGE`: not a Redis URL; `CLI_QUEUE_UNAVAILABLE`: Redis does not answer). */
export type Opened<T> = Result<T, CodedError<CliCode>>;

/** How long finished jobs stay on the queue (seconds): long enough for a collector that was away. */
const KEEP_COMPLETED_S = 3600;
const KEEP_FAILED_S = 24 * 3600;

// -------------------------------------------------------------------------------------------------
// connections
// -------------------------------------------------------------------------------------------------

/** A Redis URL, or why it is not one. */
export const checkRedisUrl = (url: string): string | undefined => {
  try {
    const u = new URL(url);
    return u.protocol === 'redis:' || u.protocol === 'rediss:' ? undefined : `not a Redis URL (redis://host:port): ${url}`;
  } catch {
    return `not a Redis URL (redis://host:port): ${url}`;
  }
};

/** What of a node-redis client is used here and by the worker's limits (BullMQ takes it whole). */
export interface RedisClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
  destroy(): void;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

/** Connections to one Redis, each closed by `close` (BullMQ duplicates them as it needs). */
export const redisConnections = async (url: string): Promise<Opened<{ readonly client: () => RedisClient; readonly close: () => Promise<void> }>> => {
  const bad = checkRedisUrl(url);
  if (bad !== undefined) return failWith(CliCodes.USAGE, bad);
  const { createClient } = await import('@redis/client');
  const made: RedisClient[] = [];
  const client = (): RedisClient => {
    const c = createClient({ url, socket: { connectTimeout: 5000 } });
    // the queue reports what it cannot do; a connection's own errors are not the experiment's
    c.on('error', () => undefined);
    const link = c as unknown as RedisClient;
    made.push(link);
    return link;
  };
  // a Redis that does not answer is a reason, at once, not a wait for ever
  const probe = createClient({ url, socket: { connectTimeout: 5000, reconnectStrategy: false } });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    await probe.ping();
    await probe.quit();
  } catch (e) {
    probe.destroy();
    return failWith(CliCodes.QUEUE_UNAVAILABLE, `Redis does not answer at ${url} (${e instanceof Error ? e.message : String(e)})`, { retryable: true });
  }
  const close = async (): Promise<void> => {
    for (const c of made) if (c.isOpen) await c.quit().catch(() => c.destroy());
  };
  return ok({ client, close });
};

// -------------------------------------------------------------------------------------------------
// the executor
// -------------------------------------------------------------------------------------------------

/** The job id of a run: the experiment and the run's key (BullMQ ids may not hold `:`). */
export const jobId = (experiment: string, key: ExperimentRunKey): string =>
  `${experiment}-${createHash('sha256')
    .update(JSON.stringify([key.variant, key.input, key.repetition]))
    .digest('hex')
    .slice(0, 24)}`;

const sameKey = (run: unknown, key: ExperimentRunKey): run is ExperimentRun =>
  isRecord(run) &&
  run['variant'] === key.variant &&
  run['input'] === key.input &&
  run['repetition'] === key.repetition &&
  typeof run['completed'] === 'boolean';

/** A run no worker could make, as a failed run of the report. */
const failedRun = (key: ExperimentRunKey, inputId: string, message: string): ExperimentRun => ({
  ...key,
  inputId,
  completed: false,
  success: false,
  scores: {},
  score: 0,
  askedToolCalls: [],
  error: codedError(AgentCodes.EXECUTOR_FAILED, message),
  toolCalls: [],
  steps: 0,
  durationMs: 0,
  inputTokens: 0,
  outputTokens: 0,
});

/**
 * An executor that puts each run on the queue at `url` and waits for a worker's result. `inputIds`
 * names the inputs (for a failed run). An error: why the queue cannot be used.
 */
export const queueExecutor = async (
  url: string,
  ab: { readonly file: string; readonly options: AbArguments; readonly cwd: string },
  inputIds: ReadonlyArray<string>,
): Promise<Opened<QueueExecutor>> => {
  const connections = await redisConnections(url);
  if (!connections.ok) return connections;
  const { Queue, QueueEvents } = await import('bullmq');
  const queue = new Queue(QUEUE_NAME, { connection: connections.value.client() as never });
  const events = new QueueEvents(QUEUE_NAME, { connection: connections.value.client() as never });
  await events.waitUntilReady();
  // every run waiting for its worker listens on the queue and its events: as many as runs
  queue.setMaxListeners(0);
  events.setMaxListeners(0);
  const experiment = randomUUID();
  const definition = jobDefinition(ab.file, ab.options, ab.cwd);
  const executor: ExperimentExecutor = async (key) => {
    const id = jobId(experiment, key);
    const inputId = inputIds[key.input] ?? String(key.input + 1);
    try {
      const job = await queue.add('run', makeJob(experiment, definition, key), {
        jobId: id,
        attempts: 1,
        removeOnComplete: { age: KEEP_COMPLETED_S },
        removeOnFail: { age: KEEP_FAILED_S },
      });
      const run: unknown = await job.waitUntilFinished(events);
      return sameKey(run, key) ? run : failedRun(key, inputId, 'the worker answered with another run than the one asked');
    } catch (e) {
      return failedRun(key, inputId, `no worker could make the run: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  const close = async (): Promise<void> => {
    await events.close().catch(() => undefined);
    await queue.close().catch(() => undefined);
    await connections.value.close();
  };
  return ok({ executor, close });
};
