/**
 * Policies around a tool, or around one call: `withPolicies(tool, {policies, approver})` is the
 * tool with the gate (gate.ts) before each call, so any caller of `invoke` gets it; `invokeGated`
 * puts one call of a bound tool through the gate, then invokes it (what `gramkit invoke`, a service
 * or an MCP server does with each request). A refusal is the `POLICY_DENIED` (or
 * `TOOL_INVALID_ARGUMENTS`) result the model reads.
 */
import { isRecord } from '../core/json.js';
import type { BoundTool } from '../library/bind.js';
import type { InvokeOptions } from '../library/invoke.js';
import { createInvoker } from '../library/invoker.js';
import { ToolFailure, type ToolResult } from '../library/result.js';
import { createTool, type InvocationContext, type Tool } from '../library/tool.js';
import type { GateOptions } from './gate.js';
import { gateStep } from './gate-step.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The policies and the person that answer approvals; see `GateOptions`. */
export type GuardOptions = GateOptions;

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

/**
 * The tool with the gate before each call. The step id of approval requests is `context.stepId`
 * of the invocation when it is a string, a fresh UUIDv7 otherwise. A refusal is thrown as a
 * `ToolFailure`, which `invoke` makes the call's failure.
 */
/**
 * The tool's context with the rules the gate judged the call by, the rest read from the caller's as
 * the tool reads it. Not a spread: the context `invoke` gives is a class whose fields are getters
 * (its signal made on first read), which a spread does not copy (the tool got no signal, name or
 * context).
 */
class WithRules implements InvocationContext {
  constructor(
    private readonly base: InvocationContext,
    readonly rules: unknown,
  ) {}
  get signal(): AbortSignal {
    return this.base.signal;
  }
  get toolName(): string {
    return this.base.toolName;
  }
  get context(): unknown {
    return this.base.context;
  }
  get progress(): InvocationContext['progress'] {
    return this.base.progress;
  }
}

export const withPolicies = (tool: Tool, options: GuardOptions): Tool =>
  createTool(tool.name, tool.description, tool.schema, guarded(tool, options), {
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.limits !== undefined ? { limits: tool.limits } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  });

const guarded = (tool: Tool, options: GuardOptions) => {
  const step = gateStep(options);
  return async (args: unknown, ctx: InvocationContext): Promise<unknown> => {
    const stepId = isRecord(ctx.context) && typeof ctx.context['stepId'] === 'string' && ctx.context['stepId'] !== '' ? ctx.context['stepId'] : undefined;
    let ran = false;
    let value: unknown;
    // invoke validated the arguments; the step runs the tool itself with what the gate lets through
    const refused = await step(
      {
        tool: { name: tool.name, tool, spec: { schema: tool.schema } } as unknown as BoundTool,
        name: tool.name,
        args,
        checked: args,
        options: { ...(stepId !== undefined ? { callId: stepId } : {}), ...(ctx.context !== undefined ? { context: ctx.context } : {}), signal: ctx.signal },
      },
      async (call) => {
        ran = true;
        value = await tool.invoke(call === undefined ? args : call.args, call?.options.rules !== undefined ? new WithRules(ctx, call.options.rules) : ctx);
        return { ok: true, value };
      },
    );
    if (!ran && !refused.ok) {
      const e = refused.error;
      throw new ToolFailure(e.reason, e.message, { ...(e.details !== undefined ? { details: e.details } : {}), retryable: e.retryable });
    }
    return value;
  };
};

/**
 * One call of a bound tool through the invoker with the gate step: the refusal, or the call's
 * result. The arguments a person changed are the ones that run. Never rejects.
 */
export const invokeGated = (bound: BoundTool, args: unknown, gateOptions: GateOptions, options: InvokeOptions = {}): Promise<ToolResult> =>
  createInvoker([gateStep(gateOptions)])(bound, args, options);
