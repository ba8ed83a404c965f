/**
 * The one place where a served call meets the policies: permissions and safety level, the rule
 * engine, then approval, exactly as `gramkit run` applies them (`withPolicies` around the tool, so
 * a denial or a refused approval is a `DENIED` result with the reason, and arguments an approver
 * changed are validated and checked again). Everything else goes through `invoke` unchanged.
 *
 * Kept in one module so that it can move to the policy layer's single gate when there is one.
 */
import { type BoundTool, bindTool } from '../library/bind.js';
import { invoke, type InvokeOptions } from '../library/invoke.js';
import { fail, ToolErrorCodes, type ToolResult } from '../library/result.js';
import { emptyToolLibrary, registerTool } from '../library/tool-library.js';
import type { Approver } from '../policy/approvals.js';
import { type Policies, withPolicies } from '../policy/evaluate.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface GateOptions {
  /** Permissions, rules and approvals applied before each call; none: every valid call runs. */
  readonly policies?: Policies;
  /** Answers calls that need approval; without one they are refused (`DENIED`, saying why). */
  readonly approver?: Approver;
}

/** Calls a served tool: policies first, then `invoke`. Never rejects. */
export type GatedCall = (bound: BoundTool, args: unknown, options?: InvokeOptions) => Promise<ToolResult>;

// -------------------------------------------------------------------------------------------------
// the gate
// -------------------------------------------------------------------------------------------------

/** The call function of a server (guarded bindings are made once per bound tool and kept). */
export const gatedCall = (options: GateOptions): GatedCall => {
  const policies = options.policies;
  if (policies === undefined) return (bound, args, invokeOptions) => invoke(bound, args, invokeOptions);
  const guarded = new WeakMap<BoundTool, BoundTool | ToolResult>();
  const guard = (bound: BoundTool): BoundTool | ToolResult => {
    let g = guarded.get(bound);
    if (g === undefined) {
      const tool = withPolicies(bound.tool, { policies, ...(options.approver !== undefined ? { approver: options.approver } : {}) });
      const rebound = bindTool(bound.spec, registerTool(tool.name, tool, emptyToolLibrary), bound.options);
      g = rebound._tag === 'Right' ? rebound.right : fail(ToolErrorCodes.EXECUTION_ERROR, `the policies of "${bound.name}" could not be applied: ${rebound.left.message}`);
      guarded.set(bound, g);
    }
    return g;
  };
  return (bound, args, invokeOptions) => {
    const g = guard(bound);
    return 'ok' in g ? Promise.resolve(g) : invoke(g, args, invokeOptions);
  };
};
