/**
 * `gramkit ab <agent.gram> --library a.ts --library b.ts --inputs inputs.jsonl [--runs N]
 * [--out report.json]`: the same agent, specifications, inputs and model against each library
 * (`runExperiment`). Prints a row per library (success rate, tool calls, errors by code, latency
 * p50/p95, answers that differ from the first library), a legend of the columns, and the differing
 * answers; `--out` writes the whole report as JSON, `--json` prints it instead of the table (both
 * with `columns`, what each column means).
 *
 * Offline A/B: an input may carry the tool calls to make (`"toolCalls"`), so each library gets the
 * same calls and the model (offline by default) answers from each library's results; and a
 * `replay:` recording with `--replay-match sequence` is replayed from its start in every run, its
 * answers in order whatever each library returned.
 *
 * Exit 0 when the experiment ran (failed runs are results in the report), 1 when it could not
 * start (a library that does not load or bind, unreadable inputs), 2 for usage errors.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { formatAgentError } from '../../agent/agent-error.js';
import { isRecord } from '../../core/json.js';
import { checkAnswerChecks } from '../../agent/experiment-scoring.js';
import { checkExpectedToolCalls } from '../../agent/tool-call-match.js';
import { type ExperimentExecutor, type ExperimentInput, type ExperimentRunKey, type ExperimentVariant, runExperiment } from '../../agent/experiment.js';
import { experimentVariants } from '../../agent/experiment-variants.js';
import { loadSpecSource } from './spec-source.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { EXPERIMENT_COLUMNS, formatExperimentReport } from '../../agent/experiment-report.js';
import { experimentHtml } from '../../agent/experiment-html.js';
import type { Model } from '../../agent/model.js';
import { denyAll } from '../../policy/approvers.js';
import { type ScriptedCall, type ScriptedSteps, withScriptedCalls } from '../../providers/scripted-calls.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, type CommandContext } from '../context.js';
import { agentLibrary, agentModel, loadAgent, type ModelChoice, positiveIntegers, reportSetup } from './agent-setup.js';
import { loadSource } from './gram-input.js';
import { chooseApprover, commandPolicies } from '../../project/approval.js';
import { resolveWorkspace } from './spec-source.js';
import { type AgentCatalog, catalogLibrary, openAgentCatalog } from './catalog-library.js';
import { openResults, type ResultsFile } from './ab-results.js';
import { loadScorers } from './ab-scorers.js';
import { cachedModel } from './ab-cache.js';
import { progressBar } from './ab-progress.js';
import type { ExperimentScorer } from '../../agent/experiment-scoring.js';
import type { AgentSpecification } from '../../specification/agent-spec.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import { diagnosticsOf, reportError, usageError } from '../report.js';
import { type CliCode, CliCodes } from '../codes.js';
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface AbCommandOptions {
  readonly library?: ReadonlyArray<string>;
  readonly inputs?: string;
  readonly runs?: string;
  readonly out?: string;
  readonly json?: boolean;
  readonly agent?: string;
  /** One model, or several (each a variant with each library). */
  readonly model?: string | ReadonlyArray<string>;
  readonly baseUrl?: string;
  readonly concurrency?: string;
  readonly yes?: boolean;
  readonly deny?: boolean;
  readonly workspace?: string;
  readonly maxSteps?: string;
  readonly timeout?: string;
  /** Catalogs (directories or Redis URLs) to compare, each a variant after the libraries. */
  readonly catalog?: ReadonlyArray<string>;
  /** How a `replay:` model matches requests: `exact` (default) or `sequence` (each run from the start). */
  readonly replayMatch?: string;
  /** Scorer modules (`(run) => {score, reason}`), each a score per run named after its file. */
  readonly scorer?: ReadonlyArray<string>;
  /** With `--out results.jsonl`: continue the experiment the file holds. */
  readonly resume?: boolean;
  /** A directory of model answers by request: a request made before is not made again. */
  readonly cache?: string;
  /** `redis://host:port`: every run goes on a BullMQ queue there, made by `gramkit worker`s (ab-queue.ts). */
  readonly queue?: string;
  /** Write the report as a self-contained HTML page here. */
  readonly report?: string;
  /** Alternate specifications of the agent's tools (`.gram` files), each a variant after the agent file's own. */
  readonly spec?: ReadonlyArray<string>;
}

// -------------------------------------------------------------------------------------------------
// inputs
// -------------------------------------------------------------------------------------------------

/** The inputs of a file, the tool calls scripted for each (by position), and what is wrong with the file. */
export interface ParsedInputs {
  readonly inputs: ReadonlyArray<ExperimentInput>;
  readonly scripts: ReadonlyArray<ScriptedSteps | undefined>;
  readonly problems: ReadonlyArray<string>;
}

/**
 * `toolCalls` of an input: a list of calls `{"name": "...", "arguments": {...}}` made in one step,
 * or a list of such lists, one per step. Else why the value is neither (`CLI_USAGE`: the inputs file is
 * part of the command line).
 */
const parseToolCalls = (v: unknown): Result<ScriptedSteps, CodedError<CliCode>> => {
  const shape = 'must be a list of calls {"name": "...", "arguments": {...}}, or a list of such lists (one per step)';
  if (!Array.isArray(v) || v.length === 0) return failWith(CliCodes.USAGE, `"toolCalls" ${shape}`);
  const nested = v.every((x) => Array.isArray(x));
  const steps = (nested ? v : [v]) as ReadonlyArray<ReadonlyArray<unknown>>;
  const out: ScriptedCall[][] = [];
  for (const [i, step] of steps.entries()) {
    const calls: ScriptedCall[] = [];
    for (const [j, c] of step.entries()) {
      const where = nested ? `step ${i + 1}, call ${j + 1}` : `call ${j + 1}`;
      if (typeof c !== 'object' || c === null || Array.isArray(c)) return failWith(CliCodes.USAGE, `"toolCalls" ${where}: ${shape}`);
      const { name, arguments: args } = c as Record<string, unknown>;
      if (typeof name !== 'string' || name.trim() === '') return failWith(CliCodes.USAGE, `"toolCalls" ${where}: "name" must be the name of a tool`);
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
        return failWith(CliCodes.USAGE, `"toolCalls" ${where}: "arguments" must be an object`);
      calls.push({ name, arguments: (args ?? {}) as Record<string, unknown> });
    }
    if (calls.length === 0) return failWith(CliCodes.USAGE, `"toolCalls" step ${i + 1} has no call`);
    out.push(calls);
  }
  return ok(out);
};

/** The last user message of a BFCL `question` (a list of turns, each a list of messages). */
const bfclQuestion = (q: unknown): string | undefined => {
  const messages = (Array.isArray(q) ? q.flat() : []) as ReadonlyArray<unknown>;
  const users = messages.filter((m): m is { role: string; content: string } => isRecord(m) && m['role'] === 'user' && typeof m['content'] === 'string');
  return users.at(-1)?.content;
};

/** The names of a BFCL entry's functions. */
const bfclFunctions = (f: unknown): ReadonlyArray<string> | undefined =>
  Array.isArray(f) ? f.flatMap((x) => (isRecord(x) && typeof x['name'] === 'string' ? [x['name']] : [])) : undefined;

/**
 * The inputs of a JSON-lines file: each line a JSON string (the message) or an object with
 * `message` (or `input`), and optionally `id`, the checks of a good answer (`expected`, `equals`,
 * `pattern`, `schema`), `expectedToolCalls` (BFCL's possible-answer form), `tools` (the tools the
 * model is shown) and `toolCalls` (the calls to make before the model answers). A line of a BFCL
 * test file (`question`, `function`) is an input too: its last user message, its functions as
 * `tools`, and its `ground_truth`, or the one `answers` has for its id, as `expectedToolCalls`.
 * Blank lines are skipped.
 */
export const parseInputs = (text: string, answers: ReadonlyMap<string, unknown> = new Map()): ParsedInputs => {
  const inputs: ExperimentInput[] = [];
  const scripts: Array<ScriptedSteps | undefined> = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      problems.push(`line ${i + 1}: not JSON (${e instanceof Error ? e.message : String(e)})`);
      return;
    }
    if (typeof v === 'string') {
      if (v.trim() === '') problems.push(`line ${i + 1}: the message is empty`);
      else {
        inputs.push({ message: v, id: String(inputs.length + 1) });
        scripts.push(undefined);
      }
      return;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      problems.push(`line ${i + 1}: expected a string or an object {"message": "..."}`);
      return;
    }
    const o = v as Record<string, unknown>;
    const bfcl = o['message'] === undefined && o['input'] === undefined && o['question'] !== undefined;
    const message = bfcl ? bfclQuestion(o['question']) : (o['message'] ?? o['input']);
    if (typeof message !== 'string' || message.trim() === '') {
      problems.push(`line ${i + 1}: no "message" (a non-empty string)`);
      return;
    }
    const id = o['id'];
    if (id !== undefined && typeof id !== 'string' && typeof id !== 'number') problems.push(`line ${i + 1}: "id" must be a string or a number`);
    const checks: Record<string, unknown> = {};
    for (const k of ['expected', 'equals', 'pattern'] as const) {
      if (o[k] === undefined) continue;
      if (typeof o[k] !== 'string') problems.push(`line ${i + 1}: "${k}" must be a string`);
      else checks[k] = o[k];
    }
    if (o['schema'] !== undefined) {
      if (!isRecord(o['schema'])) problems.push(`line ${i + 1}: "schema" must be a JSON Schema (an object)`);
      else checks['schema'] = o['schema'];
    }
    const expectedCalls =
      o['expectedToolCalls'] ?? o['ground_truth'] ?? (bfcl && (typeof id === 'string' || typeof id === 'number') ? answers.get(String(id)) : undefined);
    if (expectedCalls !== undefined) {
      const bad = checkExpectedToolCalls(expectedCalls);
      if (bad !== undefined) problems.push(`line ${i + 1}: ${bad}`);
      else checks['expectedToolCalls'] = expectedCalls;
    }
    const bad = checkAnswerChecks(checks);
    if (bad !== undefined) problems.push(`line ${i + 1}: ${bad}`);
    const tools = bfcl ? bfclFunctions(o['function']) : o['tools'];
    if (tools !== undefined && (!Array.isArray(tools) || !tools.every((t) => typeof t === 'string')))
      problems.push(`line ${i + 1}: "tools" must be a list of tool names`);
    else if (tools !== undefined) checks['tools'] = tools;
    const script = o['toolCalls'] !== undefined ? parseToolCalls(o['toolCalls']) : undefined;
    if (script !== undefined && !script.ok) problems.push(`line ${i + 1}: ${script.error.message}`);
    scripts.push(script?.ok === true ? script.value : undefined);
    inputs.push({
      message,
      id: id !== undefined && (typeof id === 'string' || typeof id === 'number') ? String(id) : String(inputs.length + 1),
      ...(checks as Partial<ExperimentInput>),
    });
  });
  return { inputs, scripts, problems };
};

/**
 * The name of a library argument in the report: a module's file name (`fast-library`); an MCP
 * server's host (`mcp:127.0.0.1:3000`), or for a stdio server the name of the last file its
 * command names (`mcp:slow-library`).
 */
const variantName = (ref: string): string => {
  if (ref.startsWith('mcp:')) {
    try {
      return `mcp:${new URL(ref.slice(4)).host}`;
    } catch {
      return ref;
    }
  }
  if (ref.startsWith('mcp+stdio:')) {
    const last =
      ref
        .trim()
        .split(/\s+/)
        .filter((w) => !w.startsWith('-'))
        .pop() ?? '';
    return `mcp:${basename(last, extname(last)) || 'stdio'}`;
  }
  return basename(ref, extname(ref)) || ref;
};

/** Variant names from library arguments (`variantName`), made unique. */
export const variantNames = (refs: ReadonlyArray<string>): ReadonlyArray<string> => {
  const seen = new Map<string, number>();
  return refs.map((ref) => {
    const name = variantName(ref);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    return n === 1 ? name : `${name}#${n}`;
  });
};

/** The `--model` arguments, `[undefined]` (the agent's model, else offline) when none. */
const modelList = (m: string | ReadonlyArray<string> | undefined): ReadonlyArray<string | undefined> =>
  m === undefined ? [undefined] : typeof m === 'string' ? [m] : m.length === 0 ? [undefined] : m;

/**
 * The possible answers of a BFCL test file, by id: BFCL keeps them in `possible_answer/<the same
 * file name>` beside it. Empty when there is no such file.
 */
const bfclAnswers = async (path: string | undefined): Promise<ReadonlyMap<string, unknown>> => {
  if (path === undefined) return new Map();
  let text: string;
  try {
    text = await readFile(resolve(dirname(path), 'possible_answer', basename(path)), 'utf8');
  } catch {
    return new Map();
  }
  const out = new Map<string, unknown>();
  for (const line of text.split('\n')) {
    try {
      const v = JSON.parse(line) as unknown;
      if (isRecord(v) && (typeof v['id'] === 'string' || typeof v['id'] === 'number')) out.set(String(v['id']), v['ground_truth']);
    } catch {
      // not an answer line
    }
  }
  return out;
};

// -------------------------------------------------------------------------------------------------
// action
// -------------------------------------------------------------------------------------------------

export const action = async (ctx: CommandContext, file: string, options: AbCommandOptions): Promise<number> => {
  const { io } = ctx;
  const usage = (text: string): number => {
    usageError(io, text);
    return EXIT_USAGE;
  };
  const refs = options.library ?? [];
  const catalogs = options.catalog ?? [];
  if (refs.length + catalogs.length === 0) return usage('give the libraries to compare: --library a.ts --library b.ts (or catalogs: --catalog DIR|redis://…)');
  if (options.inputs === undefined) return usage('give the inputs: --inputs inputs.jsonl');
  if (options.yes === true && options.deny === true) return usage('--yes and --deny cannot be used together');
  const numbers = positiveIntegers({
    runs: ['--runs', options.runs],
    concurrency: ['--concurrency', options.concurrency],
    maxSteps: ['--max-steps', options.maxSteps],
    timeout: ['--timeout', options.timeout],
  });
  if (!numbers.ok) return usage(numbers.error.message);
  const replayMatch = options.replayMatch;
  if (replayMatch !== undefined && replayMatch !== 'exact' && replayMatch !== 'sequence')
    return usage(`--replay-match is exact or sequence, got ${JSON.stringify(replayMatch)}`);
  if (replayMatch !== undefined && !modelList(options.model).some((m) => m?.startsWith('replay:') === true))
    return usage('--replay-match is for a replay:<file> model (--model replay:<file>)');

  const workspace = await resolveWorkspace(io, options.workspace);
  if (!workspace.ok) {
    reportError(io, workspace.error);
    return EXIT_FAILURE;
  }
  const sources: AgentCatalog[] = [];
  try {
    for (const location of catalogs) {
      const opened = await openAgentCatalog(io, location, workspace.value);
      if (!opened.ok) {
        reportError(io, { ...opened.error, message: `--catalog ${location}: ${opened.error.message}` });
        return EXIT_FAILURE;
      }
      sources.push(opened.value);
    }
    return await experiment(ctx, file, options, { workspacePath: workspace.value, refs, catalogs, sources }, numbers.value);
  } finally {
    for (const s of sources) await s.close();
  }
};

/**
 * The specifications of the experiment: the agent file's own, then each `--spec` file's, in which
 * every tool replaces the agent's tool of the same name. `undefined` (after saying why, for every
 * file at once) when a file does not load or specifies a tool the agent does not use.
 */
const specVariants = async (
  ctx: CommandContext,
  file: string,
  agent: AgentSpecification,
  files: ReadonlyArray<string>,
  known: ReadonlyArray<ToolSpecification>,
): Promise<ReadonlyArray<{ readonly name: string; readonly value: AgentSpecification }> | undefined> => {
  if (files.length === 0) return [];
  const names = variantNames([file, ...files]);
  const out = [{ name: names[0] as string, value: agent }];
  let failed = false;
  for (const [i, f] of files.entries()) {
    const loaded = await loadSpecSource(ctx, f, [...agent.tools, ...known]);
    if (!loaded.ok) {
      failed = true;
      // an unreadable file names the option; diagnostics name their file
      reportError(ctx.io, diagnosticsOf(loaded.error).length > 0 ? loaded.error : { ...loaded.error, message: `--spec ${f}: ${loaded.error.message}` });
      continue;
    }
    const tools = new Map(loaded.value.specs.tools.map((t) => [t.name, t]));
    const unused = [...tools.keys()].filter((name) => !agent.tools.some((t) => t.name === name));
    if (tools.size === 0 || unused.length > 0) {
      failed = true;
      const uses = agent.tools.map((t) => t.name).join(', ');
      usageError(
        ctx.io,
        `--spec ${f}: ${tools.size === 0 ? 'specifies no tool' : `specifies ${unused.join(', ')}, which agent "${agent.name}" does not use`} (it uses ${uses})`,
      );
      continue;
    }
    out.push({ name: names[i + 1] as string, value: { ...agent, tools: agent.tools.map((t) => tools.get(t.name) ?? t) } });
  }
  return failed ? undefined : out;
};

/** The numbers of the command line (agent-setup.ts `positiveIntegers`), each when it is given. */
export type Numbers = Readonly<Partial<Record<'runs' | 'concurrency' | 'maxSteps' | 'timeout', number>>>;

/** Where the variants come from: the workspace, the library arguments, the catalogs and their opened stores. */
export interface Sources {
  readonly workspacePath: string;
  readonly refs: ReadonlyArray<string>;
  readonly catalogs: ReadonlyArray<string>;
  readonly sources: ReadonlyArray<AgentCatalog>;
}

const experiment = async (ctx: CommandContext, file: string, options: AbCommandOptions, from: Sources, numbers: Numbers): Promise<number> => {
  const { io } = ctx;
  const plan = await planExperiment(ctx, file, options, from);
  if (typeof plan === 'number') return plan;
  const { agent, variants } = plan;
  // --out *.jsonl: the runs stream to it as they finish; --resume continues it
  const streaming = options.out !== undefined && extname(options.out).toLowerCase() === '.jsonl';
  if (options.resume === true && !streaming) {
    usageError(io, '--resume continues a results file: give it with --out results.jsonl');
    return EXIT_USAGE;
  }
  let results: ResultsFile | undefined;
  if (streaming && options.out !== undefined) {
    const path = isAbsolute(options.out) ? options.out : resolve(io.cwd, options.out);
    try {
      await mkdir(dirname(path), { recursive: true });
      const header = { agent: agent.name, variants: variants.map((v) => v.name), inputs: plan.inputs.map((x) => x.id ?? ''), runsPerInput: numbers.runs ?? 1 };
      const opened = openResults(path, header, options.resume === true);
      if (!opened.ok) {
        reportError(io, opened.error);
        return EXIT_FAILURE;
      }
      results = opened.value;
    } catch (e) {
      reportError(io, { reason: CliCodes.UNWRITABLE, message: `cannot write ${options.out}: ${e instanceof Error ? e.message : String(e)}` });
      return EXIT_FAILURE;
    }
  }
  // --queue: every run is made by a worker (ab-queue.ts, loaded only then)
  const inputIds = plan.inputs.map((x, i) => x.id ?? String(i + 1));
  const queued =
    options.queue === undefined ? undefined : await (await import('./ab-queue.js')).queueExecutor(options.queue, { file, options, cwd: io.cwd }, inputIds);
  if (queued !== undefined && !queued.ok) {
    reportError(io, { ...queued.error, message: `--queue ${options.queue}: ${queued.error.message}` });
    return EXIT_FAILURE;
  }
  try {
    return await runAndReport(ctx, options, { ...plan, results, streaming, ...(queued !== undefined ? { executor: queued.value.executor } : {}) }, numbers);
  } finally {
    results?.close();
    await queued?.value.close();
  }
};

/** What `planExperiment` makes: everything an experiment needs but its options of running. */
export interface Plan {
  readonly agent: AgentSpecification;
  readonly variants: ReadonlyArray<ExperimentVariant>;
  readonly inputs: ReadonlyArray<ExperimentInput>;
  readonly scorers: Readonly<Record<string, ExperimentScorer>>;
}

/**
 * The agent, variants, inputs, models and scorers of `gramkit ab`'s arguments (a worker makes the
 * same from a job's), or the exit code when they do not load (the reasons on stderr).
 */
export const planExperiment = async (
  ctx: CommandContext,
  file: string,
  options: AbCommandOptions,
  { workspacePath, refs, catalogs, sources }: Sources,
): Promise<Plan | number> => {
  const { io } = ctx;
  const known = sources.flatMap((s) => s.specifications);
  const loaded = await loadAgent(ctx, file, options.agent, known);
  if (!loaded.ok) return reportSetup(io, loaded.error);
  const agent = loaded.value.agent;
  if (options.inputs === undefined) return EXIT_USAGE;

  const inputsFile = await loadSource(io, options.inputs);
  if (!inputsFile.ok) {
    reportError(io, inputsFile.error);
    return EXIT_FAILURE;
  }
  const parsed = parseInputs(inputsFile.value.text, await bfclAnswers(inputsFile.value.path));
  if (parsed.problems.length > 0 || parsed.inputs.length === 0) {
    const problems = parsed.problems.length > 0 ? parsed.problems : ['no inputs (one JSON line per message)'];
    usageError(io, `${inputsFile.value.name}: ${problems.join('\n  ')}`);
    return EXIT_FAILURE;
  }

  const names = variantNames([...refs, ...catalogs.map((c) => c.replace(/\/+$/, ''))]);
  const libraries: Array<{ readonly name: string; readonly library: ToolLibrary }> = [];
  for (const [i, ref] of refs.entries()) {
    const library = await agentLibrary(ctx, loaded.value, [ref], workspacePath);
    if (!library.ok) return reportSetup(io, library.error);
    libraries.push({ name: names[i] as string, library: library.value });
  }
  for (const [i, source] of sources.entries()) {
    const library = await agentLibrary(ctx, loaded.value, [], workspacePath, await catalogLibrary(source, agent));
    if (!library.ok) return reportSetup(io, library.error);
    libraries.push({ name: names[refs.length + i] as string, library: library.value });
  }
  const specs = await specVariants(ctx, file, agent, options.spec ?? [], known);
  if (specs === undefined) return EXIT_FAILURE;
  // the variants are the product of the specifications, the libraries and the models, named by the parts that vary
  const modelArgs = modelList(options.model);
  const replayMatch = options.replayMatch;
  const fresh = replayMatch === 'sequence';
  const cacheDir = options.cache === undefined ? undefined : isAbsolute(options.cache) ? options.cache : resolve(io.cwd, options.cache);
  const cached = (m: Model): Model => (cacheDir === undefined ? m : cachedModel(m, cacheDir));
  const scripted = parsed.scripts.some((s) => s !== undefined);
  const modelNames = variantNames(
    modelArgs.map((m) => (m === undefined ? 'default' : m.startsWith('replay:') ? `replay:${basename(m.slice(7), extname(m))}` : m)).map((m) => `${m}.x`),
  );
  const models: Array<{ readonly name: string; readonly value: Model | ((key: ExperimentRunKey) => Model) }> = [];
  for (const [j, m] of modelArgs.entries()) {
    const choice: ModelChoice = {
      ...(m !== undefined ? { model: m } : {}),
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(replayMatch === 'exact' || replayMatch === 'sequence' ? { replayMatch } : {}),
    };
    const model = agentModel(ctx, agent, choice);
    if (!model.ok) return reportSetup(io, model.error);
    const shared = cached(model.value);
    // a replay by sequence starts over in each run; scripted calls come before the model's answer
    const perRun = (key: ExperimentRunKey): Model => {
      const base = fresh ? cached(((x) => (x.ok ? x.value : shared))(agentModel(ctx, agent, choice))) : shared;
      const steps = parsed.scripts[key.input];
      return steps !== undefined ? withScriptedCalls(steps, base) : base;
    };
    models.push({ name: modelNames[j] as string, value: fresh || scripted ? perRun : shared });
  }
  const parts = { specs, libraries: libraries.map((l) => ({ name: l.name, value: l.library })), models };
  const variants = experimentVariants(parts);
  const loadedScorers = await loadScorers(io.cwd, options.scorer ?? []);
  if (loadedScorers.problems.length > 0) {
    usageError(io, `${loadedScorers.problems.join('\n  ')}`);
    return EXIT_FAILURE;
  }
  return { agent, variants, inputs: parsed.inputs, scorers: loadedScorers.scorers };
};

interface Planned extends Plan {
  readonly results: ResultsFile | undefined;
  readonly streaming: boolean;
  readonly executor?: ExperimentExecutor;
}

/** How the runs of `gramkit ab` (and of a worker, with its own `--yes`) are made: policies, approvals, limits. */
export const runOptionsOf = (ctx: CommandContext, options: Pick<AbCommandOptions, 'yes'>, { runs, concurrency, maxSteps, timeout }: Numbers) => ({
  policies: commandPolicies(ctx.io.env),
  // --yes approves every call that needs approval; without it, each is refused (no one to ask)
  approve: chooseApprover({ yes: options.yes === true, deny: options.yes !== true }).approver ?? denyAll,
  ...(runs !== undefined ? { runs } : {}),
  ...(concurrency !== undefined ? { concurrency } : {}),
  ...(maxSteps !== undefined ? { maxSteps } : {}),
  ...(timeout !== undefined ? { maxDurationMs: timeout } : {}),
});

const runAndReport = async (ctx: CommandContext, options: AbCommandOptions, planned: Planned, numbers: Numbers): Promise<number> => {
  const { runs } = numbers;
  const { io } = ctx;
  const { agent, variants, results } = planned;
  const total = planned.inputs.length * (runs ?? 1) * variants.length;
  const bar = io.isTTY && options.json !== true ? progressBar(io.stderr, total, results?.done.length ?? 0) : undefined;

  const result = await runExperiment({
    agent,
    variants,
    inputs: planned.inputs,
    scorers: planned.scorers,
    ...(results !== undefined ? { done: results.done } : {}),
    // streamed runs are in the file: the experiment keeps only what its summaries need
    keepRuns: results === undefined,
    onRun: (run) => {
      results?.append(run);
      bar?.onRun(run);
    },
    ...runOptionsOf(ctx, options, numbers),
    // with a queue, every run is on it at once: the workers' concurrency is what limits them
    ...(planned.executor !== undefined ? { executor: planned.executor, concurrency: total } : {}),
  });
  bar?.end();
  if (!result.ok) {
    const report = (result.error.details as { variants?: ReadonlyArray<{ variant: string; report?: string }> } | undefined)?.variants;
    io.stderr(`${formatAgentError(result.error)}\n${(report ?? []).map((r) => (r.report !== undefined ? `${r.variant}:\n${r.report}\n` : '')).join('')}`);
    return EXIT_FAILURE;
  }
  // the file ends with the report: gramkit serve --experiments shows it
  results?.finish(result.value);
  const streamedRuns = results !== undefined && (options.json === true || options.report !== undefined) ? results.runs() : undefined;
  const report = streamedRuns !== undefined && options.json === true ? { ...result.value, results: streamedRuns } : result.value;
  const json = `${JSON.stringify({ ...report, columns: EXPERIMENT_COLUMNS }, null, 2)}\n`;
  const writeOut = async (file: string, text: string): Promise<boolean> => {
    const path = isAbsolute(file) ? file : resolve(io.cwd, file);
    try {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, text, 'utf8');
      await rename(tmp, path);
      return true;
    } catch (e) {
      reportError(io, { reason: CliCodes.UNWRITABLE, message: `cannot write ${file}: ${e instanceof Error ? e.message : String(e)}` });
      return false;
    }
  };
  if (options.out !== undefined && !planned.streaming && !(await writeOut(options.out, json))) return EXIT_FAILURE;
  if (options.report !== undefined && !(await writeOut(options.report, experimentHtml(result.value, streamedRuns ?? result.value.results))))
    return EXIT_FAILURE;
  if (options.json === true) io.stdout(json);
  else {
    io.stdout(formatExperimentReport(result.value));
    if (options.out !== undefined) io.stdout(`report written to ${options.out}\n`);
    if (options.report !== undefined) io.stdout(`HTML report written to ${options.report}\n`);
  }
  return EXIT_OK;
};
