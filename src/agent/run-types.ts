/**
 * The options and the result of a run (`runAgent`). A result is `{ok: true, value: AgentRun}` or
 * `{ok: false, error: AgentError}`, like `invoke`'s `ToolResult` and a model's `ModelResult`: a
 * run never rejects. Everything in it is plain JSON data (a run can be saved, and its `messages`
 * continued later).
 */
import type { Result } from '../core/result.js';
import type { InvocationObserver } from '../library/events.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import type { AgentError } from './agent-error.js';
import type { AgentEventListener } from './events.js';
import type { Message } from './messages.js';
import type { FinishReason, Model, ToolChoice } from './model.js';
import type { StopCondition } from './stop.js';
import type { ToolUse } from './tool-call.js';
import type { AgentTrace } from './trace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RunAgentOptions {
  /** The model to talk to (`createModel('openai/gpt-4o-mini', {apiKey})`, `offlineModel()`, `scriptedModel([...])`). */
  readonly model: Model;
  /** Passed to every tool implementation as `ctx.context` (a workspace, a user id, ...). */
  readonly context?: unknown;
  /** Aborting it ends the run with `CANCELLED` (the model call and running tools are aborted). */
  readonly signal?: AbortSignal;
  /** Most model calls in one run (default 10); beyond, `MAX_STEPS`. */
  readonly maxSteps?: number;
  /** Longest run, in milliseconds; beyond, `TIMEOUT` (the model call and running tools are aborted). */
  readonly maxDurationMs?: number;
  /** More stop conditions, checked before each model call after the built-in ones. */
  readonly stopWhen?: ReadonlyArray<StopCondition>;
  /** Told what happens as it happens (model requests and responses, text deltas, tool calls, approvals). */
  readonly onEvent?: AgentEventListener;
  /** Stream the model's text (`text-delta` events). Default false. */
  readonly stream?: boolean;
  /** Answers calls the policies say need approval; without it such calls are `DENIED`. */
  readonly approve?: Approver;
  /**
   * Permissions, safety rules and approval requirements checked before each call. Default: none
   * but the tools' own approval annotations (built-in tools ask before overwriting or deleting).
   */
  readonly policies?: Policies;
  /** Timeout of each tool call, in milliseconds (default: the tool's own `limits.timeoutMs`). */
  readonly toolTimeoutMs?: number;
  /** Most tool calls run from one model turn (default 16); the calls beyond answer `TOO_MANY_CALLS` without running. */
  readonly maxToolCallsPerTurn?: number;
  /** Most tool calls of a turn running at once (default 4); calls that write or run programs always run one at a time. */
  readonly toolConcurrency?: number;
  /** Receives the invocation events of every tool call (metrics, logs). */
  readonly observer?: InvocationObserver;
  readonly toolChoice?: ToolChoice;
  readonly parallelToolCalls?: boolean;
  readonly maxTokens?: number;
  readonly temperature?: number;
}

export interface AgentUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Model calls made (failed ones included). */
  readonly modelCalls: number;
  readonly toolCalls: number;
}

/** What a run did, whether it answered or not. */
export interface AgentProgress {
  /** The whole conversation: the input, then every assistant turn and tool result (the instruction is not in it). */
  readonly messages: ReadonlyArray<Message>;
  /** Every tool call, in order. */
  readonly toolsUsed: ReadonlyArray<ToolUse>;
  readonly usage: AgentUsage;
  readonly trace: AgentTrace;
  /** Model calls made in this run. */
  readonly steps: number;
}

/** A run that ended with the model's answer. */
export interface AgentRun extends AgentProgress {
  readonly runId: string;
  /** The model's answer: the text of its last turn. */
  readonly content: string;
  readonly finishReason: FinishReason;
  /** The model's id (`offline`, `openai/gpt-4o-mini`). */
  readonly model: string;
}

/** An `AgentError` with what the run did before it stopped. */
export interface AgentFailure extends AgentError {
  readonly partial?: AgentProgress;
}

export type AgentResult = Result<AgentRun, AgentFailure>;

/** What a run starts from: the user's message, or a conversation to continue (a saved run's `messages` plus a new user message). */
export type AgentInput = string | ReadonlyArray<Message>;
