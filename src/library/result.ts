/**
 * The result of invoking a tool. Tool failures are data for the model, never exceptions: every
 * error has a stable code, a message a model can act on, and whether retrying can help.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Stable error codes. Implementations may use their own codes too (any SCREAMING_SNAKE string). */
export const ToolErrorCodes = {
  /** The arguments do not validate against the tool's schema (details: the paths). */
  INVALID_ARGUMENTS: 'INVALID_ARGUMENTS',
  /** The implementation returned a value that does not validate against the output schema. */
  INVALID_OUTPUT: 'INVALID_OUTPUT',
  /** The call took longer than its timeout; its signal was aborted. */
  TIMEOUT: 'TIMEOUT',
  /** The caller aborted the call. */
  CANCELLED: 'CANCELLED',
  /** The implementation threw or rejected. */
  EXECUTION_ERROR: 'EXECUTION_ERROR',
  /** No tool of that name is bound. */
  TOOL_NOT_FOUND: 'TOOL_NOT_FOUND',
  /** A policy (approval, rule, permission) refused the call. */
  DENIED: 'DENIED',
  /** A path outside the workspace, or malformed. */
  INVALID_PATH: 'INVALID_PATH',
  FILE_NOT_FOUND: 'FILE_NOT_FOUND',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** The result (or a response, or an output) is larger than the tool's limit. */
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
  /** The tool's calls-per-minute limit is reached. */
  RATE_LIMITED: 'RATE_LIMITED',
  /** The tool's argument or output schema cannot be compiled (reported on the first call). */
  INVALID_SCHEMA: 'INVALID_SCHEMA',
  /** The caller's invocation options are unusable (a negative timeout, a value that is not a bound tool). */
  INVALID_OPTIONS: 'INVALID_OPTIONS',
} as const;

export type ToolErrorCode = (typeof ToolErrorCodes)[keyof typeof ToolErrorCodes] | (string & {});

export interface ToolError {
  readonly code: ToolErrorCode;
  readonly message: string;
  readonly details?: unknown;
  /** Whether the same call may succeed if tried again (timeouts, rate limits, transient I/O). */
  readonly retryable: boolean;
}

export type ToolResult<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ToolError };

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const ok = <T>(value: T): ToolResult<T> => ({ ok: true, value });

export const fail = (
  code: ToolErrorCode,
  message: string,
  options: { readonly details?: unknown; readonly retryable?: boolean } = {},
): ToolResult<never> => ({
  ok: false,
  error: {
    code,
    message,
    ...(options.details !== undefined ? { details: options.details } : {}),
    retryable: options.retryable ?? false,
  },
});

/**
 * What an implementation throws to fail with a specific code (`FILE_NOT_FOUND`, ...). Anything else
 * it throws becomes `EXECUTION_ERROR` with the thrown message.
 */
export class ToolFailure extends Error {
  readonly code: ToolErrorCode;
  readonly details?: unknown;
  readonly retryable: boolean;

  constructor(code: ToolErrorCode, message: string, options: { details?: unknown; retryable?: boolean } = {}) {
    super(message);
    this.name = 'ToolFailure';
    this.code = code;
    if (options.details !== undefined) this.details = options.details;
    this.retryable = options.retryable ?? false;
  }
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Narrows a result to its success case. */
export const isOk = <T>(r: ToolResult<T>): r is { readonly ok: true; readonly value: T } => r.ok;

/** Narrows a result to its failure case. */
export const isFailed = <T>(r: ToolResult<T>): r is { readonly ok: false; readonly error: ToolError } => !r.ok;

export const isToolFailure = (e: unknown): e is ToolFailure =>
  e instanceof ToolFailure ||
  (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ToolFailure' && typeof (e as { code?: unknown }).code === 'string');
