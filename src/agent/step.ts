/**
 * One step of a run: one model call, then the tool calls it asked for, run concurrently, their
 * results in the order the model asked, each paired with its call id. A model failure is the
 * step's outcome (the loop ends the run with it); tool failures are results.
 */
import { AgentCodes } from './codes.js';
import { codedError, err } from '../core/result.js';
import type { AssistantMessage, Message, ToolCall } from './messages.js';
import type { Model, ModelError, ModelRequest, ModelResponse } from './model.js';
import { endOtelSpan, type OtelSpan, startChatSpan } from './telemetry.js';
import { fail } from '../library/result.js';
import { runsAlone } from '../library/serial.js';
import { DEFAULT_MAX_CALLS_PER_TURN, DEFAULT_TOOL_CONCURRENCY, runScheduled, TOO_MANY_CALLS, type ScheduleOptions } from './schedule.js';
import { type ExecutedCall, executeToolCall, type ToolCallEnvironment, toolResultContent } from './tool-call.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface StepEnvironment extends ToolCallEnvironment {
  readonly model: Model;
  /** Everything of the request but the conversation, the signal and the delta callback. */
  readonly request: Omit<ModelRequest, 'messages' | 'signal' | 'onTextDelta'>;
  /** Stream text deltas to the listener (`text-delta` events). */
  readonly stream: boolean;
  readonly runSpan: number;
  readonly otelRun?: OtelSpan;
  /** Calls per turn and at once (see schedule.ts). */
  readonly schedule?: ScheduleOptions;
}

export type StepOutcome =
  /** The model answered (no tool calls). */
  | { readonly kind: 'answer'; readonly message: AssistantMessage; readonly response: ModelResponse }
  /** The model called tools; `executed` in the order of its calls. */
  | { readonly kind: 'tools'; readonly message: AssistantMessage; readonly response: ModelResponse; readonly executed: ReadonlyArray<ExecutedCall> }
  | { readonly kind: 'error'; readonly error: ModelError };

// -------------------------------------------------------------------------------------------------
// one step
// -------------------------------------------------------------------------------------------------

/**
 * Gives every call of the turn an id no earlier call of the conversation has (providers reject a
 * repeated or empty id, and results are paired by id). Ids that are fine are kept as they are.
 */
export const uniqueCallIds = (message: AssistantMessage, used: Set<string>, step: number): AssistantMessage => {
  const calls = message.toolCalls;
  if (calls === undefined || calls.length === 0) return message;
  let changed = false;
  const fixed = calls.map((c, i): ToolCall => {
    if (typeof c.id === 'string' && c.id !== '' && !used.has(c.id)) {
      used.add(c.id);
      return c;
    }
    changed = true;
    let id = `call_gk_${step}_${i}`;
    for (let n = 2; used.has(id); n++) id = `call_gk_${step}_${i}_${n}`;
    used.add(id);
    return { ...c, id };
  });
  return changed ? { ...message, toolCalls: fixed } : message;
};

/**
 * Runs the calls of a turn as schedule.ts says (reading calls concurrently, calls that change state
 * one at a time in the order asked, each judged by the policies when it starts); results in the
 * order of `calls`. Calls beyond the turn's limit are not run: they answer `TOO_MANY_CALLS`.
 */
export const executeCalls = async (
  calls: ReadonlyArray<ToolCall>,
  step: number,
  stepSpan: number,
  env: ToolCallEnvironment,
  schedule: ScheduleOptions = {},
): Promise<ReadonlyArray<ExecutedCall>> => {
  const max = schedule.maxCallsPerTurn ?? DEFAULT_MAX_CALLS_PER_TURN;
  const run = calls.slice(0, max);
  const alone = (c: ToolCall): boolean => runsAlone(env.tools.byName.get(c.name)?.tool.annotations);
  const executed =
    run.length === 1
      ? [await executeToolCall(run[0] as ToolCall, step, stepSpan, env)]
      : await runScheduled(run, alone, (c) => executeToolCall(c, step, stepSpan, env), schedule.concurrency ?? DEFAULT_TOOL_CONCURRENCY);
  return [...executed, ...calls.slice(max).map((c) => notRun(c, step, max, calls.length, env))];
};

/** The answer to a call beyond the turn's limit: not run, and the model is told why. */
const notRun = (call: ToolCall, step: number, max: number, asked: number, env: ToolCallEnvironment): ExecutedCall => {
  const result = fail(
    TOO_MANY_CALLS,
    `not run: a turn may make at most ${max} tool calls and this one made ${asked}; make the remaining calls in the next turn`,
    {
      details: { maxCallsPerTurn: max },
    },
  );
  env.emit({ type: 'tool-call-started', step, call, args: call.arguments });
  env.emit({ type: 'tool-call-finished', step, call, result, durationMs: 0 });
  return {
    use: { id: call.id, name: call.name, args: call.arguments, result, step, durationMs: 0 },
    message: { role: 'tool', toolCallId: call.id, toolName: call.name, content: toolResultContent(result), isError: true },
  };
};

/** Step `step` (from 1) over `messages`; `usedIds` holds every call id of the conversation (updated). */
export const runStep = async (messages: ReadonlyArray<Message>, step: number, usedIds: Set<string>, env: StepEnvironment): Promise<StepOutcome> => {
  const stepSpan = env.trace.start('step', `step ${step}`, env.runSpan);
  const modelSpan = env.trace.start('model', env.model.id, stepSpan.id);
  const chat = startChatSpan(env.model.id, env.otelRun);
  env.emit({ type: 'model-request', step, messages: messages.length, tools: env.request.tools.length });
  const t0 = performance.now();
  const request: ModelRequest = {
    ...env.request,
    messages,
    ...(env.signal !== undefined ? { signal: env.signal } : {}),
    ...(env.stream ? { onTextDelta: (delta: string) => env.emit({ type: 'text-delta', step, delta }) } : {}),
  };
  let result;
  try {
    result = await env.model.generate(request);
  } catch (e) {
    // a model that breaks its contract (generate must not reject) is still only an error
    result = err(codedError(AgentCodes.LLM_API_ERROR, `the model ${env.model.id} threw: ${e instanceof Error ? e.message : String(e)}`));
  }
  const durationMs = performance.now() - t0;
  if (typeof result !== 'object' || result === null || (result.ok === true && typeof result.value?.message !== 'object')) {
    result = err(codedError(AgentCodes.INVALID_RESPONSE, `the model ${env.model.id} returned no result`));
  }
  if (!result.ok) {
    modelSpan.end('error', result.error.reason);
    stepSpan.end('error', result.error.reason);
    endOtelSpan(chat, result.error.reason);
    env.emit({ type: 'model-error', step, code: result.error.code, reason: result.error.reason, message: result.error.message, durationMs });
    return { kind: 'error', error: result.error };
  }
  const response = result.value;
  const message = uniqueCallIds(response.message, usedIds, step);
  const calls = message.toolCalls ?? [];
  modelSpan.end('ok', undefined, {
    finishReason: response.finishReason,
    inputTokens: response.usage.inputTokens,
    outputTokens: response.usage.outputTokens,
    ...(calls.length > 0 ? { toolCalls: calls.map((c) => c.name).join(',') } : {}),
  });
  endOtelSpan(chat, undefined, {
    'gen_ai.usage.input_tokens': response.usage.inputTokens,
    'gen_ai.usage.output_tokens': response.usage.outputTokens,
    'gen_ai.response.finish_reasons': [response.finishReason],
    ...(response.model !== undefined ? { 'gen_ai.response.model': response.model } : {}),
    ...(response.id !== undefined ? { 'gen_ai.response.id': response.id } : {}),
  });
  env.emit({ type: 'model-response', step, message, finishReason: response.finishReason, usage: response.usage, durationMs });
  if (calls.length === 0) {
    stepSpan.end('ok');
    return { kind: 'answer', message, response };
  }
  const executed = await executeCalls(calls, step, stepSpan.id, env, env.schedule);
  stepSpan.end('ok', undefined, { toolCalls: calls.length, toolErrors: executed.filter((x) => !x.use.result.ok).length });
  return { kind: 'tools', message, response, executed };
};
