/**
 * Bound tools as Vercel AI SDK tools (`ai` 6 or 7, an optional peer dependency): pass them to
 * `generateText` / `streamText` as `tools`. Each tool's input schema is gramkit's JSON Schema of the
 * specification (through the SDK's `jsonSchema()`), its `execute` goes through `invoke` (validation
 * with gramkit's messages, defaults, timeout and the SDK's abort signal, output checks), and a
 * tool's approval requirement becomes `needsApproval`.
 *
 * A failure is a result the model sees, never a crashed run: by default `execute` throws a
 * `ToolFailure` whose message starts with the code (`INVALID_ARGUMENTS: …`), which the SDK turns
 * into a `tool-error` part and sends to the model as the tool's output; with
 * `failures: 'result'` the failure is returned as the output instead, `{error: {code, message,
 * retryable}}`, the way gramkit's own agent loop reports it.
 *
 * `execute` runs the call through the one invoker (library/invoker.ts) built from `steps`: pass the
 * policy gate step (`gateStep({policies, approver})`, `gramkit/policy`) to enforce permissions, rules
 * and approvals; without steps it is `invoke`.
 */
import { jsonSchema, type Tool, tool } from 'ai';
import type { BoundTool, BoundTools } from '../library/bind.js';
import { createInvoker, type Invoker, type Step } from '../library/invoker.js';
import { ToolFailure } from '../library/result.js';
import { NEVER } from '../library/never-signal.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface AISDKToolsOptions {
  /** How a failed call reaches the model: a thrown `ToolFailure` (a `tool-error` part, the default) or an `{error}` output. */
  readonly failures?: 'throw' | 'result';
  /** Timeout of each call in milliseconds (default: the binding's, else the tool's own). */
  readonly timeoutMs?: number;
  /** Passed to implementations as `ctx.context` when the SDK passes no context of its own. */
  readonly context?: unknown;
  /** Steps of the invoker every call goes through (the policy gate, …); none by default. */
  readonly steps?: ReadonlyArray<Step>;
}

/** The options the SDK gives `execute` (ai 6 names the context `experimental_context`, ai 7 `context`). */
interface ExecuteOptions {
  readonly toolCallId?: string;
  readonly abortSignal?: AbortSignal;
  readonly context?: unknown;
  readonly experimental_context?: unknown;
}

/**
 * What `execute` throws: a `ToolFailure` whose text is its message alone (ai 6 sends the model
 * `error.message`, ai 7 `String(error)`; both read `INVALID_ARGUMENTS: …`).
 */
class SdkToolFailure extends ToolFailure {
  override toString(): string {
    return this.message;
  }
}

// -------------------------------------------------------------------------------------------------
// conversion
// -------------------------------------------------------------------------------------------------

const contextOf = (o: ExecuteOptions | undefined, fallback: unknown): unknown => o?.context ?? o?.experimental_context ?? fallback;

/** The SDK's `needsApproval` for a tool's approval requirement (absent when the tool never asks). */
const needsApproval = (bound: BoundTool, options: AISDKToolsOptions): Pick<Tool, 'needsApproval'> => {
  const approval = bound.tool.annotations?.approval;
  if (approval === undefined || approval === 'auto') return {};
  if (approval === 'confirm') return { needsApproval: true };
  return {
    needsApproval: async (input: unknown, o: ExecuteOptions) => {
      try {
        const context = contextOf(o, options.context);
        return Boolean(await approval(input, { signal: NEVER, toolName: bound.name, ...(context !== undefined ? { context } : {}) }));
      } catch {
        return true; // a predicate that fails asks (fail safe), as gramkit's policies do
      }
    },
  };
};

/** One bound tool as an AI SDK tool. */
export const toAISDKTool = (bound: BoundTool, options: AISDKToolsOptions = {}, invoker: Invoker = createInvoker(options.steps ?? [])): Tool =>
  tool({
    description: bound.spec.description,
    inputSchema: jsonSchema(bound.spec.schema as never),
    ...needsApproval(bound, options),
    execute: async (input: unknown, o: ExecuteOptions) => {
      const context = contextOf(o, options.context);
      const result = await invoker(bound, input, {
        ...(o?.abortSignal !== undefined ? { signal: o.abortSignal } : {}),
        ...(o?.toolCallId !== undefined ? { callId: o.toolCallId } : {}),
        ...(context !== undefined ? { context } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      });
      if (result.ok) return result.value;
      const e = result.error;
      if (options.failures === 'result') return { error: { code: e.code, reason: e.reason, message: e.message, retryable: e.retryable } };
      throw new SdkToolFailure(e.reason, `${e.reason}: ${e.message}`, {
        code: e.code,
        retryable: e.retryable,
        ...(e.details !== undefined ? { details: e.details } : {}),
      });
    },
  } as never) as Tool;

/** Bound tools as an AI SDK tool set, keyed by tool name: `generateText({model, tools: toAISDKTools(bound), ...})`. */
export const toAISDKTools = (bound: BoundTools | ReadonlyArray<BoundTool>, options: AISDKToolsOptions = {}): Record<string, Tool> => {
  const list = Array.isArray(bound) ? (bound as ReadonlyArray<BoundTool>) : (bound as BoundTools).tools;
  const out: Record<string, Tool> = {};
  const invoker = createInvoker(options.steps ?? []);
  for (const b of list) Object.defineProperty(out, b.name, { value: toAISDKTool(b, options, invoker), enumerable: true, writable: true, configurable: true });
  return out;
};
