/**
 * A/B experiments: the same agent, the same specifications, the same inputs and the same model,
 * bound to different tool libraries (the variants). Every variant is bound before anything runs
 * (every bind error of every variant at once); then each input runs `runs` times on each variant,
 * variants interleaved so they see the same conditions, at most `concurrency` runs at a time.
 *
 * The report has, per variant: success rate, tool calls and errors by code, run latency (p50,
 * p95), tool latency (from the library's metrics), tokens; and the answers that differ between
 * variants for the same input and repetition. Failed runs are data in the report, not errors;
 * `runExperiment` fails only when the experiment cannot start (`CONFIGURATION_ERROR`).
 */
import { AgentCodes } from './codes.js';
import { isLeft, right } from '../core/either.js';
import { codedError, err, ok, type Result } from '../core/result.js';
import { createToolMetrics, type MetricsSnapshot, type ToolMetrics } from '../library/metrics.js';
import type { ToolLibrary } from '../library/tool-library.js';
import type { AgentSpecification } from '../specification/agent-spec.js';
import { configurationError, type AgentError } from './agent-error.js';
import { bindAgent, type BoundAgent } from './bind-agent.js';
import type { Model, ModelResult } from './model.js';
import { checkRunOptions, runBoundAgent } from './run-agent.js';
import type { RunAgentOptions } from './run-types.js';
import {
  comparePaired,
  type Interval,
  type LatencyStats,
  latencyStats,
  mean,
  meanInterval,
  normalizeAnswer,
  type PairedComparison,
  round3,
  wilsonInterval,
} from './experiment-stats.js';
import { type AnswerChecks, builtinScores, checkAnswerChecks, type ExperimentScorer, meanScore, type RunScore, runScorer } from './experiment-scoring.js';
import { checkExpectedToolCalls, type AskedToolCall } from './tool-call-match.js';
import type { JsonObject } from '../core/json-schema.js';
import { experimentVariants, type VariantParts } from './experiment-variants.js';
import { createOutcomes } from './experiment-outcomes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * An input: the user's message and what a good run does (`expected`, `equals`, `pattern`,
 * `schema`, `expectedToolCalls`: experiment-scoring.ts).
 */
export interface ExperimentInput extends AnswerChecks {
  /** The user's message. */
  readonly message: string;
  /** A name for the input in reports (default: its position, from 1). */
  readonly id?: string;
  /**
   * The tools the model is shown for this input, by name (default: all the agent's). A BFCL
   * category gives each question its own functions: one agent holds them all, each input shows its own.
   */
  readonly tools?: ReadonlyArray<string>;
}

/**
 * One variant: a library, and optionally its own specification of the agent's tools and its own
 * model (`experimentVariants` makes the product of specifications, libraries and models).
 */
export interface ExperimentVariant {
  readonly name: string;
  readonly library: ToolLibrary;
  /**
   * The agent as this variant specifies it (other descriptions, parameters left out, tighter
   * types); default: the experiment's `agent`. A specification of its own binds when the library
   * accepts every argument its schemas allow (`bindTool`'s `match: 'accepts'`), and the model is
   * shown its descriptions.
   */
  readonly agent?: AgentSpecification;
  /** This variant's model (default: the experiment's `model`). */
  readonly model?: Model | ((key: ExperimentRunKey) => Model);
}

/** Which run a model is made for, when `model` is a function (a fresh scripted or replayed model per run). */
export interface ExperimentRunKey {
  readonly variant: string;
  /** Index of the input, from 0. */
  readonly input: number;
  /** From 0. */
  readonly repetition: number;
}

/** A model for the runs: one for every run, or a function of the run. */
export type ExperimentModel = Model | ((key: ExperimentRunKey) => Model);

export interface ExperimentOptions extends Omit<RunAgentOptions, 'model' | 'observer' | 'onEvent' | 'stream'>, Partial<VariantParts<ExperimentModel>> {
  readonly agent: AgentSpecification;
  /**
   * The variants: `[{name, library, agent?, model?}]`, or `{name: library}`. Or, instead, their
   * parts as data (`specs`, `libraries`, `models`): the variants are their product, named from the
   * parts that vary (`spec/library/model`), the first of each the baseline (experiment-variants.ts).
   */
  readonly variants?: ReadonlyArray<ExperimentVariant> | Readonly<Record<string, ToolLibrary>>;
  readonly inputs: ReadonlyArray<string | ExperimentInput>;
  /** One model for every run, or one per run; a variant's own `model` overrides it. Required unless every variant has one. */
  readonly model?: Model | ((key: ExperimentRunKey) => Model);
  /** Repetitions of each input on each variant (default 1). */
  readonly runs?: number;
  /** Runs at the same time (default 4). */
  readonly concurrency?: number;
  /** Told each run's outcome as it finishes (progress, a results file). */
  readonly onRun?: (run: ExperimentRun) => void;
  /** Scorers of the caller's, by name: each run gets a score from each (experiment-scoring.ts). */
  readonly scorers?: Readonly<Record<string, ExperimentScorer>>;
  /**
   * Runs already made (a results file of an experiment that was stopped): not made again, and in
   * the report as if just made. Each is identified by variant, input and repetition; runs of
   * variants, inputs or repetitions the experiment does not have are left out.
   */
  readonly done?: ReadonlyArray<ExperimentRun>;
  /**
   * Keep every run for the report's `results` (default true). False when the runs go elsewhere as
   * they finish (`onRun` writing a results file): the report's `results` is then empty, and the
   * experiment holds per run only what the summaries and the paired tests need (pass, scores,
   * latency, error code), so its memory does not grow with the runs' conversations.
   */
  readonly keepRuns?: boolean;
  /**
   * Makes each run elsewhere (default: here): given the run's key, it resolves to the run, made the
   * way this experiment would make it (`gramkit ab --queue`: a worker on another machine). It must
   * not reject; the tool metrics of the report are then counted from the runs' tool calls.
   */
  readonly executor?: ExperimentExecutor;
  /** Only these runs are made (default every one): a worker making one run of an experiment. */
  readonly only?: ReadonlyArray<ExperimentRunKey>;
}

/** Makes one run of an experiment, elsewhere (`ExperimentOptions.executor`). */
export type ExperimentExecutor = (key: ExperimentRunKey) => Promise<ExperimentRun>;

export interface ExperimentToolCall {
  readonly name: string;
  readonly ok: boolean;
  /** A failure's canonical code. */
  readonly code?: string;
  /** A failure's precise code. */
  readonly reason?: string;
  readonly durationMs: number;
}

export interface ExperimentRun {
  readonly variant: string;
  readonly input: number;
  readonly inputId: string;
  readonly repetition: number;
  /** The run ended with an answer. */
  readonly completed: boolean;
  /** Completed, and every check of its input (`expected`, `equals`, `pattern`, `schema`, `expectedToolCalls`) scored 1. */
  readonly success: boolean;
  /** When the input has `expectedToolCalls`: whether the calls the model asked for match them (BFCL's AST checker). */
  readonly toolCallsMatch?: boolean;
  /** Why they do not match. */
  readonly reason?: string;
  /** Each score, from 0 to 1, by scorer name (`toolCalls`, `expected`, …, and the caller's scorers). */
  readonly scores: Readonly<Record<string, RunScore>>;
  /** The mean of `scores` (1 or 0 for success when there are none). */
  readonly score: number;
  /** The calls the model asked for, whether or not they validated or ran (scripted calls included). */
  readonly askedToolCalls: ReadonlyArray<AskedToolCall>;
  readonly content?: string;
  readonly error?: { readonly code: string; readonly reason: string; readonly message: string };
  readonly toolCalls: ReadonlyArray<ExperimentToolCall>;
  readonly steps: number;
  readonly durationMs: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface VariantSummary {
  readonly name: string;
  readonly runs: number;
  readonly completed: number;
  readonly succeeded: number;
  /** `succeeded / runs`, from 0 to 1. */
  readonly successRate: number;
  /** Wilson 95% interval of the success rate. */
  readonly successCI: Interval;
  /** Mean of the runs' scores, and its 95% bootstrap interval. */
  readonly meanScore: number;
  readonly scoreCI: Interval;
  /** Per scorer: mean score and its 95% bootstrap interval. */
  readonly scores: Readonly<Record<string, { readonly score: number; readonly ci: Interval }>>;
  /** 95% bootstrap interval of the mean run latency. */
  readonly latencyCI: Interval;
  /**
   * Against the baseline (the first variant), paired by input and repetition: success (McNemar's
   * exact test) and mean score (sign test), each with the difference's 95% paired bootstrap interval.
   * Absent on the baseline.
   */
  readonly vsBaseline?: PairedComparison & { readonly score: PairedComparison };
  readonly toolCalls: number;
  readonly toolErrors: number;
  /** Tool errors by precise code, their `reason` (`BUILTIN_FILE_NOT_FOUND`: 2, ...). */
  readonly toolErrorsByCode: Readonly<Record<string, number>>;
  /** Runs that ended without an answer, by precise code (`AGENT_MAX_STEPS`, `AGENT_LLM_API_ERROR`, ...). */
  readonly runErrorsByCode: Readonly<Record<string, number>>;
  /** Wall time of whole runs, in milliseconds. */
  readonly latencyMs: LatencyStats;
  /** Per tool: calls, errors, latency (the library's metrics). */
  readonly tools: MetricsSnapshot['tools'];
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Runs whose answer differs from the first variant's for the same input and repetition (0 for the first variant). */
  readonly differingAnswers: number;
}

export interface AnswerDifference {
  readonly input: number;
  readonly inputId: string;
  readonly message: string;
  readonly repetition: number;
  /** Each variant's answer, or `error CODE` when its run did not complete. */
  readonly answers: Readonly<Record<string, string>>;
}

export interface ExperimentReport {
  readonly agent: string;
  readonly model: string;
  readonly variants: ReadonlyArray<string>;
  readonly inputs: number;
  readonly runsPerInput: number;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly summaries: ReadonlyArray<VariantSummary>;
  readonly differences: ReadonlyArray<AnswerDifference>;
  /** Every run, in the order (input, repetition, variant); empty with `keepRuns: false`. */
  readonly results: ReadonlyArray<ExperimentRun>;
}

export type ExperimentResult = Result<ExperimentReport, AgentError>;

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

const normalizeInputs = (inputs: ReadonlyArray<string | ExperimentInput>): { inputs: ExperimentInput[]; problems: string[] } => {
  const out: ExperimentInput[] = [];
  const problems: string[] = [];
  inputs.forEach((x, i) => {
    const input = typeof x === 'string' ? { message: x } : x;
    if (typeof input !== 'object' || input === null || typeof input.message !== 'string' || input.message.trim() === '') {
      problems.push(`input ${i + 1} has no message`);
      return;
    }
    for (const k of ['expected', 'equals', 'pattern'] as const)
      if (input[k] !== undefined && typeof input[k] !== 'string') problems.push(`input ${i + 1}: ${k} must be a string`);
    const bad = checkAnswerChecks(input) ?? (input.expectedToolCalls !== undefined ? checkExpectedToolCalls(input.expectedToolCalls) : undefined);
    if (bad !== undefined) problems.push(`input ${i + 1}: ${bad}`);
    if (input.tools !== undefined && (!Array.isArray(input.tools) || !input.tools.every((t) => typeof t === 'string')))
      problems.push(`input ${i + 1}: tools must be a list of tool names`);
    // the caller's object itself, not a copy (a run names an input without an id by its position)
    out.push(input);
  });
  return { inputs: out, problems };
};

const variantList = (o: ExperimentOptions): ReadonlyArray<ExperimentVariant> => {
  const v = o.variants;
  if (v === undefined) {
    if (o.libraries === undefined) return [];
    return experimentVariants({
      libraries: o.libraries,
      ...(o.specs !== undefined ? { specs: o.specs } : {}),
      ...(o.models !== undefined ? { models: o.models } : {}),
    });
  }
  return Array.isArray(v)
    ? (v as ReadonlyArray<ExperimentVariant>)
    : Object.entries(v as Readonly<Record<string, ToolLibrary>>).map(([name, library]) => ({ name, library }));
};

interface Prepared {
  readonly variant: ExperimentVariant;
  readonly bound: BoundAgent;
  readonly metrics: ToolMetrics;
  readonly model: Model | ((key: ExperimentRunKey) => Model);
}

const isModel = (m: unknown): m is Model => typeof m === 'object' && m !== null && typeof (m as Model).generate === 'function';

/** Checks a model option (one model, or a function of the run): the problem, if any. */
const modelProblem = (options: ExperimentOptions, model: ExperimentOptions['model'], where: string): string | undefined => {
  if (model === undefined) return `${where}has no model: give the experiment's \`model\` or the variant's`;
  if (typeof model === 'function') {
    const bad = checkRunOptions({ ...options, model: { id: 'per-run', generate: async () => err(codedError(AgentCodes.CONFIGURATION_ERROR, '')) } });
    return bad?.message;
  }
  if (!isModel(model)) return `${where}model must be a Model ({id, generate}) or a function of the run`;
  return checkRunOptions({ ...options, model })?.message;
};

/**
 * Bound agents by agent, library and match, kept while both are: an experiment made again on the
 * same objects (a worker making one run per job, `only`) binds and compiles its validators once.
 * Binding is a pure function of immutable values, so the one bound before is the one binding gives.
 */
const boundAgents = new WeakMap<AgentSpecification, WeakMap<ToolLibrary, Map<string, BoundAgent>>>();

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null;

const bindOnce = (agent: AgentSpecification, library: ToolLibrary, match: 'same' | 'accepts'): ReturnType<typeof bindAgent> => {
  const byLibrary = isObject(agent) && isObject(library) ? boundAgents.get(agent) : undefined;
  const known = byLibrary?.get(library)?.get(match);
  if (known !== undefined) return right(known);
  const bound = bindAgent(agent, library, match === 'accepts' ? { match } : {});
  if (isLeft(bound) || !isObject(agent) || !isObject(library)) return bound;
  const libraries = byLibrary ?? new WeakMap<ToolLibrary, Map<string, BoundAgent>>();
  if (byLibrary === undefined) boundAgents.set(agent, libraries);
  libraries.set(library, (libraries.get(library) ?? new Map<string, BoundAgent>()).set(match, bound.right));
  return bound;
};

/** Every variant bound, or one `CONFIGURATION_ERROR` naming every problem of every variant. */
const prepare = (options: ExperimentOptions): Result<{ readonly variants: Prepared[]; readonly inputs: ExperimentInput[] }, AgentError> => {
  const problems: string[] = [];
  const variants = variantList(options);
  if (options.variants !== undefined && (options.libraries !== undefined || options.specs !== undefined || options.models !== undefined)) {
    problems.push('give the variants, or their parts (specs, libraries, models), not both');
  }
  if (variants.length === 0) problems.push('give at least one variant (two to compare): variants, or libraries');
  const names = new Set<string>();
  for (const v of variants) {
    if (typeof v.name !== 'string' || v.name === '') problems.push('every variant needs a name');
    else if (names.has(v.name)) problems.push(`two variants are named "${v.name}"`);
    names.add(v.name);
  }
  const { inputs, problems: inputProblems } = normalizeInputs(options.inputs ?? []);
  problems.push(...inputProblems);
  if ((options.inputs ?? []).length === 0) problems.push('give at least one input');
  const runs = options.runs ?? 1;
  if (!Number.isInteger(runs) || runs < 1) problems.push(`runs must be a whole number ≥ 1, got ${String(runs)}`);
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) problems.push(`concurrency must be a whole number ≥ 1, got ${String(concurrency)}`);
  const modelProblems = new Set<string>();
  if (options.model !== undefined || variants.every((v) => v.model === undefined)) {
    const bad = modelProblem(options, options.model, '');
    if (bad !== undefined) modelProblems.add(bad);
  }
  for (const v of variants) {
    if (v.model === undefined) continue;
    const bad = modelProblem(options, v.model, `variant "${v.name}": `);
    if (bad !== undefined) modelProblems.add(bad);
  }
  problems.push(...modelProblems);
  const prepared: Prepared[] = [];
  const bindErrors: unknown[] = [];
  for (const v of variants) {
    const metrics = createToolMetrics();
    // a specification of the variant's own binds to a library that accepts what it allows
    const own = v.agent !== undefined && v.agent !== options.agent;
    const bound = bindOnce(own ? (v.agent as AgentSpecification) : options.agent, v.library, own ? 'accepts' : 'same');
    if (isLeft(bound)) {
      problems.push(`variant "${v.name}": ${bound.left.message}`);
      bindErrors.push({ variant: v.name, ...(typeof bound.left.details === 'object' ? (bound.left.details as object) : {}) });
    } else prepared.push({ variant: v, bound: bound.right, metrics, model: (v.model ?? options.model) as Prepared['model'] });
  }
  if (problems.length > 0) {
    return err(configurationError(`the experiment cannot start: ${problems.join('; ')}`, bindErrors.length > 0 ? { details: { variants: bindErrors } } : {}));
  }
  return ok({ variants: prepared, inputs });
};

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

const rounded = (i: Interval): Interval => [round3(i[0]), round3(i[1])];
const roundedComparison = (c: PairedComparison): PairedComparison => ({
  ...c,
  difference: round3(c.difference),
  ci: rounded(c.ci),
  pValue: Number(c.pValue.toPrecision(4)),
});

/** The arguments a model sent, as an object when they are JSON (else the text, as sent). */
const parseArguments = (text: string): unknown => {
  try {
    return JSON.parse(text === '' ? '{}' : text) as unknown;
  } catch {
    return text;
  }
};

/** Times a rate-limited model request is made again, the experiment waiting each time. */
const RATE_LIMIT_RETRIES = 8;

const answerOf = (r: ExperimentRun): string => (r.completed ? normalizeAnswer(r.content ?? '') : `error ${r.error?.reason ?? 'UNKNOWN'}`);

const count = (into: Record<string, number>, key: string): void => {
  into[key] = (into[key] ?? 0) + 1;
};

/** Runs jobs `0 … count - 1` with at most `limit` at a time. */
const pool = async (count: number, limit: number, run: (i: number) => Promise<void>): Promise<void> => {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await run(next++);
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
};

/** The id of the model a run is made with (the model function may throw: then none). */
const modelIdOf = (modelFor: (key: ExperimentRunKey) => Model, key: ExperimentRunKey): string => {
  try {
    return modelFor(key).id;
  } catch {
    return '';
  }
};

/** A run made elsewhere: its tool calls counted in the variant's metrics, as if observed here. */
const countToolCalls = (metrics: ToolMetrics, run: ExperimentRun): void => {
  const startedAt = Date.now();
  for (const [n, c] of run.toolCalls.entries()) {
    const base = { callId: `${run.variant}/${run.input}/${run.repetition}/${n}`, toolName: c.name, args: undefined, startedAt, durationMs: c.durationMs };
    if (c.ok) metrics.result({ ...base, type: 'result', value: undefined });
    else metrics.failed({ ...base, type: 'failed', error: codedError(c.code ?? 'UNKNOWN', '') });
  }
};

/** Per variant, what is summed as runs finish. */
interface Totals {
  toolCalls: number;
  toolErrors: number;
  readonly toolErrorsByCode: Record<string, number>;
  inputTokens: number;
  outputTokens: number;
}

/**
 * A run reduced to what an experiment with `keepRuns: false` reads of a run given as done
 * (summaries, paired tests, answers compared): no calls asked for, no reasons, no error message.
 * A results file read back for `--resume` holds its runs so, not whole.
 */
export const slimRun = (run: ExperimentRun): ExperimentRun => {
  const scores: Record<string, RunScore> = {};
  for (const name in run.scores) scores[name] = { score: (run.scores[name] as RunScore).score };
  return {
    variant: run.variant,
    input: run.input,
    inputId: run.inputId,
    repetition: run.repetition,
    completed: run.completed,
    success: run.success,
    scores,
    score: run.score,
    askedToolCalls: [],
    ...(run.content !== undefined ? { content: normalizeAnswer(run.content) } : {}),
    ...(run.error !== undefined ? { error: { code: run.error.code, reason: run.error.reason, message: '' } } : {}),
    toolCalls: run.toolCalls.map((c) => ({
      name: c.name,
      ok: c.ok,
      ...(c.code !== undefined ? { code: c.code } : {}),
      ...(c.reason !== undefined ? { reason: c.reason } : {}),
      durationMs: 0,
    })),
    steps: run.steps,
    durationMs: run.durationMs,
    inputTokens: run.inputTokens,
    outputTokens: run.outputTokens,
  };
};

type SchemaOf = (tool: string) => JsonObject | undefined;

/** A run record while it is built, field by field. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Runs the experiment. Never rejects; fails only when it cannot start. */
export const runExperiment = async (options: ExperimentOptions): Promise<ExperimentResult> => {
  const prepared = prepare(options);
  if (!prepared.ok) return prepared;
  const { variants, inputs } = prepared.value;
  // compile every tool's validators now: the one-time cost would otherwise land on the first runs' latency
  for (const v of variants) for (const t of v.bound.tools.tools) t.validators();
  const runs = options.runs ?? 1;
  const startedAt = new Date().toISOString();
  const t0 = performance.now();
  // the jobs in the order (input, repetition, variant), as columns (no object per run): every
  // combination, or the positions of the `only` ones
  const only = options.only === undefined ? undefined : new Set(options.only.map((k) => JSON.stringify([k.variant, k.input, k.repetition])));
  const grid = inputs.length * runs * variants.length;
  const positions: number[] | undefined = only === undefined ? undefined : [];
  if (positions !== undefined)
    for (let p = 0; p < grid; p++) {
      const vi = p % variants.length;
      const rest = (p - vi) / variants.length;
      if (only?.has(JSON.stringify([(variants[vi] as Prepared).variant.name, Math.floor(rest / runs), rest % runs]))) positions.push(p);
    }
  const jobCount = positions === undefined ? grid : positions.length;

  const { agent: _agent, variants: _variants, specs: _specs, libraries: _libraries, models: _models, inputs: _inputs, ...rest } = options;
  const { model: modelOption, runs: _runs, concurrency, onRun, executor, only: _only, ...runOptions } = rest;
  // a run's options, one literal with every field (an object made by spreading is slower to read
  // on every step); the type makes a new run option fail to compile until it is listed here (an
  // experiment takes no listener, stream or observer: ExperimentOptions leaves them out)
  const optionsWith = (model: Model): { readonly [K in keyof Required<Omit<RunAgentOptions, 'observer' | 'onEvent' | 'stream'>>]: RunAgentOptions[K] } => ({
    model,
    context: runOptions.context,
    signal: runOptions.signal,
    maxSteps: runOptions.maxSteps,
    maxDurationMs: runOptions.maxDurationMs,
    stopWhen: runOptions.stopWhen,
    approve: runOptions.approve,
    policies: runOptions.policies,
    toolTimeoutMs: runOptions.toolTimeoutMs,
    maxToolCallsPerTurn: runOptions.maxToolCallsPerTurn,
    toolConcurrency: runOptions.toolConcurrency,
    toolChoice: runOptions.toolChoice,
    parallelToolCalls: runOptions.parallelToolCalls,
    maxTokens: runOptions.maxTokens,
    temperature: runOptions.temperature,
  });
  // each variant's tool argument schemas by name (for `expectedToolCalls`), looked up once
  const schemaOfVariant = new Map<Prepared, SchemaOf>(
    variants.map((v) => {
      const byName = new Map<string, JsonObject>();
      for (const d of v.bound.definitions) if (d.inputSchema !== undefined && !byName.has(d.name)) byName.set(d.name, d.inputSchema);
      return [v, (tool: string) => byName.get(tool) ?? byName.get(tool.replace(/\./g, '_'))];
    }),
  );
  const modelFor = (v: Prepared, key: ExperimentRunKey): Model => (typeof v.model === 'function' ? v.model(key) : v.model);
  // the report names the baseline's model (when it is one model, not a function of the run)
  const baseModel = variants[0]?.model ?? modelOption;
  let modelId = baseModel !== undefined && typeof baseModel !== 'function' ? baseModel.id : '';

  const runKey = (variant: string, input: number, repetition: number): string => JSON.stringify([variant, input, repetition]);
  const done = new Map<string, ExperimentRun>();
  const keepDone = options.keepRuns !== false;
  for (const r of options.done ?? []) {
    if (r.input < inputs.length && r.repetition < runs && variants.some((v) => v.variant.name === r.variant))
      done.set(runKey(r.variant, r.input, r.repetition), keepDone ? r : slimRun(r));
  }
  const { scorers = {} } = options;
  const scorerList = Object.entries(scorers);

  // a 429 the provider's retries did not get past slows the whole experiment down: every run
  // waits what the server asked (or a doubling delay), and the request is made again
  let pausedUntil = 0;
  const slowed = async (call: () => Promise<ModelResult>, first: ModelResult | undefined): Promise<ModelResult> => {
    let response = first;
    for (let attempt = 0; ; attempt++) {
      if (response === undefined) {
        const wait = pausedUntil - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        response = await call();
      }
      if (response.ok || response.error.reason !== AgentCodes.RATE_LIMITED || attempt >= RATE_LIMIT_RETRIES) return response;
      const asked = (response.error.details as { retryAfterMs?: unknown } | undefined)?.retryAfterMs;
      const delay = typeof asked === 'number' && Number.isFinite(asked) && asked >= 0 ? Math.min(asked, 60_000) : Math.min(1000 * 2 ** attempt, 60_000);
      pausedUntil = Math.max(pausedUntil, Date.now() + delay);
      response = undefined;
    }
  };
  // the common case (nothing paused, no 429) makes the request at once and hands its answer to
  // `then` in the same step, without an async frame of its own and without reading the clock
  const limited = (call: () => Promise<ModelResult>, then: (r: ModelResult) => ModelResult): Promise<ModelResult> =>
    pausedUntil !== 0
      ? slowed(call, undefined).then(then)
      : Promise.resolve(call()).then((r) => (r.ok || r.error.reason !== AgentCodes.RATE_LIMITED ? then(r) : slowed(call, r).then(then)));

  // each run, as it finishes (or as given in `done`): summed, its answer compared within its group
  // (input, repetition) until every variant's is in, and kept whole only with `keepRuns`
  const keepRuns = options.keepRuns !== false;
  const results: ExperimentRun[] = [];
  const outcomes = createOutcomes(jobCount);
  const totals = new Map<string, Totals>(
    variants.map((v) => [v.variant.name, { toolCalls: 0, toolErrors: 0, toolErrorsByCode: {}, inputTokens: 0, outputTokens: 0 }]),
  );
  const differences: AnswerDifference[] = [];
  const differing = new Map<string, number>(variants.map((v) => [v.variant.name, 0]));
  const first = variants[0]?.variant.name;
  const groups = new Map<number, Record<string, string>>();
  const record = (run: ExperimentRun, i: number, vi: number): void => {
    if (keepRuns) results[i] = run;
    outcomes.record(i, vi, run);
    const t = totals.get(run.variant) as Totals;
    for (const c of run.toolCalls) {
      t.toolCalls++;
      if (!c.ok) {
        t.toolErrors++;
        count(t.toolErrorsByCode, c.reason ?? c.code ?? 'UNKNOWN');
      }
    }
    t.inputTokens += run.inputTokens;
    t.outputTokens += run.outputTokens;
    // one variant has nothing to compare its answers with
    if (variants.length < 2) return;
    const g = Math.floor(i / variants.length);
    const answers = groups.get(g) ?? {};
    answers[run.variant] = answerOf(run);
    if (Object.keys(answers).length < variants.length) {
      groups.set(g, answers);
      return;
    }
    groups.delete(g);
    const base = first !== undefined ? answers[first] : undefined;
    for (const name of Object.keys(answers)) if (answers[name] !== base) differing.set(name, (differing.get(name) ?? 0) + 1);
    if (new Set(Object.values(answers)).size > 1) {
      const ordered = Object.fromEntries(variants.map((v) => [v.variant.name, answers[v.variant.name] as string]));
      differences.push({
        input: run.input,
        inputId: run.inputId,
        message: (inputs[run.input] as ExperimentInput).message,
        repetition: run.repetition,
        answers: ordered,
      });
    }
  };

  await pool(jobCount, concurrency ?? 4, async (i): Promise<void> => {
    const p = positions === undefined ? i : (positions[i] as number);
    const vi = p % variants.length;
    const v = variants[vi] as Prepared;
    const rest = (p - vi) / variants.length;
    const input = Math.floor(rest / runs);
    const repetition = rest % runs;
    const previous = done.size === 0 ? undefined : done.get(runKey(v.variant.name, input, repetition));
    if (previous !== undefined) {
      record(previous, i, vi);
      return;
    }
    const spec = inputs[input] as ExperimentInput;
    const key = { variant: v.variant.name, input, repetition };
    if (executor !== undefined) {
      const made = await executor(key);
      if (modelId === '') modelId = modelIdOf((k) => modelFor(v, k), key);
      countToolCalls(v.metrics, made);
      try {
        onRun?.(made);
      } catch {
        // progress reporting must not break the experiment
      }
      record(made, i, vi);
      return;
    }
    const started = performance.now();
    let chosen: Model;
    try {
      chosen = modelFor(v, key);
    } catch (e) {
      chosen = {
        id: 'per-run',
        generate: async () => err(codedError(AgentCodes.CONFIGURATION_ERROR, `the model function threw: ${e instanceof Error ? e.message : String(e)}`)),
      };
    }
    if (modelId === '') modelId = chosen.id;
    // what the model asks for is scored, whether or not the calls then validate or run
    const asked: AskedToolCall[] = [];
    const shown = spec.tools === undefined ? undefined : new Set(spec.tools.flatMap((t) => [t, t.replace(/\./g, '_')]));
    const heard = (response: ModelResult): ModelResult => {
      if (response.ok) {
        const calls = response.value.message.toolCalls;
        if (calls !== undefined) for (const c of calls) asked.push({ name: c.name, arguments: parseArguments(c.arguments) });
      }
      return response;
    };
    const model: Model = {
      id: chosen.id,
      generate: (request) =>
        limited(() => chosen.generate(shown === undefined ? request : { ...request, tools: request.tools.filter((t) => shown.has(t.name)) }), heard),
    };
    const r = await runBoundAgent(v.bound, spec.message, optionsWith(model));
    const durationMs = round3(performance.now() - started);
    const progress = r.ok ? r.value : r.error.partial;
    const used = progress?.toolsUsed ?? [];
    const toolCalls = used.map(
      (u): ExperimentToolCall =>
        u.result.ok
          ? { name: u.name, ok: true, durationMs: u.durationMs }
          : { name: u.name, ok: false, code: u.result.error.code, reason: String(u.result.error.reason), durationMs: u.durationMs },
    );
    // the variant's per-tool metrics, from the run's calls (an observer on every invocation would cost each run more)
    for (const u of used) {
      if (u.result.ok)
        v.metrics.result({ type: 'result', callId: u.id, toolName: u.name, args: u.args, startedAt: 0, durationMs: u.durationMs, value: undefined });
      else v.metrics.failed({ type: 'failed', callId: u.id, toolName: u.name, args: u.args, startedAt: 0, durationMs: u.durationMs, error: u.result.error });
    }
    const completed = r.ok;
    const content = r.ok ? r.value.content : undefined;
    const builtin = builtinScores(spec, { completed, askedToolCalls: asked, content }, schemaOfVariant.get(v) as SchemaOf);
    let success = completed;
    for (const name in builtin) if ((builtin[name] as RunScore).score !== 1) success = false;
    const inputId = spec.id ?? String(input + 1);
    // the built-in scores are this run's own object: the caller's scorers are added to it
    const scores = builtin as Record<string, RunScore>;
    for (const [name, scorer] of scorerList) {
      scores[name] = await runScorer(scorer, {
        variant: v.variant.name,
        inputId,
        message: spec.message,
        repetition,
        completed,
        ...(content !== undefined ? { content } : {}),
        ...(r.ok ? {} : { error: { code: r.error.code, reason: r.error.reason, message: r.error.message } }),
        askedToolCalls: asked,
        toolCalls,
      });
    }
    const match = builtin['toolCalls'];
    // built field by field, in the report's key order (optional fields only when present), without
    // the spreads' intermediate objects
    const made: Mutable<ExperimentRun> = { variant: v.variant.name, input, inputId, repetition, completed, success } as Mutable<ExperimentRun>;
    if (match !== undefined) {
      made.toolCallsMatch = match.score === 1;
      if (match.reason !== undefined) made.reason = match.reason;
    }
    made.scores = scores;
    made.score = round3(meanScore(scores, success));
    made.askedToolCalls = asked;
    if (content !== undefined) made.content = content;
    if (!r.ok) made.error = { code: r.error.code, reason: r.error.reason, message: r.error.message };
    made.toolCalls = toolCalls;
    made.steps = progress?.steps ?? 0;
    made.durationMs = durationMs;
    made.inputTokens = progress?.usage.inputTokens ?? 0;
    made.outputTokens = progress?.usage.outputTokens ?? 0;
    const run: ExperimentRun = made;
    try {
      onRun?.(run);
    } catch {
      // progress reporting must not break the experiment
    }
    record(run, i, vi);
  });
  differences.sort((a, b) => a.input - b.input || a.repetition - b.repetition);

  // runs in the order (input, repetition, variant): the baseline's and each variant's pair up by position
  const baseline = variants[0] !== undefined ? outcomes.ofVariant(0) : undefined;
  const summaries = variants.map((v, vi): VariantSummary => {
    const mine = vi === 0 && baseline !== undefined ? baseline : outcomes.ofVariant(vi);
    const { toolCalls, toolErrors, toolErrorsByCode, inputTokens, outputTokens } = totals.get(v.variant.name) as Totals;
    const runErrorsByCode = mine.errorsByCode;
    let succeeded = 0;
    for (const x of mine.success) succeeded += x;
    const runScores = mine.score;
    const scoreStats = Object.fromEntries(
      mine.scoreNames.map((name) => {
        const values = mine.scoreValues(name);
        return [name, { score: round3(mean(values)), ci: rounded(meanInterval(values)) }];
      }),
    );
    const durations = mine.durationMs;
    const vsBaseline =
      baseline === undefined || v === variants[0]
        ? {}
        : {
            vsBaseline: {
              ...roundedComparison(comparePaired(baseline.success, mine.success)),
              score: roundedComparison(comparePaired(baseline.score, runScores)),
            },
          };
    return {
      name: v.variant.name,
      runs: mine.runs,
      completed: mine.completed,
      succeeded,
      successRate: mine.runs === 0 ? 0 : succeeded / mine.runs,
      successCI: rounded(wilsonInterval(succeeded, mine.runs)),
      meanScore: round3(mean(runScores)),
      scoreCI: rounded(meanInterval(runScores)),
      scores: scoreStats,
      latencyCI: rounded(meanInterval(durations)),
      ...vsBaseline,
      toolCalls,
      toolErrors,
      toolErrorsByCode,
      runErrorsByCode,
      latencyMs: latencyStats(durations),
      tools: v.metrics.snapshot().tools,
      inputTokens,
      outputTokens,
      differingAnswers: differing.get(v.variant.name) ?? 0,
    };
  });

  return {
    ok: true,
    value: {
      agent: options.agent.name,
      model: modelId,
      variants: variants.map((v) => v.variant.name),
      inputs: inputs.length,
      runsPerInput: runs,
      startedAt,
      durationMs: round3(performance.now() - t0),
      summaries,
      differences,
      results,
    },
  };
};
