/**
 * All policies in one decision, evaluated before a call runs: permissions and safety level first
 * (what the run allows at all), then the safety rules (what this call does), then approval (whether
 * a person must say yes). The first denial wins; `ask` comes only from approval.
 *
 * `withPolicies(tool, {policies, approver})` applies the decision around a tool: a denied call, or
 * one the approver refuses, fails with `DENIED` and the reason (a result the model reads), and
 * arguments a person modified are validated and checked by the rules again before the call runs.
 */
import { callId } from '../core/call-id.js';
import { ToolErrorCodes, ToolFailure } from '../library/result.js';
import { createTool, type InvocationContext, type Tool } from '../library/tool.js';
import { compileSchema, formatIssues } from '../spec/validate.js';
import { checkApproval, type ApprovalPolicy, type ApprovalResponse, type Approver } from './approvals.js';
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
    if (violations.length > 0) return policyDeny(describeViolations(call.tool, violations), 'rules', violations.map((v) => v.rule));
  }
  return policyAllow;
};

/** The decision for a call: `allow`, `deny {reason, code: 'DENIED'}` or `ask {reason}`. Never rejects. */
export const evaluatePolicies = async (policies: Policies, call: PolicyCall): Promise<PolicyDecision> => {
  const d = evaluateStaticPolicies(policies, call);
  if (d.kind !== 'allow') return d;
  return checkApproval(policies.approvals, call);
};

// -------------------------------------------------------------------------------------------------
// combinators
// -------------------------------------------------------------------------------------------------

export interface GuardOptions {
  readonly policies: Policies;
  /** Answers `ask` decisions; without one, a call that needs approval is denied. */
  readonly approver?: Approver;
  /** Told every decision (for logs and traces). */
  readonly onDecision?: (call: PolicyCall, decision: PolicyDecision) => void;
}

/**
 * The tool with policies applied before each call. The step id of approval requests is
 * `context.stepId` of the invocation when it is a string, a fresh uuid v7 otherwise.
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
    const stepId = stepIdOf(ctx.context);
    const call: PolicyCall = {
      tool: tool.name,
      args,
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      stepId,
      ...(ctx.context !== undefined ? { context: ctx.context } : {}),
      signal: ctx.signal,
    };
    const decision = await evaluatePolicies(options.policies, call);
    options.onDecision?.(call, decision);
    if (decision.kind === 'deny') throw denied(decision.reason, { source: decision.source, ...(decision.rules !== undefined ? { rules: decision.rules } : {}) });
    if (decision.kind === 'allow') return tool.invoke(args, ctx);
    if (options.approver === undefined) {
      throw denied(`${decision.reason}, and no one can approve calls in this run`, { source: 'approval' });
    }
    const response: ApprovalResponse = await options.approver(
      { stepId, tool: tool.name, args: isRecord(args) ? args : {}, reason: decision.reason },
      { signal: ctx.signal },
    ).catch((e: unknown) => ({ approved: false, message: `the approver failed: ${e instanceof Error ? e.message : String(e)}` }));
    if (!response.approved) throw denied(`${tool.name} was not approved${response.message !== undefined ? `: ${response.message}` : ''}`, { source: 'approval' });
    if (response.modifiedArgs === undefined) return tool.invoke(args, ctx);
    const modified = validated(tool, response.modifiedArgs);
    // a person may change the arguments, not the limits of the run
    const again = evaluateStaticPolicies(options.policies, { ...call, args: modified });
    options.onDecision?.({ ...call, args: modified }, again);
    if (again.kind === 'deny') throw denied(`the modified arguments are refused: ${again.reason}`, { source: again.source, ...(again.rules !== undefined ? { rules: again.rules } : {}) });
    return tool.invoke(modified, ctx);
  };

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const denied = (reason: string, details: Record<string, unknown>): ToolFailure => new ToolFailure(ToolErrorCodes.DENIED, reason, { details });

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

const stepIdOf = (context: unknown): string => {
  const s = isRecord(context) ? context['stepId'] : undefined;
  return typeof s === 'string' && s !== '' ? s : callId();
};

/** The modified arguments with the schema's defaults, or `INVALID_ARGUMENTS` saying what is wrong. */
const validated = (tool: Tool, args: Readonly<Record<string, unknown>>): unknown => {
  const compiled = compileSchema(tool.schema);
  if (compiled._tag === 'Left') throw new ToolFailure(ToolErrorCodes.INVALID_ARGUMENTS, `the modified arguments cannot be checked: ${compiled.left.message}`);
  const withDefaults = compiled.right.applyDefaults(args);
  if (!compiled.right.check(withDefaults)) {
    throw new ToolFailure(ToolErrorCodes.INVALID_ARGUMENTS, `the modified arguments are invalid: ${formatIssues(compiled.right.issues(withDefaults))}`);
  }
  return withDefaults;
};
