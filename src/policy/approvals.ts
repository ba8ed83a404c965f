/**
 * Approvals: whether a call needs a person's yes before it runs. Each tool says so in
 * its annotations (`auto`, `confirm`, or a predicate on the arguments: write_file asks only when it
 * would overwrite); an `ApprovalPolicy` can override that per tool. `checkApproval` turns the
 * requirement into `allow` or `ask`; an `Approver` answers the `ApprovalRequest`, possibly with
 * modified arguments. Approvers for scripts (`approveAll` for `--yes`, `denyAll` for `--deny`) and
 * for a terminal (`terminalApprover`) are in approvers.ts.
 */
import type { ApprovalRequirement, InvocationContext, ToolAnnotations } from '../library/tool.js';
import { policyAllow, policyAsk, type PolicyCall, type PolicyDecision } from './decision.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ApprovalRequest {
  /** The agent step that made the call. */
  readonly stepId: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Why approval is needed, for a person. */
  readonly reason: string;
}

export interface ApprovalResponse {
  readonly approved: boolean;
  /** Arguments to run the call with instead (validated again before it runs). */
  readonly modifiedArgs?: Readonly<Record<string, unknown>>;
  /** Why it was refused, passed on to the model. */
  readonly message?: string;
}

/** Answers approval requests; never rejects (a failure to ask is a refusal). */
export type Approver = (request: ApprovalRequest, options?: { readonly signal?: AbortSignal }) => Promise<ApprovalResponse>;

export interface ApprovalPolicy {
  /** Per-tool requirements, taking precedence over the tools' annotations. */
  readonly tools?: Readonly<Record<string, ApprovalRequirement>>;
  /** For tools that say nothing (default `auto`). */
  readonly default?: ApprovalRequirement;
}

/** Why the built-in tools ask, in words for a person. */
const BUILTIN_REASONS: Readonly<Record<string, string>> = {
  write_file: 'it would overwrite an existing file',
  move_file: 'it would overwrite an existing file',
  delete_file: 'it deletes files',
};

// -------------------------------------------------------------------------------------------------
// checking
// -------------------------------------------------------------------------------------------------

/** The requirement that applies: the policy's for this tool, else the tool's annotation, else the policy default. */
export const approvalRequirement = (policy: ApprovalPolicy | undefined, tool: string, annotations: ToolAnnotations | undefined): ApprovalRequirement =>
  policy?.tools?.[tool] ?? annotations?.approval ?? policy?.default ?? 'auto';

/**
 * `allow` when the call needs no approval, `ask` with the reason when it does. A predicate that
 * throws or rejects asks (fail safe). Never rejects.
 */
export const checkApproval = async (policy: ApprovalPolicy | undefined, call: PolicyCall): Promise<PolicyDecision> => {
  const requirement = approvalRequirement(policy, call.tool, call.annotations);
  if (requirement === 'auto') return policyAllow;
  const why = BUILTIN_REASONS[call.tool];
  if (requirement === 'confirm') return policyAsk(`${call.tool} always asks for approval${why !== undefined ? ` (${why})` : ''}`);
  const ctx: InvocationContext = {
    signal: call.signal ?? neverAborted,
    toolName: call.tool,
    ...(call.context !== undefined ? { context: call.context } : {}),
  };
  try {
    const needed = await requirement(call.args, ctx);
    return needed ? policyAsk(`${call.tool} asks for approval of this call${why !== undefined ? `: ${why}` : ''}`) : policyAllow;
  } catch (e) {
    return policyAsk(`${call.tool}'s approval check failed (${e instanceof Error ? e.message : String(e)}), so it asks`);
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const neverAborted: AbortSignal = new AbortController().signal;
