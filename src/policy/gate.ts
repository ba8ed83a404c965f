/**
 * The gate: what every caller of a tool (the agent loop, `withPolicies` around a tool, `gramkit
 * invoke`, a service, an MCP server) puts a call through before it runs. One function, one order:
 *
 * 1. permissions and safety level, then the rules (`evaluateStaticPolicies`): a refusal is
 *    `POLICY_DENIED` with the reason and the policy (`details.source`, `details.rules`);
 * 2. approval (`checkApproval`): when the call needs a person's yes and its arguments validate
 *    (a call that will fail validation is not put to a person: it goes on, and `invoke` refuses it
 *    with `TOOL_INVALID_ARGUMENTS`), the approver is asked. No approver, a refusal, an approver
 *    that throws or answers nonsense: `POLICY_DENIED`; a call that needs approval in a run without approver: `POLICY_APPROVAL_REQUIRED` (`details.approvalNeeded`);
 * 3. arguments a person changed are validated against the schema with its defaults applied
 *    (`TOOL_INVALID_ARGUMENTS` when they do not validate), and the permissions and rules judge
 *    exactly those arguments, the ones that will run. A person may change the arguments, not the
 *    limits of the run.
 *
 * The gate never throws and never rejects. It decides; the caller runs the call (with `invoke`)
 * or returns the refusal, a result the model reads.
 */
import { callId } from '../core/call-id.js';
import { isRecord } from '../core/json.js';
import type { JsonSchema } from '../core/json-schema.js';
import { messageOf } from '../core/message.js';
import { type Err, ok, type Result } from '../core/result.js';
import { ToolCodes } from '../library/codes.js';
import { fail, type ToolError } from '../library/result.js';
import type { ToolAnnotations } from '../library/tool.js';
import { compileSchema, formatIssues } from '../schema/validate.js';
import type { ApprovalRequest, ApprovalResponse, Approver } from './approvals.js';
import { PolicyCodes } from './codes.js';
import { deniedResult, type PolicyCall, type PolicyDecision } from './decision.js';
import { decidePolicies, evaluateStaticPolicies, type Policies } from './evaluate.js';
import { isLeft } from '../core/either.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A call as the gate sees it. */
export interface GateCall {
  /** The tool's name. */
  readonly tool: string;
  readonly args: unknown;
  /** The tool's permissions, safety level and approval requirement. */
  readonly annotations?: ToolAnnotations;
  /**
   * The tool's argument schema. Calls whose arguments do not validate against it are not put to a
   * person, and a person's changes are validated against it (defaults applied). Without one, a
   * person's changes are taken as they are.
   */
  readonly schema?: JsonSchema;
  /** The arguments were validated against `schema` already (the invoker validates before its steps). */
  readonly validated?: boolean;
  /** Names the call in approval requests (the agent passes `step:callId`); a fresh id (made when a person is asked) by default. */
  readonly stepId?: string;
  /** The invocation context, passed to approval predicates. */
  readonly context?: unknown;
  readonly signal?: AbortSignal;
  /** Runs the wait for a person without holding the call's place in its lock (the invoker's `serialise` step). */
  readonly pause?: <T>(wait: () => Promise<T>) => Promise<T>;
}

export interface GateOptions {
  readonly policies: Policies;
  /** Answers calls that need approval; without one, they are refused. */
  readonly approver?: Approver;
  /** Told every decision (the first, and the one on a person's changes). */
  readonly onDecision?: (call: PolicyCall, decision: PolicyDecision) => void;
  /** Told before the approver is asked. */
  readonly onAsk?: (request: ApprovalRequest) => void;
  /** Told the approver's answer (a failure to answer is a refusal). */
  readonly onAnswer?: (request: ApprovalRequest, response: ApprovalResponse) => void;
}

/** What happened when a person was (or should have been) asked. */
export interface GateApproval {
  readonly reason: string;
  readonly approved: boolean;
  readonly message?: string;
  /** The arguments the caller asked for, when a person changed them (`args` holds the new ones). */
  readonly requestedArgs?: unknown;
}

/** The gate's verdict: run with `args`, unless `refused` (the call's result then). */
export interface GateOutcome {
  /** The arguments to run with: the caller's, or a person's changes (validated, defaults applied). */
  readonly args: unknown;
  /** Set when the call must not run: `POLICY_DENIED` or `TOOL_INVALID_ARGUMENTS`, as the result the model reads. */
  readonly refused?: Err<ToolError>;
  /** Present when the call needed approval. */
  readonly approval?: GateApproval;
}

// -------------------------------------------------------------------------------------------------
// the gate
// -------------------------------------------------------------------------------------------------

/** Puts a call through the policies and, when needed, a person. Never rejects. */
export const passGate = async (call: GateCall, options: GateOptions): Promise<GateOutcome> => judgeCall(call, options);

/**
 * `passGate` without a promise when the policies decide at once (no approval predicate, no
 * person): the gate step's hot path, most calls. Never throws; a promise it returns never rejects.
 */
export const judgeCall = (call: GateCall, options: GateOptions): GateOutcome | Promise<GateOutcome> => {
  try {
    // one shape for every call (an absent field is undefined); a fresh step id only for a call put to a person
    const policyCall: PolicyCall = {
      tool: call.tool,
      args: call.args,
      annotations: call.annotations,
      stepId: call.stepId,
      context: call.context,
      signal: call.signal,
    };
    const decided = decidePolicies(options.policies, policyCall);
    if (decided instanceof Promise) return decided.then((d) => decide(call, options, policyCall, d)).catch((e: unknown) => gateFailure(call.args, e));
    return decide(call, options, policyCall, decided);
  } catch (e) {
    return gateFailure(call.args, e);
  }
};

/** What follows the policies' decision: run, refuse, or ask a person (the only part that waits). */
const decide = (call: GateCall, options: GateOptions, policyCall: PolicyCall, decision: PolicyDecision): GateOutcome | Promise<GateOutcome> => {
  const args = call.args;
  try {
    tell(options.onDecision, policyCall, decision);
    if (decision.kind === 'allow') return { args };
    if (decision.kind === 'deny') return { args, refused: deniedResult(decision) };
    return askPerson(call, options, policyCall, decision.reason);
  } catch (e) {
    return gateFailure(args, e);
  }
};

/** A call the policies put to a person. Never rejects. */
const askPerson = async (call: GateCall, options: GateOptions, policyCall: PolicyCall, reason: string): Promise<GateOutcome> => {
  const args = call.args;
  try {
    // a call that will fail validation runs nothing, so no one is asked about it
    if (call.validated !== true && !argumentsValid(call.schema, args)) return { args };
    if (options.approver === undefined) {
      return {
        args,
        refused: fail(PolicyCodes.APPROVAL_REQUIRED, `${reason}; this run has no approver, so the call was not made`, {
          details: { source: 'approval', approvalNeeded: true },
        }),
        approval: { reason, approved: false, message: 'no approver' },
      };
    }
    const request: ApprovalRequest = { stepId: call.stepId ?? callId(), tool: call.tool, args: isRecord(args) ? args : {}, reason };
    const asking = (): Promise<ApprovalResponse> => ask(options, request, call.signal);
    const response = await (call.pause !== undefined ? call.pause(asking) : asking());
    const approval: GateApproval = { reason, approved: response.approved, ...(response.message !== undefined ? { message: response.message } : {}) };
    if (!response.approved) {
      return {
        args,
        refused: fail(PolicyCodes.DENIED, `${call.tool} was not approved${response.message !== undefined ? `: ${response.message}` : ''}`, {
          details: { source: 'approval' },
        }),
        approval,
      };
    }
    if (response.modifiedArgs === undefined) return { args, approval };
    return changedArguments(call, options, policyCall, response.modifiedArgs, { ...approval, requestedArgs: args });
  } catch (e) {
    return gateFailure(args, e);
  }
};

/** Every step above is built not to throw (hooks and approvers included); this guards the rest. */
const gateFailure = (args: unknown, e: unknown): GateOutcome => ({
  args,
  refused: fail(PolicyCodes.DENIED, `the policies could not be checked: ${messageOf(e)}`, { details: { source: 'gate' } }),
});

/** A person's changes: validated (defaults applied), then judged by the permissions and rules as they will run. */
const changedArguments = (call: GateCall, options: GateOptions, policyCall: PolicyCall, changed: unknown, approval: GateApproval): GateOutcome => {
  const checked = withDefaults(call.schema, changed);
  if (!checked.ok) return { args: changed, refused: checked, approval };
  const again = evaluateStaticPolicies(options.policies, { ...policyCall, args: checked.value });
  tell(options.onDecision, { ...policyCall, args: checked.value }, again);
  if (again.kind === 'deny') {
    const denied = deniedResult(again);
    return {
      args: checked.value,
      refused: fail(PolicyCodes.DENIED, `the changed arguments are refused: ${again.reason}`, { details: denied.error.details }),
      approval,
    };
  }
  return { args: checked.value, approval };
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const tell = (f: GateOptions['onDecision'], call: PolicyCall, decision: PolicyDecision): void => {
  try {
    f?.(call, decision);
  } catch {
    // an observer's failure does not change the decision
  }
};

/** The approver's answer; one that throws, rejects or answers something else refuses. */
const ask = async (options: GateOptions, request: ApprovalRequest, signal: AbortSignal | undefined): Promise<ApprovalResponse> => {
  try {
    options.onAsk?.(request);
  } catch {
    // as above
  }
  let response: ApprovalResponse;
  try {
    response = await (options.approver as Approver)(request, signal !== undefined ? { signal } : {});
    if (typeof response !== 'object' || response === null || typeof response.approved !== 'boolean') {
      response = { approved: false, message: 'the approver gave no answer ({approved: boolean})' };
    }
  } catch (e) {
    response = { approved: false, message: `the approver failed: ${messageOf(e)}` };
  }
  try {
    options.onAnswer?.(request, response);
  } catch {
    // as above
  }
  return response;
};

/** Whether the arguments validate (true without a schema, or when it cannot be compiled: `invoke` reports that). */
const argumentsValid = (schema: JsonSchema | undefined, args: unknown): boolean => {
  if (schema === undefined) return true;
  const compiled = compileSchema(schema);
  return isLeft(compiled) ? true : compiled.right.check(args);
};

/** Arguments with the schema's defaults, or `TOOL_INVALID_ARGUMENTS` saying what is wrong. */
const withDefaults = (schema: JsonSchema | undefined, args: unknown): Result<unknown, ToolError> => {
  if (schema === undefined) return ok(args);
  const compiled = compileSchema(schema);
  if (isLeft(compiled)) return fail(ToolCodes.INVALID_SCHEMA, `the changed arguments cannot be checked: ${compiled.left.message}`);
  const value = compiled.right.applyDefaults(args);
  if (!compiled.right.check(value)) {
    return fail(ToolCodes.INVALID_ARGUMENTS, `the changed arguments are invalid: ${formatIssues(compiled.right.issues(value))}`, {
      details: { issues: compiled.right.issues(value) },
    });
  }
  return ok(value);
};
