/**
 * Where a served call meets the policies: every `tools/call` goes through the policy layer's one
 * gate (`invokeGated`: permissions and safety level, the rules, then approval; a refusal is the
 * `POLICY_DENIED` result with the reason, and arguments a person changed are validated and judged
 * again), exactly as the agent, `gramkit invoke` and a service put their calls through it. Without
 * policies, a call goes to `invoke` unchanged.
 */
import type { BoundTool } from '../library/bind.js';
import { invoke, type InvokeOptions } from '../library/invoke.js';
import type { ToolResult } from '../library/result.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import { invokeGated } from '../policy/guard.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpGateOptions {
  /** Permissions, rules and approvals applied before each call; none: every valid call runs. */
  readonly policies?: Policies;
  /** Answers calls that need approval; without one they are refused (`POLICY_DENIED`, saying why). */
  readonly approver?: Approver;
}

/** Calls a served tool: the gate first, then `invoke`. Never rejects. */
export type GatedCall = (bound: BoundTool, args: unknown, options?: InvokeOptions) => Promise<ToolResult>;

// -------------------------------------------------------------------------------------------------
// the gate
// -------------------------------------------------------------------------------------------------

/** The call function of a server. */
export const gatedCall = (options: McpGateOptions): GatedCall => {
  const policies = options.policies;
  if (policies === undefined) return (bound, args, invokeOptions) => invoke(bound, args, invokeOptions);
  const gate = { policies, ...(options.approver !== undefined ? { approver: options.approver } : {}) };
  return (bound, args, invokeOptions) => invokeGated(bound, args, gate, invokeOptions);
};
