/**
 * One tool call of the model, from the call to the message that answers it. Every failure is a
 * result the model reads, never an exception:
 *
 * 1. a tool the agent does not have: `TOOL_NOT_BOUND`, listing the ones it has;
 * 2. arguments that are not JSON: `TOOL_INVALID_ARGUMENTS`;
 * 3. the one invoker (library/invoker.ts): arguments validated once (`TOOL_INVALID_ARGUMENTS`), then
 *    the gate step (policy/gate-step.ts: permissions, safety level, rules, then approval): a denial is
 *    `POLICY_DENIED` with the reason; a call that needs approval goes to the `approve` hook (it may
 *    allow, refuse, or change the arguments, which are then validated and checked by the static
 *    policies again); without a hook it is `POLICY_DENIED`, saying approval was needed;
 * 4. the tool on its own copy of the arguments: timeout, cancellation, exceptions, output checks.
 */
import { PolicyCodes } from '../policy/codes.js';
import { ToolCodes } from '../library/codes.js';
import type { Context } from '@opentelemetry/api';
import type { BoundTools } from '../library/bind.js';
import type { InvocationObserver } from '../library/events.js';
import { DEFAULT_TOOL_TIMEOUT_MS, parseArguments } from '../library/invoke.js';
import { copyArguments, createInvoker, type Step } from '../library/invoker.js';
import { fail, type ToolResult } from '../library/result.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import type { GateApproval } from '../policy/gate.js';
import { gateStep } from '../policy/gate-step.js';
import type { AgentEvent } from './events.js';
import type { ToolCall, ToolMessage } from './messages.js';
import { withOtelContext } from './telemetry.js';
import type { SpanHandle, TraceRecorder } from './trace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What a run reports about each tool call, in the order the calls were asked for. */
export interface ToolUse {
  /** The model's call id (the tool message answering it carries the same id). */
  readonly id: string;
  readonly name: string;
  /** The arguments the tool ran with (a person's changes included), or the model's text when it is not JSON. */
  readonly args: unknown;
  readonly result: ToolResult;
  /** The model call (step) that asked for it, from 1. */
  readonly step: number;
  readonly durationMs: number;
  /** Present when the call needed approval. */
  readonly approval?: ToolApproval;
}

/** What happened when a person was (or should have been) asked (the gate's `GateApproval`). */
export type ToolApproval = GateApproval;

/** What executing a call needs from its run. */
export interface ToolCallEnvironment {
  readonly tools: BoundTools;
  readonly policies: Policies;
  readonly approve?: Approver;
  readonly signal?: AbortSignal;
  readonly context?: unknown;
  readonly timeoutMs?: number;
  readonly observer?: InvocationObserver;
  readonly emit: (e: AgentEvent) => void;
  readonly trace: TraceRecorder;
  /** The OpenTelemetry context of the run, when tracing is on (tool spans nest under it). */
  readonly otel?: Context;
}

export interface ExecutedCall {
  readonly use: ToolUse;
  readonly message: ToolMessage;
}

/** Longest `details` (as JSON) sent to the model with an error. */
const MAX_DETAILS_CHARS = 2000;

// -------------------------------------------------------------------------------------------------
// the result as the model reads it
// -------------------------------------------------------------------------------------------------

const errorBody = (r: Extract<ToolResult, { ok: false }>): Record<string, unknown> => {
  const e = r.error;
  let details: unknown;
  if (e.details !== undefined) {
    const text = safeJson(e.details);
    if (text !== undefined && text.length <= MAX_DETAILS_CHARS) details = e.details;
  }
  return { code: e.code, reason: e.reason, message: e.message, retryable: e.retryable, ...(details !== undefined ? { details } : {}) };
};

const safeJson = (v: unknown): string | undefined => {
  try {
    return JSON.stringify(v);
  } catch {
    return undefined;
  }
};

/**
 * The content of the tool message for a result: the value as JSON text, or `{"error": {code,
 * message, retryable, details?}}`. When a person changed the arguments, the model is told so and
 * given them: `{"arguments": …, "argumentsChangedBy": "approver", "result" | "error": …}`.
 */
export const toolResultContent = (result: ToolResult, modifiedArgs?: unknown): string => {
  const body = result.ok ? { result: result.value } : { error: errorBody(result) };
  if (modifiedArgs !== undefined) return safeJson({ arguments: modifiedArgs, argumentsChangedBy: 'approver', ...body }) ?? 'null';
  return (result.ok ? safeJson(result.value) : safeJson(body)) ?? 'null';
};

// -------------------------------------------------------------------------------------------------
// executing a call
// -------------------------------------------------------------------------------------------------

const notFound = (name: string, tools: BoundTools): ToolResult => {
  const available = [...tools.byName.keys()];
  return fail(ToolCodes.NOT_BOUND, `there is no tool "${name}"; the available tools are: ${available.length > 0 ? available.join(', ') : 'none'}`, {
    details: { available },
  });
};

/** Runs one call and builds the message that answers it. Never rejects. */
export const executeToolCall = async (call: ToolCall, step: number, stepSpan: number, env: ToolCallEnvironment): Promise<ExecutedCall> => {
  const t0 = performance.now();
  const span = env.trace.start('tool', call.name, stepSpan, { callId: call.id });
  let args: unknown = call.arguments;
  let approval: ToolApproval | undefined;
  let modified: unknown;
  let result: ToolResult;
  try {
    const parsed = parseArguments(call.arguments);
    if (parsed.ok) args = parsed.value;
    env.emit({ type: 'tool-call-started', step, call, args });
    const bound = env.tools.byName.get(call.name);
    if (bound === undefined) result = notFound(call.name, env.tools);
    else if (!parsed.ok) result = parsed;
    else {
      // the one invoker: the gate (judged when the call starts), then the tool on its own copy of
      // the arguments (a tool that changes them does not rewrite the record)
      const invoker = createInvoker([
        agentGate(call, step, span.id, env, (outcome) => {
          approval = outcome.approval;
          if (outcome.args !== args) {
            modified = outcome.args;
            args = outcome.args;
          }
        }),
        copyArguments,
      ]);
      result = await withOtelContext(env.otel, () =>
        invoker(bound, args, {
          callId: call.id,
          name: call.name,
          defaultTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
          ...(env.signal !== undefined ? { signal: env.signal } : {}),
          ...(env.context !== undefined ? { context: env.context } : {}),
          ...(env.timeoutMs !== undefined ? { timeoutMs: env.timeoutMs } : {}),
          ...(env.observer !== undefined ? { observer: env.observer } : {}),
        }),
      );
    }
  } catch (e) {
    // invoke never rejects; this guards the policies and approver plumbing
    result = fail(ToolCodes.EXECUTION_ERROR, `the call could not be made: ${e instanceof Error ? e.message : String(e)}`);
  }
  const durationMs = performance.now() - t0;
  span.end(result.ok ? 'ok' : 'error', result.ok ? undefined : String(result.error.reason));
  env.emit({ type: 'tool-call-finished', step, call, result, durationMs });
  const use: ToolUse = {
    id: call.id,
    name: call.name,
    args,
    result,
    step,
    durationMs: Math.round(durationMs * 1000) / 1000,
    ...(approval !== undefined ? { approval } : {}),
  };
  const message: ToolMessage = result.ok
    ? { role: 'tool', toolCallId: call.id, toolName: call.name, content: toolResultContent(result, modified) }
    : { role: 'tool', toolCallId: call.id, toolName: call.name, content: toolResultContent(result, modified), isError: true };
  return { use, message };
};

/** The gate step (policy/gate-step.ts) for one call of the model, with the run's events and trace spans. */
const agentGate = (
  call: ToolCall,
  step: number,
  parentSpan: number,
  env: ToolCallEnvironment,
  seen: (outcome: { readonly args: unknown; readonly approval?: GateApproval }) => void,
): Step => {
  let span: SpanHandle | undefined;
  const judge = gateStep({
    policies: env.policies,
    ...(env.approve !== undefined ? { approver: env.approve } : {}),
    onAsk: (request) => {
      span = env.trace.start('approval', call.name, parentSpan, { reason: request.reason });
      env.emit({ type: 'approval-asked', step, callId: call.id, request });
    },
    onAnswer: (request, response) => {
      span?.end(response.approved ? 'ok' : 'error', response.approved ? undefined : PolicyCodes.DENIED, {
        approved: response.approved,
        modified: response.modifiedArgs !== undefined,
      });
      env.emit({ type: 'approval-answered', step, callId: call.id, request, response });
    },
    onOutcome: (_call, outcome) => seen(outcome),
  });
  // approval requests name the call `step:callId`
  return (c, next) =>
    judge({ ...c, options: { ...c.options, callId: `${step}:${call.id}` } }, (changed) =>
      next(changed === undefined ? undefined : { ...changed, options: { ...changed.options, callId: call.id } }),
    );
};
