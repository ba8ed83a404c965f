/**
 * Policies around a tool, or around one call: `withPolicies(tool, {policies, approver})` is the
 * tool with the gate (gate.ts) before each call, so any caller of `invoke` gets it; `invokeGated`
 * puts one call of a bound tool through the gate, then invokes it (what `gramkit invoke`, a service
 * or an MCP server does with each request). A refusal is the `POLICY_DENIED` (or
 * `TOOL_INVALID_ARGUMENTS`) result the model reads.
 */
import { isRecord } from '../core/json.js';
import type { BoundTool } from '../library/bind.js';
import { invoke, type InvokeOptions } from '../library/invoke.js';
import { ToolFailure, type ToolResult } from '../library/result.js';
import { createTool, type InvocationContext, type Tool } from '../library/tool.js';
import { type GateOptions, passGate } from './gate.js';

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
export const withPolicies = (tool: Tool, options: GuardOptions): Tool =>
  createTool(tool.name, tool.description, tool.schema, guarded(tool, options), {
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.limits !== undefined ? { limits: tool.limits } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  });

const guarded =
  (tool: Tool, options: GuardOptions) =>
  async (args: unknown, ctx: InvocationContext): Promise<unknown> => {
    const stepId = isRecord(ctx.context) && typeof ctx.context['stepId'] === 'string' && ctx.context['stepId'] !== '' ? ctx.context['stepId'] : undefined;
    const outcome = await passGate(
      {
        tool: tool.name,
        args,
        ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
        schema: tool.schema,
        ...(stepId !== undefined ? { stepId } : {}),
        ...(ctx.context !== undefined ? { context: ctx.context } : {}),
        signal: ctx.signal,
      },
      options,
    );
    if (outcome.refused !== undefined) {
      const e = outcome.refused.error;
      throw new ToolFailure(e.code, e.message, { ...(e.details !== undefined ? { details: e.details } : {}), retryable: e.retryable });
    }
    return tool.invoke(outcome.args, ctx);
  };

/**
 * One call of a bound tool, through the gate then `invoke`: the refusal, or the call's result.
 * The arguments a person changed are the ones that run. Never rejects.
 */
export const invokeGated = async (bound: BoundTool, args: unknown, gate: GateOptions, options: InvokeOptions = {}): Promise<ToolResult> => {
  const outcome = await passGate(
    {
      tool: bound.name,
      args,
      ...(bound.tool.annotations !== undefined ? { annotations: bound.tool.annotations } : {}),
      schema: bound.spec.schema,
      ...(options.callId !== undefined ? { stepId: options.callId } : {}),
      ...(options.context !== undefined ? { context: options.context } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    },
    gate,
  );
  return outcome.refused ?? invoke(bound, outcome.args, options);
};
