/**
 * What evaluating the policies says about a call: run it, refuse it (with the reason, as a
 * `POLICY_DENIED` result for the model), or ask a person first.
 */
import { PolicyCodes } from './codes.js';
import type { ToolAnnotations } from '../library/tool.js';
import { fail, type ToolError } from '../library/result.js';
import type { Err } from '../core/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Which policy produced a denial. */
export type PolicySource = 'permissions' | 'safety-level' | 'rules' | 'approval';

export type PolicyDecision =
  | { readonly kind: 'allow' }
  | {
      readonly kind: 'deny';
      readonly code: typeof PolicyCodes.DENIED;
      readonly reason: string;
      readonly source: PolicySource;
      /** The rules that blocked the call, when `source` is `rules`. */
      readonly rules?: ReadonlyArray<string>;
    }
  | { readonly kind: 'ask'; readonly reason: string };

/** A call as policies see it, before it runs. */
export interface PolicyCall {
  readonly tool: string;
  readonly args: unknown;
  /** The tool's annotations (permissions, safety level, approval); absent for unannotated tools. */
  readonly annotations?: ToolAnnotations;
  /** The agent step making the call, for approval requests. */
  readonly stepId?: string;
  /** Passed to approval predicates as the invocation context's `context`. */
  readonly context?: unknown;
  readonly signal?: AbortSignal;
}

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const policyAllow: PolicyDecision = { kind: 'allow' };

export const policyDeny = (reason: string, source: PolicySource, rules?: ReadonlyArray<string>): PolicyDecision => ({
  kind: 'deny',
  code: PolicyCodes.DENIED,
  reason,
  source,
  ...(rules !== undefined && rules.length > 0 ? { rules } : {}),
});

export const policyAsk = (reason: string): PolicyDecision => ({ kind: 'ask', reason });

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The `POLICY_DENIED` result a model receives for a denied call (details: which policy, which rules). */
export const deniedResult = (decision: Extract<PolicyDecision, { kind: 'deny' }>): Err<ToolError> =>
  fail(PolicyCodes.DENIED, decision.reason, { details: { source: decision.source, ...(decision.rules !== undefined ? { rules: decision.rules } : {}) } });
