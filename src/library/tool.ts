/**
 * Tool: an implementation (a function) with the name, description and schemas it claims to
 * implement. Not serializable: specifications are data, tools hold closures, and `bindTool`
 * joins the two at run time.
 */
import { ToolCodes } from './codes.js';
import { isRecord } from '../core/json.js';
import { type Diagnostic, error } from '../core/diagnostic.js';
import type { JsonSchema } from '../core/json-schema.js';

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
  /**
   * Reports how far a long call is: `done` units of `total` (when known), with a message for a
   * person. Present when the caller listens (an MCP client that sent a progress token, an
   * `onProgress` option of `invoke`); a tool calls `ctx.progress?.(done, total, message)`.
   */
  readonly progress?: ProgressReporter;
  /**
   * The rule engine the call was judged by (`policy`'s `RuleEngine`, set by the invoker's gate
   * step): an implementation that checks what it really touches (a built-in resolving links)
   * checks it against these rules as well as its own.
   */
  readonly rules?: unknown;
}

/** How a tool reports progress: `done` grows with each report; `total` when known. */
export type ProgressReporter = (done: number, total?: number, message?: string) => void;

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

/** Safety level of what a tool does: `low` reads, `medium` writes, `high` runs or deletes. */
export type SafetyLevel = 'low' | 'medium' | 'high';

/**
 * Whether a call needs a person's approval before it runs: `auto` never asks, `confirm`
 * always asks, a predicate decides from the arguments (write_file asks only when it would overwrite).
 */
export type ApprovalRequirement = 'auto' | 'confirm' | ((args: unknown, ctx: InvocationContext) => boolean | Promise<boolean>);

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
  /**
   * Tools made by `createTool`/`defineTool` answer `JSON.stringify` with a `TOOL_NOT_SERIALIZABLE`
   * diagnostic instead of a half-serialized object (the function would silently disappear).
   */
  readonly toJSON?: () => Diagnostic;
}

/** What `createTool` takes besides its four arguments (name, description, schema, invoke). */
export interface ToolOptions {
  readonly outputSchema?: JsonSchema;
  readonly limits?: ToolLimits;
  readonly annotations?: ToolAnnotations;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A tool: the implementation of a specification, with the name, description and argument schema
 * it claims. `bindTool` checks the claims against a `ToolSpecification`. The tool is
 * frozen; it is not serializable (`JSON.stringify` gives a `TOOL_NOT_SERIALIZABLE` diagnostic).
 */
export const createTool = <A = any, R = unknown>(
  name: string,
  description: string,
  schema: JsonSchema,
  invoke: ToolImplementation<A, R>,
  options: ToolOptions = {},
): Tool => {
  const tool: Tool = {
    name,
    description,
    schema,
    ...(options.outputSchema !== undefined ? { outputSchema: options.outputSchema } : {}),
    invoke: invoke as ToolImplementation,
    ...(options.limits !== undefined ? { limits: Object.freeze({ ...options.limits }) } : {}),
    ...(options.annotations !== undefined ? { annotations: Object.freeze({ ...options.annotations }) } : {}),
  };
  Object.defineProperty(tool, 'toJSON', { value: () => notSerializable(name), enumerable: false });
  return Object.freeze(tool);
};

// -------------------------------------------------------------------------------------------------
// accessors
// -------------------------------------------------------------------------------------------------

export const toolName = (tool: Tool): string => tool.name;
export const toolDescription = (tool: Tool): string => tool.description;
export const toolSchema = (tool: Tool): JsonSchema => tool.schema;
export const toolOutputSchema = (tool: Tool): JsonSchema | undefined => tool.outputSchema;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const notSerializable = (name: string): Diagnostic =>
  error(ToolCodes.NOT_SERIALIZABLE, `tool "${name}" is not serializable: it holds a function`, {
    hint: 'serialize its ToolSpecification (name, description, typeSignature) and bind it to a library at run time',
  });

const isSchema = (v: unknown): boolean => typeof v === 'boolean' || isRecord(v);

/**
 * Whether a value has the shape of a tool (a name, a description, a schema and a function).
 * Structural, so tools made by another copy of gramkit (a library module loaded by the CLI) count.
 */
export const isTool = (v: unknown): v is Tool => {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as Record<string, unknown>;
  return typeof t['name'] === 'string' && typeof t['description'] === 'string' && isSchema(t['schema']) && typeof t['invoke'] === 'function';
};

const LIMIT_KEYS = ['timeoutMs', 'maxResultBytes', 'maxCallsPerMinute'] as const;

/**
 * Everything wrong with a value meant as a tool, as diagnostics (empty when it is a usable tool):
 * a name and a description that are non-empty strings, schemas that are objects or booleans, an
 * `invoke` function, limits that are positive numbers (`maxCallsPerMinute` an integer).
 */
export const validateTool = (v: unknown): ReadonlyArray<Diagnostic> => {
  if (typeof v !== 'object' || v === null) {
    return [error(ToolCodes.INVALID, `expected a tool (an object with name, description, schema and invoke), got ${v === null ? 'null' : typeof v}`)];
  }
  const t = v as Record<string, unknown>;
  const label = typeof t['name'] === 'string' && t['name'] !== '' ? `tool "${t['name']}"` : 'the tool';
  const out: Diagnostic[] = [];
  if (typeof t['name'] !== 'string' || t['name'].trim() === '') out.push(error(ToolCodes.INVALID_NAME, `${label} needs a non-empty name`));
  if (typeof t['description'] !== 'string' || t['description'].trim() === '') {
    out.push(error(ToolCodes.INVALID_DESCRIPTION, `${label} needs a non-empty description (the model reads it to choose the tool)`));
  }
  if (!isSchema(t['schema'])) out.push(error(ToolCodes.INVALID_SCHEMA, `${label}: schema must be a JSON Schema object, got ${describe(t['schema'])}`));
  if (t['outputSchema'] !== undefined && !isSchema(t['outputSchema'])) {
    out.push(error(ToolCodes.INVALID_SCHEMA, `${label}: outputSchema must be a JSON Schema object, got ${describe(t['outputSchema'])}`));
  }
  if (typeof t['invoke'] !== 'function') {
    out.push(error(ToolCodes.INVALID_IMPLEMENTATION, `${label}: invoke must be a function (args, ctx) => result, got ${describe(t['invoke'])}`));
  }
  const limits = t['limits'];
  if (limits !== undefined) {
    if (typeof limits !== 'object' || limits === null) {
      out.push(error(ToolCodes.INVALID_LIMIT, `${label}: limits must be an object, got ${describe(limits)}`));
    } else {
      for (const k of LIMIT_KEYS) {
        const n = (limits as Record<string, unknown>)[k];
        if (n === undefined) continue;
        const okNumber = typeof n === 'number' && n > 0 && !Number.isNaN(n) && (k !== 'maxCallsPerMinute' || Number.isInteger(n));
        if (!okNumber) {
          out.push(
            error(ToolCodes.INVALID_LIMIT, `${label}: limits.${k} must be a positive ${k === 'maxCallsPerMinute' ? 'integer' : 'number'}, got ${describe(n)}`),
          );
        }
      }
    }
  }
  return out;
};

const describe = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  return typeof v;
};
