/**
 * Why an agent run ended without an answer. Tool failures never end a run (they are results the
 * model reads); an `AgentError` comes from the model or its transport, from the configuration,
 * from the conversation given, or from a stop condition (steps, time, cancellation).
 *
 * Nothing done before the error is lost: a run's error (`AgentFailure`, run-types.ts) adds
 * `partial`, the conversation, the tool calls, the usage and the trace up to that point.
 */
import { canonicalOf } from '../core/codes.js';
import { formatError } from '../core/format-error.js';
import type { CodedError } from '../core/result.js';
import { type AgentCode, AgentCodes } from './codes.js';
import type { ModelError } from './model.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Why a run ended: an agent code (the model codes included). */
export type AgentErrorCode = AgentCode;

/** A coded error (core/result.ts) with the HTTP status, when the model's API gave one. */
export interface AgentError extends CodedError<AgentErrorCode> {
  /** The HTTP status, when the model's API gave one. */
  readonly status?: number;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const agentError = (
  reason: AgentErrorCode,
  message: string,
  options: { readonly hint?: string; readonly status?: number; readonly retryable?: boolean; readonly details?: unknown } = {},
): AgentError => ({
  code: canonicalOf(reason),
  reason,
  message,
  ...(options.hint !== undefined ? { hint: options.hint } : {}),
  ...(options.status !== undefined ? { status: options.status } : {}),
  retryable: options.retryable ?? false,
  ...(options.details !== undefined ? { details: options.details } : {}),
});

export const configurationError = (message: string, options: { readonly hint?: string; readonly details?: unknown } = {}): AgentError =>
  agentError(AgentCodes.CONFIGURATION_ERROR, message, options);

/** A model's failure as the run's error: same code (all model codes are agent codes), status, details and hint. */
export const fromModelError = (e: ModelError): AgentError =>
  agentError(e.reason, e.message, {
    retryable: e.retryable,
    ...(e.status !== undefined ? { status: e.status } : {}),
    ...(e.details !== undefined ? { details: e.details } : {}),
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
  });

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/**
 * `error[REASON]: message` (the precise code) and, on a second line, the hint: the one the
 * detecting site gave, else the one of the code's registry entry.
 */
export const formatAgentError = (e: AgentError): string =>
  formatError({
    reason: e.reason,
    message: `${e.message}${e.status !== undefined && !e.message.includes(String(e.status)) ? ` (HTTP ${e.status})` : ''}`,
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
  });
