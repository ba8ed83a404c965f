/**
 * One tool call of the model, from the call to the message that answers it. Every failure is a
 * result the model reads, never an exception:
 *
 * 1. a tool the agent does not have: `TOOL_NOT_FOUND`, listing the ones it has;
 * 2. arguments that are not JSON: `INVALID_ARGUMENTS`;
 * 3. the policies (permissions, safety level, rules, then approval): a denial is `DENIED` with the
 *    reason; a call that needs approval goes to the `approve` hook (it may allow, refuse, or change
 *    the arguments, which are then checked by the static policies again); without a hook it is
 *    `DENIED`, saying approval was needed. Calls whose arguments do not validate are not put to a
 *    person: they fail validation without running;
 * 4. `invoke`: validation, timeout, cancellation, exceptions, output checks.
 */
import type { Context } from '@opentelemetry/api';
import type { BoundTool, BoundTools } from '../library/bind.js';
import type { InvocationObserver } from '../library/events.js';
import { DEFAULT_TOOL_TIMEOUT_MS, invoke, parseArguments } from '../library/invoke.js';
import { fail, type ToolResult } from '../library/result.js';
import type { ApprovalRequest, ApprovalResponse, Approver } from '../policy/approvals.js';
import { deniedResult } from '../policy/decision.js';
import { evaluatePolicies, evaluateStaticPolicies, type Policies } from '../policy/evaluate.js';
import type { AgentEvent } from './events.js';
import type { ToolCall, ToolMessage } from './messages.js';
import { withOtelContext } from './telemetry.js';
import type { TraceRecorder } from './trace.js';

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

export interface ToolApproval {
  readonly reason: string;
  readonly approved: boolean;
  readonly message?: string;
  /** The arguments the model asked for, when a person changed them (`args` holds the new ones). */
  readonly requestedArgs?: unknown;
}

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

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

const errorBody = (r: Extract<ToolResult, { ok: false }>): Record<string, unknown> => {
  const e = r.error;
  let details: unknown;
  if (e.details !== undefined) {
    const text = safeJson(e.details);
    if (text !== undefined && text.length <= MAX_DETAILS_CHARS) details = e.details;
  }
  return { code: e.code, message: e.message, retryable: e.retryable, ...(details !== undefined ? { details } : {}) };
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
  return fail('TOOL_NOT_FOUND', `there is no tool "${name}"; the available tools are: ${available.length > 0 ? available.join(', ') : 'none'}`, {
    details: { available },
  });
};

/** Whether the arguments pass the tool's schema (true when the validators cannot tell: invoke reports it). */
const argumentsValid = (bound: BoundTool, args: unknown): boolean => {
  const v = bound.validators();
  return v._tag === 'Left' ? true : v.right.args.check(args);
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
      const gate = await checkPolicies(bound, call, args, step, span.id, env);
      approval = gate.approval;
      if (gate.args !== args) {
        modified = gate.args;
        args = gate.args;
      }
      if (gate.denied !== undefined) result = gate.denied;
      else {
        // the tool gets its own copy: a tool that changes its arguments does not rewrite the record
        const own = structuredClone(args);
        result = await withOtelContext(env.otel, () =>
          invoke(bound, own, {
            callId: call.id,
            defaultTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
            ...(env.signal !== undefined ? { signal: env.signal } : {}),
            ...(env.context !== undefined ? { context: env.context } : {}),
            ...(env.timeoutMs !== undefined ? { timeoutMs: env.timeoutMs } : {}),
            ...(env.observer !== undefined ? { observer: env.observer } : {}),
          }),
        );
      }
    }
  } catch (e) {
    // invoke never rejects; this guards the policies and approver plumbing
    result = fail('EXECUTION_ERROR', `the call could not be made: ${e instanceof Error ? e.message : String(e)}`);
  }
  const durationMs = performance.now() - t0;
  span.end(result.ok ? 'ok' : 'error', result.ok ? undefined : String(result.error.code));
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

interface Gate {
  /** The arguments to run with (the same object unless a person changed them). */
  readonly args: unknown;
  readonly denied?: ToolResult;
  readonly approval?: ToolApproval;
}

/** Permissions, rules, then approval; a refusal is the `DENIED` result the model reads. */
const checkPolicies = async (bound: BoundTool, call: ToolCall, args: unknown, step: number, parentSpan: number, env: ToolCallEnvironment): Promise<Gate> => {
  const annotations = bound.tool.annotations;
  const stepId = `${step}:${call.id}`;
  const policyCall = {
    tool: call.name,
    args,
    ...(annotations !== undefined ? { annotations } : {}),
    stepId,
    ...(env.context !== undefined ? { context: env.context } : {}),
    ...(env.signal !== undefined ? { signal: env.signal } : {}),
  };
  const decision = await evaluatePolicies(env.policies, policyCall);
  if (decision.kind === 'allow') return { args };
  if (decision.kind === 'deny') return { args, denied: deniedResult(decision) };
  // ask: a call that will fail validation runs nothing, so no one is asked about it
  if (!argumentsValid(bound, args)) return { args };
  if (env.approve === undefined) {
    const reason = `${decision.reason}; this run has no approver, so the call was not made`;
    return { args, denied: fail('DENIED', reason, { details: { source: 'approval', approvalNeeded: true } }), approval: { reason: decision.reason, approved: false, message: 'no approver' } };
  }
  const request: ApprovalRequest = { stepId, tool: call.name, args: isRecord(args) ? args : {}, reason: decision.reason };
  const span = env.trace.start('approval', call.name, parentSpan, { reason: decision.reason });
  env.emit({ type: 'approval-asked', step, callId: call.id, request });
  let response: ApprovalResponse;
  try {
    response = await env.approve(request, env.signal !== undefined ? { signal: env.signal } : {});
    if (typeof response !== 'object' || response === null || typeof response.approved !== 'boolean') {
      response = { approved: false, message: 'the approver gave no answer ({approved: boolean})' };
    }
  } catch (e) {
    response = { approved: false, message: `the approver failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  span.end(response.approved ? 'ok' : 'error', response.approved ? undefined : 'DENIED', { approved: response.approved, modified: response.modifiedArgs !== undefined });
  env.emit({ type: 'approval-answered', step, callId: call.id, request, response });
  const base = { reason: decision.reason, approved: response.approved, ...(response.message !== undefined ? { message: response.message } : {}) };
  if (!response.approved) {
    return {
      args,
      denied: fail('DENIED', `${call.name} was not approved${response.message !== undefined ? `: ${response.message}` : ''}`, { details: { source: 'approval' } }),
      approval: base,
    };
  }
  if (response.modifiedArgs === undefined) return { args, approval: base };
  const changed: unknown = response.modifiedArgs;
  const approval = { ...base, requestedArgs: args };
  // a person may change the arguments, not the limits of the run
  const again = evaluateStaticPolicies(env.policies, { ...policyCall, args: changed });
  if (again.kind === 'deny') {
    return { args: changed, denied: fail('DENIED', `the changed arguments are refused: ${again.reason}`, { details: { source: again.source, ...(again.rules !== undefined ? { rules: again.rules } : {}) } }), approval };
  }
  return { args: changed, approval };
};
