/**
 * The catalog's calls through the one policy gate (`passGate`, src/policy/gate.ts), as every caller
 * of a tool does: permissions and safety level (`ALLOWED_TOOL_PERMS`), the rules, then approval.
 * A call that needs approval is refused unless the catalog (or the call) has an approver: the
 * service's queue of pending approvals (`gramkit serve`'s default), or `approveAll` (`--yes`).
 * The gate's refusals become the catalog's codes, which carry HTTP statuses:
 * `CATALOG_APPROVAL_REQUIRED` (no approver), `CATALOG_POLICY_DENIED` (a policy or a person said
 * no, or no one approved in time), `CATALOG_INVALID_ARGUMENTS` (arguments a person changed do not
 * validate).
 */
import { isRecord } from '../core/json.js';
import type { BoundTool } from '../library/bind.js';
import { ToolCodes } from '../library/codes.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import { passGate } from '../policy/gate.js';
import { CatalogCodes } from './codes.js';
import type { CatalogError } from './result.js';

export interface Gate {
  readonly policies: Policies;
  /** Answers calls that need approval; without one they are refused. */
  readonly approver?: Approver;
}

export type GateOutcome = { readonly allowed: true; readonly args: unknown } | { readonly allowed: false; readonly error: CatalogError };

export const gateCall = async (gate: Gate, bound: BoundTool, policyName: string, args: unknown, options: { readonly callId: string; readonly context?: unknown; readonly signal?: AbortSignal }): Promise<GateOutcome> => {
  const annotations = bound.tool.annotations;
  const outcome = await passGate(
    {
      tool: policyName,
      args,
      ...(annotations !== undefined ? { annotations } : {}),
      schema: bound.tool.schema,
      stepId: options.callId,
      ...(options.context !== undefined ? { context: options.context } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
    },
    { policies: gate.policies, ...(gate.approver !== undefined ? { approver: gate.approver } : {}) },
  );
  if (outcome.refused === undefined) return { allowed: true, args: outcome.args };
  const e = outcome.refused.error;
  const details = isRecord(e.details) ? e.details : {};
  if (e.code === ToolCodes.INVALID_ARGUMENTS) return { allowed: false, error: { code: CatalogCodes.INVALID_ARGUMENTS, message: e.message, details } };
  if (details['approvalNeeded'] === true) {
    return {
      allowed: false,
      error: {
        code: CatalogCodes.APPROVAL_REQUIRED,
        message: `${bound.name} needs approval (${outcome.approval?.reason ?? e.message}), and this server has no approver`,
        details: { ...details, reason: outcome.approval?.reason ?? e.message, hint: 'start the server with --approvals queue (a person approves each call) or --yes (every call is approved), or disable the tool' },
      },
    };
  }
  return { allowed: false, error: { code: CatalogCodes.POLICY_DENIED, message: e.message, details } };
};
