/**
 * The result of invoking a tool: the run-time `Result` (core/result.ts) with a coded `ToolError`.
 * Tool failures are data for the model, never exceptions: every error has a stable code, a message
 * a model can act on, and whether retrying can help.
 *
 * An implementation fails with a specific code in either of two ways, which `invoke` treats alike:
 * it returns `fail(code, message)` (a returned `ok(value)` is its value), or it throws a
 * `ToolFailure`. Anything else it throws is `TOOL_EXECUTION_ERROR`.
 */
import { type CodedError, type CodedErrorOptions, type Err, failWith, type Result } from '../core/result.js';
import type { ToolCode } from './codes.js';

export { ok, isOk, isErr } from '../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A library code, another layer's (`NET_TIMEOUT`, `BUILTIN_FILE_NOT_FOUND`), or an implementation's own. */
export type ToolErrorCode = ToolCode | (string & {});

export type ToolError = CodedError<ToolErrorCode>;

export type ToolResult<T = unknown> = Result<T, ToolError>;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** A failed tool result: `{ok: false, error: {code, message, retryable, details?}}`. */
export const fail = (code: ToolErrorCode, message: string, options: Omit<CodedErrorOptions, 'hint'> = {}): Err<ToolError> => failWith(code, message, options);

/**
 * What an implementation throws to fail with a specific code (`BUILTIN_FILE_NOT_FOUND`, ...);
 * returning `fail(...)` does the same. Anything else it throws becomes `TOOL_EXECUTION_ERROR` with
 * the thrown message.
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

export const isToolFailure = (e: unknown): e is ToolFailure =>
  e instanceof ToolFailure ||
  (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ToolFailure' && typeof (e as { code?: unknown }).code === 'string');
