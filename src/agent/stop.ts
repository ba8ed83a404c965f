/**
 * Stop conditions: small predicates over the state of a run, checked before each model call. The
 * first that holds ends the run with its code (`MAX_STEPS`, `TIMEOUT`, `CANCELLED`, or `STOPPED`
 * for a caller's own condition); what was done so far stays in the error's `partial`.
 */
import { AgentCodes } from './codes.js';
import type { AgentErrorCode } from './agent-error.js';
import type { Message } from './messages.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What a stop condition sees. */
export interface LoopState {
  /** Model calls made so far in this run. */
  readonly steps: number;
  /** Milliseconds since the run started. */
  readonly elapsedMs: number;
  /** Tool calls made so far in this run. */
  readonly toolCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The conversation so far. */
  readonly messages: ReadonlyArray<Message>;
  readonly signal?: AbortSignal;
}

export interface Stop {
  readonly code: AgentErrorCode;
  readonly message: string;
}

export type StopCondition = (state: LoopState) => Stop | undefined;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Stops once `max` model calls were made (the default run allows 10). */
export const stepLimit =
  (max: number): StopCondition =>
  (s) =>
    s.steps >= max
      ? {
          code: AgentCodes.MAX_STEPS,
          message: `the model was called ${s.steps} time${s.steps === 1 ? '' : 's'} (maxSteps ${max}) and is still calling tools instead of answering`,
        }
      : undefined;

/** Stops once the run has lasted `ms` milliseconds. */
export const timeLimit =
  (ms: number): StopCondition =>
  (s) =>
    s.elapsedMs >= ms ? { code: AgentCodes.TIMEOUT, message: `the run took longer than its limit of ${ms} ms (maxDurationMs)` } : undefined;

/** Stops when the run's signal is aborted. */
export const whenAborted: StopCondition = (s) => (s.signal?.aborted === true ? { code: AgentCodes.CANCELLED, message: 'the run was cancelled' } : undefined);

/** Stops (code `STOPPED`) once the model has used `tokens` input and output tokens in all. */
export const tokenLimit =
  (tokens: number): StopCondition =>
  (s) =>
    s.inputTokens + s.outputTokens >= tokens
      ? { code: AgentCodes.STOPPED, message: `the run used ${s.inputTokens + s.outputTokens} tokens, over its budget of ${tokens}` }
      : undefined;

/** A caller's condition as a predicate: `when(s => s.toolCalls > 20, 'too many tool calls')`. */
export const stopWhen =
  (predicate: (state: LoopState) => boolean, message: string): StopCondition =>
  (s) =>
    predicate(s) ? { code: AgentCodes.STOPPED, message } : undefined;

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/** The first condition that holds, in order; a condition that throws stops the run and says so. */
export const firstStop = (conditions: ReadonlyArray<StopCondition>, state: LoopState): Stop | undefined => {
  for (const c of conditions) {
    let stop: Stop | undefined;
    try {
      stop = c(state);
    } catch (e) {
      return { code: AgentCodes.STOPPED, message: `a stop condition threw: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (stop !== undefined) return stop;
  }
  return undefined;
};
