/**
 * The one place where the catalog applies policies before a call, as the agent loop does
 * (src/agent/tool-call.ts): permissions and safety level (`ALLOWED_TOOL_PERMS`), the safety
 * rules, then approval. Over HTTP no one can be asked, so a call that needs approval is refused
 * (`CATALOG_APPROVAL_REQUIRED`) unless the catalog has an approver (`gramkit serve --yes`).
 *
 * When src/policy merges its approval flows into one gate, this module is what switches to it.
 */
import type { BoundTool } from '../library/bind.js';
import type { ApprovalResponse, Approver } from '../policy/approvals.js';
import { evaluatePolicies, evaluateStaticPolicies, type Policies } from '../policy/evaluate.js';
import { CatalogCodes } from './codes.js';
import type { CatalogError } from './result.js';

export interface Gate {
  readonly policies: Policies;
  /** Answers calls that need approval; without one they are refused. */
  readonly approver?: Approver;
}

export type GateOutcome = { readonly allowed: true; readonly args: unknown } | { readonly allowed: false; readonly error: CatalogError };

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a call may run, and with which arguments (an approver may change them; they are checked
 * by the static policies again). `policyName` is the name rules know the tool by (a built-in's own
 * name, so its path and command rules apply).
 */
export const gateCall = async (gate: Gate, bound: BoundTool, policyName: string, args: unknown, options: { readonly callId: string; readonly context?: unknown; readonly signal?: AbortSignal }): Promise<GateOutcome> => {
  const annotations = bound.tool.annotations;
  const call = {
    tool: policyName,
    args,
    ...(annotations !== undefined ? { annotations } : {}),
    stepId: options.callId,
    ...(options.context !== undefined ? { context: options.context } : {}),
    ...(options.signal !== undefined ? { signal: options.signal } : {}),
  };
  const decision = await evaluatePolicies(gate.policies, call);
  if (decision.kind === 'allow') return { allowed: true, args };
  if (decision.kind === 'deny') {
    return { allowed: false, error: { code: CatalogCodes.POLICY_DENIED, message: decision.reason, details: { source: decision.source, ...(decision.rules !== undefined ? { rules: decision.rules } : {}) } } };
  }
  if (gate.approver === undefined) {
    return {
      allowed: false,
      error: {
        code: CatalogCodes.APPROVAL_REQUIRED,
        message: `${bound.name} needs approval (${decision.reason}), and this server has no approver`,
        details: { reason: decision.reason, hint: 'start the server with --yes to approve such calls, or disable the tool' },
      },
    };
  }
  let response: ApprovalResponse;
  try {
    response = await gate.approver({ stepId: options.callId, tool: bound.name, args: isRecord(args) ? args : {}, reason: decision.reason }, options.signal !== undefined ? { signal: options.signal } : {});
  } catch (e) {
    response = { approved: false, message: `the approver failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!response.approved) {
    return { allowed: false, error: { code: CatalogCodes.POLICY_DENIED, message: `${bound.name} was not approved${response.message !== undefined ? `: ${response.message}` : ''}`, details: { source: 'approval' } } };
  }
  if (response.modifiedArgs === undefined) return { allowed: true, args };
  const again = evaluateStaticPolicies(gate.policies, { ...call, args: response.modifiedArgs });
  if (again.kind === 'deny') return { allowed: false, error: { code: CatalogCodes.POLICY_DENIED, message: `the changed arguments are refused: ${again.reason}`, details: { source: again.source } } };
  return { allowed: true, args: response.modifiedArgs };
};
