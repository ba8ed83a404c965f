/**
 * Tool: an implementation (a function) with the name, description and schemas it claims to
 * implement. Not serializable: specifications are data, tools hold closures, and `bindTool`
 * joins the two at run time.
 */
import type { JsonSchema } from '../spec/json-schema.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface InvocationContext {
  /**
   * Aborted when the call times out or the caller cancels it. Always present; when neither a
   * timeout nor a caller signal applies it is a shared signal that never aborts.
   */
  readonly signal: AbortSignal;
  /** The tool being invoked. */
  readonly toolName: string;
  /** Whatever the caller passed as `context` to `invoke` (a workspace, a user id, ...). */
  readonly context?: unknown;
}

/**
 * The function behind a tool. It receives validated arguments (defaults applied, on a copy) and
 * returns the result or a promise of it. To fail with a specific code it throws a `ToolFailure`;
 * anything else it throws is reported as `EXECUTION_ERROR`.
 */
export type ToolImplementation<A = any, R = unknown> = (args: A, ctx: InvocationContext) => R | Promise<R>;

/** Per-tool limits enforced by `invoke`. */
export interface ToolLimits {
  /** Default timeout of a call, in milliseconds, when the caller gives none. */
  readonly timeoutMs?: number;
  /** Largest result accepted, in bytes of its JSON form (`RESULT_TOO_LARGE` above it). */
  readonly maxResultBytes?: number;
  /** At most this many calls in any 60-second window (`RATE_LIMITED` above it). */
  readonly maxCallsPerMinute?: number;
}

/** Safety level of what a tool does (seed 002): `low` reads, `medium` writes, `high` runs or deletes. */
export type SafetyLevel = 'low' | 'medium' | 'high';

/**
 * Whether a call needs a person's approval before it runs (seed 001): `auto` never asks, `confirm`
 * always asks, a predicate decides from the arguments (write_file asks only when it would overwrite).
 */
export type ApprovalRequirement =
  | 'auto'
  | 'confirm'
  | ((args: unknown, ctx: InvocationContext) => boolean | Promise<boolean>);

/** What policies read about a tool: its permissions, safety level and approval requirement. */
export interface ToolAnnotations {
  /** Capabilities the tool needs, e.g. `fs:read`, `fs:write`, `net:read`, `proc:exec`. */
  readonly permissions?: ReadonlyArray<string>;
  readonly safetyLevel?: SafetyLevel;
  readonly approval?: ApprovalRequirement;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments (root `"type":"object"`). */
  readonly schema: JsonSchema;
  /** JSON Schema of the result, when the tool declares one. */
  readonly outputSchema?: JsonSchema;
  readonly invoke: ToolImplementation;
  readonly limits?: ToolLimits;
  readonly annotations?: ToolAnnotations;
}
