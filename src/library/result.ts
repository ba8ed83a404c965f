/**
 * The result of invoking a tool: the run-time `Result` (core/result.ts) with a coded `ToolError`.
 * Tool failures are data for the model, never exceptions: every error has a stable code, a message
 * a model can act on, and whether retrying can help.
 *
 * An implementation fails with a specific code in either of two ways, which `invoke` treats alike:
 * it returns `fail(reason, message)` (a returned `ok(value)` is its value), or it throws a
 * `ToolFailure`. Anything else it throws is `TOOL_EXECUTION_ERROR`. The precise code given is the
 * error's `reason`; its `code` is the canonical code the registry maps it to (`EXECUTION_ERROR`
 * for an implementation's own code that is not canonical).
 */
import { type CanonicalCode, retryableCode } from '../core/codes.js';
import { type CodedError, type CodedErrorOptions, codedError, type Err, failWith, type Result } from '../core/result.js';
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

/** A failed tool result: `{ok: false, error: {code, reason, message, retryable, details?}}` (`code` the canonical code of `reason`). */
export const fail = (reason: ToolErrorCode, message: string, options: Omit<CodedErrorOptions, 'hint'> = {}): Err<ToolError> =>
  failWith(reason, message, options);

/**
 * What an implementation throws to fail with a specific code (`BUILTIN_FILE_NOT_FOUND`, ...: its `reason`);
 * returning `fail(...)` does the same. Anything else it throws becomes `TOOL_EXECUTION_ERROR` with
 * the thrown message.
 */
export class ToolFailure extends Error {
  /** The canonical code of `reason`. */
  readonly code: CanonicalCode;
  /** The precise code given. */
  readonly reason: ToolErrorCode;
  readonly details?: unknown;
  readonly retryable: boolean;

  constructor(reason: ToolErrorCode, message: string, options: { details?: unknown; retryable?: boolean; code?: CanonicalCode } = {}) {
    super(message);
    this.name = 'ToolFailure';
    this.code = codedError(reason, '', options.code !== undefined ? { code: options.code } : {}).code;
    this.reason = reason;
    if (options.details !== undefined) this.details = options.details;
    // as said, else as the code's registry entry says
    this.retryable = options.retryable ?? retryableCode(reason);
  }
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isToolFailure = (e: unknown): e is ToolFailure =>
  e instanceof ToolFailure ||
  (typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'ToolFailure' && typeof (e as { code?: unknown }).code === 'string');
