/**
 * Why an agent run ended without an answer. Tool failures never end a run (they are results the
 * model reads); an `AgentError` comes from the model or its transport, from the configuration,
 * from the conversation given, or from a stop condition (steps, time, cancellation).
 *
 * Nothing done before the error is lost: a run's error (`AgentFailure`, run-types.ts) adds
 * `partial`, the conversation, the tool calls, the usage and the trace up to that point.
 */
import type { ModelError } from './model.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const AgentErrorCodes = {
  /** The model's API answered with an error (after the provider's retries), or its transport failed. */
  LLM_API_ERROR: 'LLM_API_ERROR',
  /** Something is wrong before anything runs: tools that do not bind, a missing key, bad options. */
  CONFIGURATION_ERROR: 'CONFIGURATION_ERROR',
  /** The model kept calling tools for `maxSteps` model calls without answering. */
  MAX_STEPS: 'MAX_STEPS',
  /** The run took longer than `maxDurationMs`, or the model call timed out. */
  TIMEOUT: 'TIMEOUT',
  /** The caller aborted the run. */
  CANCELLED: 'CANCELLED',
  /** The model's API kept answering 429 after the provider's retries. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The model's answer could not be read. */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** The model's streamed answer was cut before its end marker; nothing of it was used (retryable). */
  STREAM_INTERRUPTED: 'STREAM_INTERRUPTED',
  /** A replayed model got a request its recording does not have. */
  REPLAY_MISMATCH: 'REPLAY_MISMATCH',
  /** The conversation given to the run is not one a model can continue (details: where). */
  INVALID_CONVERSATION: 'INVALID_CONVERSATION',
  /** A caller's stop condition ended the run. */
  STOPPED: 'STOPPED',
  /** A bug (in gramkit or a callback it was given) ended the run; what it did is kept. */
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

export type AgentErrorCode = (typeof AgentErrorCodes)[keyof typeof AgentErrorCodes];

export interface AgentError {
  readonly code: AgentErrorCode;
  /** One line a person can act on. */
  readonly message: string;
  /** What to do about it, when there is something to say. */
  readonly hint?: string;
  /** The HTTP status, when the model's API gave one. */
  readonly status?: number;
  /** Whether running again may succeed (rate limits, timeouts, server errors). */
  readonly retryable: boolean;
  readonly details?: unknown;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const agentError = (
  code: AgentErrorCode,
  message: string,
  options: { readonly hint?: string; readonly status?: number; readonly retryable?: boolean; readonly details?: unknown } = {},
): AgentError => ({
  code,
  message,
  ...(options.hint !== undefined ? { hint: options.hint } : {}),
  ...(options.status !== undefined ? { status: options.status } : {}),
  retryable: options.retryable ?? false,
  ...(options.details !== undefined ? { details: options.details } : {}),
});

export const configurationError = (message: string, options: { readonly hint?: string; readonly details?: unknown } = {}): AgentError =>
  agentError('CONFIGURATION_ERROR', message, options);

/** A model's failure as the run's error: same code (all model codes are agent codes), status and details. */
export const fromModelError = (e: ModelError): AgentError =>
  agentError(e.code, e.message, {
    retryable: e.retryable,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(e.code === 'CONFIGURATION_ERROR' ? { hint: configurationHint(e.message) } : {}),
  });

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const configurationHint = (message: string): string =>
  /api key/i.test(message)
    ? 'set the key in the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY), or use the offline demo model (--model offline)'
    : 'check the model id and its options';

/** `error[CODE]: message` and the hint on a second line, for people. */
export const formatAgentError = (e: AgentError): string =>
  `error[${e.code}]: ${e.message}${e.status !== undefined && !e.message.includes(String(e.status)) ? ` (HTTP ${e.status})` : ''}${e.hint !== undefined ? `\n  hint: ${e.hint}` : ''}`;
