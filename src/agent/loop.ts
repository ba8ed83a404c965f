/**
 * The loop: check the stop conditions, make a step, append the assistant turn and the tool
 * results to the conversation, and again, until the model answers (the run's result) or a stop
 * condition holds or the model fails (an `AgentError` with what was done so far).
 *
 * A conversation whose last assistant turn has calls without results (an interrupted run) is
 * resumed by executing those calls first.
 */
import { err, ok } from '../core/result.js';
import { AgentCodes } from './codes.js';
import { callId } from '../core/call-id.js';
import { agentError, fromModelError, type AgentError } from './agent-error.js';
import type { BoundAgent } from './bind-agent.js';
import type { CheckedConversation } from './conversation.js';
import { eventEmitter } from './events.js';
import type { Message } from './messages.js';
import type { ModelRequest } from './model.js';
import type { AgentFailure, AgentProgress, AgentResult, AgentUsage, RunAgentOptions } from './run-types.js';
import { executeCalls, runStep, type StepEnvironment } from './step.js';
import { firstStop, type LoopState, type Stop, type StopCondition, stepLimit, timeLimit, whenAborted } from './stop.js';
import { endOtelSpan, startRunSpan } from './telemetry.js';
import type { ToolUse } from './tool-call.js';
import { traceRecorder } from './trace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const DEFAULT_MAX_STEPS = 10;

/** The run's signal: the caller's, joined with the deadline of `maxDurationMs` when there is one. */
interface RunSignal {
  readonly signal: AbortSignal | undefined;
  readonly deadlineHit: () => boolean;
  readonly dispose: () => void;
}

const runSignal = (caller: AbortSignal | undefined, maxDurationMs: number | undefined): RunSignal => {
  if (maxDurationMs === undefined) return { signal: caller, deadlineHit: () => false, dispose: () => undefined };
  const controller = new AbortController();
  let hit = false;
  const timer = setTimeout(() => {
    hit = true;
    controller.abort(new DOMException(`the run took longer than ${maxDurationMs} ms`, 'TimeoutError'));
  }, maxDurationMs);
  const onAbort = (): void => controller.abort(caller?.reason);
  if (caller !== undefined) {
    if (caller.aborted) onAbort();
    else caller.addEventListener('abort', onAbort, { once: true });
  }
  return {
    signal: controller.signal,
    deadlineHit: () => hit,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
};

// -------------------------------------------------------------------------------------------------
// the loop
// -------------------------------------------------------------------------------------------------

/** Runs `bound` from a checked conversation. Options are assumed checked (`runAgent` checks them). Never rejects. */
export const runLoop = async (bound: BoundAgent, conversation: CheckedConversation, options: RunAgentOptions): Promise<AgentResult> => {
  const agent = bound.agent;
  const model = options.model;
  const runId = callId();
  const started = performance.now();
  const trace = traceRecorder(runId, agent.name, model.id);
  const events = eventEmitter(options.onEvent);
  const runSpan = trace.start('run', agent.name, undefined, { model: model.id });
  const otelRun = startRunSpan(agent.name, model.id);
  const rs = runSignal(options.signal, options.maxDurationMs);

  const messages: Message[] = [...conversation.messages];
  const usedIds = new Set<string>();
  for (const m of messages) if (m.role === 'assistant') for (const c of m.toolCalls ?? []) usedIds.add(c.id);
  const toolsUsed: ToolUse[] = [];
  let steps = 0;
  let inputTokens = 0;
  let outputTokens = 0;

  const request: Omit<ModelRequest, 'messages' | 'signal' | 'onTextDelta'> = {
    system: agent.instruction,
    tools: bound.definitions,
    ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
    ...(options.parallelToolCalls !== undefined ? { parallelToolCalls: options.parallelToolCalls } : {}),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
  };
  const env: StepEnvironment = {
    model,
    request,
    stream: options.stream === true && events.active,
    runSpan: runSpan.id,
    ...(otelRun !== undefined ? { otelRun, otel: otelRun.context } : {}),
    tools: bound.tools,
    policies: options.policies ?? {},
    ...(options.approve !== undefined ? { approve: options.approve } : {}),
    ...(rs.signal !== undefined ? { signal: rs.signal } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.toolTimeoutMs !== undefined ? { timeoutMs: options.toolTimeoutMs } : {}),
    ...(options.observer !== undefined ? { observer: options.observer } : {}),
    schedule: {
      ...(options.maxToolCallsPerTurn !== undefined ? { maxCallsPerTurn: options.maxToolCallsPerTurn } : {}),
      ...(options.toolConcurrency !== undefined ? { concurrency: options.toolConcurrency } : {}),
    },
    emit: events.emit,
    trace,
  };
  const interruptions: StopCondition[] = [...(options.maxDurationMs !== undefined ? [timeLimit(options.maxDurationMs)] : []), whenAborted];
  const conditions: StopCondition[] = [...interruptions, stepLimit(options.maxSteps ?? DEFAULT_MAX_STEPS), ...(options.stopWhen ?? [])];
  const usage = (): AgentUsage => ({ inputTokens, outputTokens, modelCalls: steps, toolCalls: toolsUsed.length });
  const progress = (): AgentProgress => ({
    messages: [...messages],
    toolsUsed: [...toolsUsed],
    usage: usage(),
    trace: trace.snapshot(events.failures()),
    steps,
  });
  const state = (): LoopState => ({
    steps,
    elapsedMs: performance.now() - started,
    toolCalls: toolsUsed.length,
    inputTokens,
    outputTokens,
    messages,
    ...(rs.signal !== undefined ? { signal: rs.signal } : {}),
  });

  const finish = (error: AgentError | undefined): void => {
    runSpan.end(error === undefined ? 'ok' : 'error', error?.reason, { steps, toolCalls: toolsUsed.length });
    endOtelSpan(otelRun, error?.reason, { 'gen_ai.usage.input_tokens': inputTokens, 'gen_ai.usage.output_tokens': outputTokens });
    rs.dispose();
    events.emit({
      type: 'run-finished',
      runId,
      ok: error === undefined,
      ...(error !== undefined ? { code: error.code, reason: error.reason } : {}),
      steps,
      durationMs: performance.now() - started,
    });
  };
  const failed = (error: AgentError): AgentResult => {
    // the deadline aborts what runs: a cancellation caused by it is the run's timeout
    const e =
      error.reason === AgentCodes.CANCELLED && rs.deadlineHit()
        ? agentError(AgentCodes.TIMEOUT, `the run took longer than its limit of ${options.maxDurationMs} ms (maxDurationMs)`, { retryable: true })
        : error;
    finish(e);
    const failure: AgentFailure = { ...e, partial: progress() };
    return err(failure);
  };
  const stopped = (s: Stop): AgentResult => failed(agentError(s.code, s.message, { retryable: s.code === AgentCodes.TIMEOUT }));
  const addCalls = (executed: ReadonlyArray<{ readonly use: ToolUse; readonly message: Message }>): void => {
    for (const x of executed) {
      messages.push(x.message);
      toolsUsed.push(x.use);
    }
  };

  events.emit({ type: 'run-started', runId, agent: agent.name, model: model.id, startedAt: trace.snapshot().startedAt });
  try {
    if (conversation.pending.length > 0) {
      const stop = firstStop(interruptions, state());
      if (stop !== undefined) return stopped(stop);
      const span = trace.start('step', 'resume', runSpan.id, { pendingCalls: conversation.pending.length });
      addCalls(await executeCalls(conversation.pending, 0, span.id, env));
      span.end('ok');
    }
    for (;;) {
      const stop = firstStop(conditions, state());
      if (stop !== undefined) return stopped(stop);
      steps++;
      // a copy: a model may keep its request (recorders, mocks), and the conversation grows after it
      const outcome = await runStep(messages.slice(), steps, usedIds, env);
      if (outcome.kind === 'error') return failed(fromModelError(outcome.error));
      inputTokens += outcome.response.usage.inputTokens;
      outputTokens += outcome.response.usage.outputTokens;
      messages.push(outcome.message);
      if (outcome.kind === 'answer') {
        finish(undefined);
        return ok({
          runId,
          content: outcome.message.content,
          finishReason: outcome.response.finishReason,
          model: model.id,
          ...progress(),
        });
      }
      addCalls(outcome.executed);
    }
  } catch (e) {
    // every part above is built not to throw; if one does, the run still ends with data, not a rejection
    return failed(agentError(AgentCodes.INTERNAL_ERROR, `the run failed unexpectedly: ${e instanceof Error ? e.message : String(e)}`));
  }
};
