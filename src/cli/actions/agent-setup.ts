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
import type { Reportable } from '../../core/format-error.js';
import { chooseAgent } from '../../project/choose-agent.js';
import { ProjectCodes } from '../../project/codes.js';
import { type CliCode, CliCodes } from '../codes.js';
import { reportError } from '../report.js';
import { isRecord } from '../../core/json.js';
import { isLeft } from '../../core/either.js';
import type { Diagnostic } from '../../core/diagnostic.js';
import { formatDiagnostics } from '../../core/format-diagnostic.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import { resolveLibrary } from '../../project/library.js';
import type { AgentSpecification } from '../../specification/agent-spec.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { Model } from '../../agent/model.js';
import { createModel, MODEL_ID_FORMS, parseModelId } from '../../providers/registry.js';
import { recordModel } from '../../providers/replay.js';
import { type CommandContext, EXIT_FAILURE, EXIT_USAGE } from '../context.js';
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

/** A failure already explained to the user (its coded error or its diagnostics printed); the command exits with `code`. */
export interface Reported {
  readonly code: number;
}

/** A coded failure, rendered by the one renderer (report.ts). */
const reported = (ctx: CommandContext, e: Reportable, code: number = EXIT_FAILURE): Reported => {
  reportError(ctx.io, e);
  return { code };
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
): Promise<Result<LoadedAgent, Reported>> => {
  const loaded = await loadSpecSource(ctx, file, knownTools);
  if (isLeft(loaded)) {
    const f = loaded.left;
    if (f.message !== undefined) return err(reported(ctx, { reason: CliCodes.UNREADABLE, message: f.message }));
    ctx.io.stderr(renderDiagnostics(f.diagnostics, f.source?.text ?? '', f.source?.name ?? file));
    return err({ code: EXIT_FAILURE });
  }
  const { source, specs, header } = loaded.right;
  const warnings = specs.warnings.filter((d) => d.severity === 'warning');
  if (warnings.length > 0) ctx.io.stderr(renderDiagnostics(warnings, source.text, source.name));
  const agent = chooseAgent(loaded.right, agentName);
  if (!agent.ok) return err(reported(ctx, agent.error, agent.error.reason === ProjectCodes.AMBIGUOUS_AGENT ? EXIT_USAGE : EXIT_FAILURE));
  if (header.problem !== undefined) return err(reported(ctx, { reason: CliCodes.INVALID_HEADER, message: `${source.name}: ${header.problem}` }));
  return ok({ agent: agent.value, source, ...(header.library !== undefined ? { headerLibrary: header.library } : {}) });
};

// -------------------------------------------------------------------------------------------------
// the library
// -------------------------------------------------------------------------------------------------

const showDiagnostics = (ctx: CommandContext, ds: ReadonlyArray<Diagnostic>): Reported => {
  ctx.io.stderr(`${formatDiagnostics(ds)}\n`);
  return { code: EXIT_FAILURE };
};

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
): Promise<Result<ToolLibrary, Reported>> =>
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
): Promise<Result<ToolLibrary, Reported>> => {
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
      return err(reported(ctx, failure.error));
    case 'declared':
      return err(showDiagnostics(ctx, failure.diagnostics));
    case 'unimplemented':
      return err(reported(ctx, failure.error));
    case 'builtins':
      return err(reported(ctx, { ...failure.error, message: `web_search: ${failure.error.message}` }, EXIT_USAGE));
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
export const agentModel = (ctx: CommandContext, agent: AgentSpecification, choice: ModelChoice): Result<Model, Reported> => {
  const id = choice.model ?? agent.model ?? 'offline';
  const parsed = parseModelId(id);
  if (isLeft(parsed)) return err(reported(ctx, parsed.left));
  const provider = parsed.right.provider;
  const keyVariable = KEY_VARIABLES[provider];
  if (choice.baseUrl !== undefined && keyVariable === undefined) {
    const message = `--base-url is for openai/<model>, openai-responses/<model>, anthropic/<model> and gemini/<model> models, not ${id}`;
    return err(reported(ctx, { reason: CliCodes.USAGE, message }, EXIT_USAGE));
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
    return err(reported(ctx, { reason: made.left.reason, message: made.left.message, hint }));
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
