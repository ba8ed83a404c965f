/**
 * What `gramkit run` and `gramkit ab` share: loading the agent of a `.gram` file, finding its
 * library, and making its model.
 *
 * - The agent: the file, loaded once (src/project/project-file.ts), and its only agent or
 *   `--agent NAME` (src/project/choose-agent.ts). Its tools may be built-in tools named in the
 *   file (`read_file`, ...).
 * - The library: by the one rule of src/project/library.ts (`--library`, else the file header's
 *   `{library: "..."}`; a catalog's tools, declared tools, built-in tools), each part made here
 *   with the command's context (spec-source.ts's `libraryLoaders`: the project layer's `defaultLoaders`).
 * - The model: `--model`, else the agent's `model` property, else `offline`. A real model without
 *   its key is an `AGENT_CONFIGURATION_ERROR` with a hint, never a silent fallback to the offline model.
 *   Keys come from `OPENAI_API_KEY`, `ANTHROPIC_API_KEY` and `GEMINI_API_KEY` in the CLI's
 *   environment only.
 */
import { chooseAgent } from '../../project/choose-agent.js';
import { ProjectCodes } from '../../project/codes.js';
import { type CliCode, CliCodes } from '../codes.js';
import { reportError } from '../report.js';
import { isRecord } from '../../core/json.js';
import { isLeft } from '../../core/either.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import { resolveLibrary } from '../../project/library.js';
import { diagnosticsError } from '../../project/load-library.js';
import { BuiltinCodes } from '../../tools/builtin/codes.js';
import type { AgentSpecification } from '../../specification/agent-spec.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { Model } from '../../agent/model.js';
import { createModel, MODEL_ID_FORMS, parseModelId } from '../../providers/registry.js';
import { recordModel } from '../../providers/replay.js';
import { type CommandContext, EXIT_FAILURE, EXIT_USAGE } from '../context.js';
import type { CliIO } from '../io.js';
import { renderDiagnostics } from './gram-report.js';
import { libraryLoaders, loadSpecSource, type SpecSource } from './spec-source.js';
import { type CodedError, err, failWith, ok, type Result } from '../../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface LoadedAgent {
  readonly agent: AgentSpecification;
  readonly source: SpecSource;
  /** The header's `library`, resolved to an absolute path, when the file names one. */
  readonly headerLibrary?: string;
}

/**
 * Why the agent, its library or its model cannot be set up: a coded error, printed once by the
 * command (`reportSetup`: report.ts's renderer; a specification file's or a module's diagnostics
 * as diagnostics, from `details.diagnostics`).
 */
export type SetupError = CodedError;

/** The failures that are a command line the command cannot run (exit 2): the rest exit 1. */
const USAGE_REASONS: ReadonlySet<string> = new Set([CliCodes.USAGE, ProjectCodes.AMBIGUOUS_AGENT, BuiltinCodes.NOT_CONFIGURED]);

/** Prints a setup failure (the one renderer) and gives the command's exit code: 2 for a command line it cannot run, else 1. */
export const reportSetup = (io: Pick<CliIO, 'stderr'>, e: SetupError): number => {
  reportError(io, e);
  return USAGE_REASONS.has(e.reason) ? EXIT_USAGE : EXIT_FAILURE;
};

// -------------------------------------------------------------------------------------------------
// the agent
// -------------------------------------------------------------------------------------------------

/** The agent to run from a specification argument (`--agent` picks one when the file has several: src/project/choose-agent.ts). */
export const loadAgent = async (
  ctx: CommandContext,
  file: string,
  agentName: string | undefined,
  knownTools: ReadonlyArray<ToolSpecification> = [],
): Promise<Result<LoadedAgent, SetupError>> => {
  const loaded = await loadSpecSource(ctx, file, knownTools);
  if (!loaded.ok) return loaded;
  const { source, specs, header } = loaded.value;
  const warnings = specs.warnings.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) ctx.io.stderr(renderDiagnostics(warnings, source.text, source.name));
  const agent = chooseAgent(loaded.value, agentName);
  if (!agent.ok) return agent;
  if (header.problem !== undefined) return failWith(CliCodes.INVALID_HEADER, `${source.name}: ${header.problem}`);
  return ok({ agent: agent.value, source, ...(header.library !== undefined ? { headerLibrary: header.library } : {}) });
};

// -------------------------------------------------------------------------------------------------
// the library
// -------------------------------------------------------------------------------------------------

/**
 * The library the agent runs against: `refs` (each a module, `builtin` or an MCP server, joined;
 * the later wins on a shared name), else the header's; plus the built-in tools when the agent uses
 * them.
 */
export const agentLibrary = (
  ctx: CommandContext,
  loaded: LoadedAgent,
  refs: ReadonlyArray<string>,
  workspace: string,
  catalog?: ToolLibrary,
): Promise<Result<ToolLibrary, SetupError>> =>
  toolsLibrary(ctx, loaded.agent.tools, `agent "${loaded.agent.name}"`, loaded.headerLibrary, refs, workspace, catalog);

/**
 * The library implementing `tools` (`what` names them in messages, e.g. `agent "x"`), by the one
 * rule of src/project/library.ts: `refs` (after `source`, the file argument when it is a library
 * itself), else the file header's library; the tools the file declares itself; a catalog's tools;
 * and the built-in tools among them.
 */
export const toolsLibrary = async (
  ctx: CommandContext,
  tools: ReadonlyArray<ToolSpecification>,
  what: string,
  headerLibrary: string | undefined,
  refs: ReadonlyArray<string>,
  workspace: string,
  catalog?: ToolLibrary,
  source?: string,
): Promise<Result<ToolLibrary, SetupError>> => {
  const request = {
    tools,
    what,
    given: refs,
    ...(headerLibrary !== undefined ? { header: headerLibrary } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(catalog !== undefined ? { catalog } : {}),
  };
  const resolved = await resolveLibrary(request, await libraryLoaders(ctx, workspace));
  if (resolved.ok) return ok(resolved.value.library);
  const failure = resolved.error;
  switch (failure.kind) {
    case 'module':
    case 'unimplemented':
      return err(failure.error);
    case 'declared':
      return err(diagnosticsError(failure.diagnostics));
    case 'builtins':
      return err({ ...failure.error, message: `web_search: ${failure.error.message}` });
  }
};

// -------------------------------------------------------------------------------------------------
// the model
// -------------------------------------------------------------------------------------------------

export interface ModelChoice {
  readonly model?: string;
  readonly baseUrl?: string;
  readonly record?: string;
  /** How a `replay:` model matches requests (default `exact`). */
  readonly replayMatch?: 'exact' | 'sequence';
}

const KEY_VARIABLES: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  gemini: 'GEMINI_API_KEY',
};

/** The model: `--model`, else the agent's, else `offline`; with its key from the environment. */
export const agentModel = (ctx: CommandContext, agent: AgentSpecification, choice: ModelChoice): Result<Model, SetupError> => {
  const id = choice.model ?? agent.model ?? 'offline';
  const parsed = parseModelId(id);
  if (isLeft(parsed)) return err(parsed.left);
  const provider = parsed.right.provider;
  const keyVariable = KEY_VARIABLES[provider];
  if (choice.baseUrl !== undefined && keyVariable === undefined) {
    const message = `--base-url is for openai/<model>, openai-responses/<model>, anthropic/<model> and gemini/<model> models, not ${id}`;
    return failWith(CliCodes.USAGE, message);
  }
  const apiKey = keyVariable !== undefined ? ctx.io.env[keyVariable] : undefined;
  const made = createModel(id, {
    cwd: ctx.io.cwd,
    ...(apiKey !== undefined && apiKey !== '' ? { apiKey } : {}),
    ...(choice.baseUrl !== undefined ? { baseUrl: choice.baseUrl } : {}),
    ...(choice.replayMatch !== undefined ? { replayMatch: choice.replayMatch } : {}),
  });
  if (isLeft(made)) {
    const from = choice.model !== undefined ? '--model' : agent.model !== undefined ? `the model property of agent "${agent.name}"` : 'the default';
    // the provider says where it found the problem: a missing key is `details.option: "apiKey"`
    const missingKey = keyVariable !== undefined && isRecord(made.left.details) && made.left.details['option'] === 'apiKey';
    const hint = missingKey
      ? `set ${keyVariable} in the environment, or run the offline demo model with --model offline`
      : `the model comes from ${from}; accepted forms: ${MODEL_ID_FORMS.join(', ')}`;
    return err({ ...made.left, hint });
  }
  return ok(choice.record !== undefined ? recordModel(made.right, choice.record, { cwd: ctx.io.cwd }) : made.right);
};

// -------------------------------------------------------------------------------------------------
// options
// -------------------------------------------------------------------------------------------------

/** A positive whole number from an option (undefined when the option is not given), or a `CLI_USAGE` failure. */
export const positiveInteger = (name: string, text: string | undefined): Result<number | undefined, CodedError<CliCode>> => {
  if (text === undefined) return ok(undefined);
  const n = Number(text);
  return /^\s*\d+\s*$/.test(text) && Number.isInteger(n) && n > 0
    ? ok(n)
    : failWith(CliCodes.USAGE, `${name} must be a positive whole number, got ${JSON.stringify(text)}`);
};

/** Several such options at once: each number given, by its key, or the first option that is not one. */
export const positiveIntegers = <K extends string>(
  options: Readonly<Record<K, readonly [name: string, text: string | undefined]>>,
): Result<Partial<Record<K, number>>, CodedError<CliCode>> => {
  const out: Partial<Record<K, number>> = {};
  for (const key of Object.keys(options) as K[]) {
    const [name, text] = options[key];
    const n = positiveInteger(name, text);
    if (!n.ok) return n;
    if (n.value !== undefined) out[key] = n.value;
  }
  return ok(out);
};
