/**
 * All policies in one decision, evaluated before a call runs: permissions and safety level first
 * (what the run allows at all), then the safety rules (what this call does), then approval (whether
 * a person must say yes). The first denial wins; `ask` comes only from approval. Pure decisions:
 * the gate (gate.ts) acts on them, and asks the person.
 */
import { approvalRequirement, checkApproval, type ApprovalPolicy } from './approvals.js';
import { policyAllow, policyDeny, type PolicyCall, type PolicyDecision } from './decision.js';
import { checkPermissions, type PermissionPolicy } from './permissions.js';
import { checkRules, describeViolations, type RuleEngine } from './rules.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface Policies {
  readonly permissions?: PermissionPolicy;
  readonly rules?: RuleEngine;
  readonly approvals?: ApprovalPolicy;
}

// -------------------------------------------------------------------------------------------------
// evaluation
// -------------------------------------------------------------------------------------------------

/** Permissions, safety level and rules: the decisions that do not involve a person. Pure. */
export const evaluateStaticPolicies = (policies: Policies, call: PolicyCall): PolicyDecision => {
  if (policies.permissions !== undefined) {
    const d = checkPermissions(policies.permissions, call.tool, call.annotations);
    if (d.kind !== 'allow') return d;
  }
  if (policies.rules !== undefined) {
    const violations = checkRules(policies.rules, call.tool, call.args);
    if (violations.length > 0)
      return policyDeny(
        describeViolations(call.tool, violations),
        'rules',
        violations.map((v) => v.rule),
      );
  }
  return policyAllow;
};

/**
 * The decision for a call, without a promise when no approval check has to run (most calls: the
 * gate's hot path); a promise only for an approval predicate. Never throws, never rejects.
 */
export const decidePolicies = (policies: Policies, call: PolicyCall): PolicyDecision | Promise<PolicyDecision> => {
  const d = evaluateStaticPolicies(policies, call);
  if (d.kind !== 'allow') return d;
  return approvalRequirement(policies.approvals, call.tool, call.annotations) === 'auto' ? policyAllow : checkApproval(policies.approvals, call);
};

/** The decision for a call: `allow`, `deny {reason, code: POLICY_DENIED}` or `ask {reason}`. Never rejects. */
export const evaluatePolicies = async (policies: Policies, call: PolicyCall): Promise<PolicyDecision> => decidePolicies(policies, call);
