/**
 * `runAgent(agent, library, input, options)`: binds the agent's tools to the library (every
 * failure at once, as a `CONFIGURATION_ERROR`), sends the instruction, the conversation and the
 * tool definitions to the model, runs the tool calls it asks for, sends the results back, and
 * repeats until the model answers or a stop condition holds.
 *
 * Result: `{ok: true, value: {content, toolsUsed, messages, usage, trace, ...}}` or
 * `{ok: false, error: {code, message, partial?}}` — the shape of `invoke` and `Model.generate`,
 * never a rejection. `runAgentTask` gives the same as an fp-ts `TaskEither` for composition.
 */
import { AgentCodes } from './codes.js';
import type { TaskEither } from '../core/either.js';
import { err, ok, type Result, toTaskEither } from '../core/result.js';
import type { ToolLibrary } from '../library/tool-library.js';
import type { AgentSpecification } from '../specification/agent-spec.js';
import { agentError, configurationError, type AgentError } from './agent-error.js';
import { bindAgent, type BoundAgent } from './bind-agent.js';
import { type CheckedConversation, checkConversation } from './conversation.js';
import { runLoop } from './loop.js';
import type { AgentFailure, AgentInput, AgentResult, AgentRun, RunAgentOptions } from './run-types.js';
import { isLeft } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// checking the call
// -------------------------------------------------------------------------------------------------

const positive = (name: string, v: unknown, integer: boolean): AgentError | undefined =>
  v === undefined || (typeof v === 'number' && Number.isFinite(v) && v > 0 && (!integer || Number.isInteger(v)))
    ? undefined
    : configurationError(`${name} must be a positive ${integer ? 'whole number' : 'number'}, got ${JSON.stringify(v) ?? String(v)}`);

/** What is wrong with the options, if anything. */
export const checkRunOptions = (options: RunAgentOptions): AgentError | undefined => {
  if (typeof options !== 'object' || options === null) return configurationError('runAgent needs options with a model');
  const m = options.model as unknown;
  if (typeof m !== 'object' || m === null || typeof (m as { generate?: unknown }).generate !== 'function' || typeof (m as { id?: unknown }).id !== 'string') {
    return configurationError('options.model must be a Model {id, generate(request)}', {
      hint: "create one with createModel('offline') or createModel('openai/gpt-4o-mini', {apiKey})",
    });
  }
  return (
    positive('maxSteps', options.maxSteps, true) ??
    positive('maxDurationMs', options.maxDurationMs, false) ??
    positive('toolTimeoutMs', options.toolTimeoutMs, false) ??
    positive('maxToolCallsPerTurn', options.maxToolCallsPerTurn, true) ??
    positive('toolConcurrency', options.toolConcurrency, true) ??
    positive('maxTokens', options.maxTokens, true) ??
    (options.onEvent !== undefined && typeof options.onEvent !== 'function' ? configurationError('onEvent must be a function') : undefined) ??
    (options.approve !== undefined && typeof options.approve !== 'function'
      ? configurationError('approve must be a function (request) => Promise<{approved}>')
      : undefined)
  );
};

/** The conversation a run starts from: a message, or a saved conversation to continue. */
export const startingConversation = (input: AgentInput): Result<CheckedConversation, AgentError> => {
  if (typeof input === 'string') {
    if (input.trim() === '') return err(agentError(AgentCodes.INVALID_CONVERSATION, 'the message is empty: say something to the agent'));
    return ok({ messages: [{ role: 'user', content: input }], pending: [], answered: new Set() });
  }
  return checkConversation(input);
};

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

const failure = (error: AgentFailure): AgentResult => err(error);

/** Runs an agent already bound to its library (`bindAgent`): for many runs over one binding. Never rejects. */
export const runBoundAgent = async (bound: BoundAgent, input: AgentInput, options: RunAgentOptions): Promise<AgentResult> => {
  try {
    const bad = checkRunOptions(options);
    if (bad !== undefined) return failure(bad);
    const conversation = startingConversation(input);
    if (!conversation.ok) return failure(conversation.error);
    if (options.signal?.aborted === true) {
      return failure({ ...agentError(AgentCodes.CANCELLED, 'the run was cancelled before it started') });
    }
    return await runLoop(bound, conversation.value, options);
  } catch (e) {
    return failure(agentError(AgentCodes.INTERNAL_ERROR, `the run failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};

/**
 * Runs `agent` against `library` on `input` (a message, or a conversation to continue: a previous
 * run's `messages` with a new user message, see `continueConversation`). Never rejects.
 */
export const runAgent = async (agent: AgentSpecification, library: ToolLibrary, input: AgentInput, options: RunAgentOptions): Promise<AgentResult> => {
  const bad = checkRunOptions(options);
  if (bad !== undefined) return failure(bad);
  const bound = bindAgent(agent, library);
  if (isLeft(bound)) return failure(bound.left);
  return runBoundAgent(bound.right, input, options);
};

/** `runAgent` as a `TaskEither<AgentFailure, AgentRun>`, for composing with fp-ts at the edge. */
export const runAgentTask = (
  agent: AgentSpecification,
  library: ToolLibrary,
  input: AgentInput,
  options: RunAgentOptions,
): TaskEither<AgentFailure, AgentRun> => toTaskEither(() => runAgent(agent, library, input, options));
