/**
 * The policy gate as a step of the invoker (library/invoker.ts): `gateStep(options)` puts each call
 * through the gate (`judgeCall`: `passGate` without a promise for the calls decided at once;
 * permissions and safety level, the rules, approval, a person's changes validated and judged
 * again) and runs the tool with the arguments it lets through, or returns its
 * refusal (`POLICY_DENIED`, or `TOOL_INVALID_ARGUMENTS` for a person's changes). The rules that
 * judged the call go on to the implementation (`ctx.rules`), so the built-ins check the paths they
 * really touch against the same rules (one rule engine per call, wherever it was given).
 *
 * Every surface that judges calls builds its invoker with this step; no other module composes the
 * gate and `invoke` (a test checks it).
 */
import { invokeOptionsWith } from '../library/invoke.js';
import { type Call, callWith, type Next, type Step } from '../library/invoker.js';
import type { ToolResult } from '../library/result.js';
import { approvalRequirement } from './approvals.js';
import { type GateOptions, type GateOutcome, judgeCall } from './gate.js';

export interface GateStepOptions extends GateOptions {
  /** Told the gate's verdict of each call (the agent records approvals and changed arguments). */
  readonly onOutcome?: (call: Call, outcome: GateOutcome) => void;
}

/** The gate step. The approval request's step id is the call's `callId` when it has one. */
export const gateStep =
  (options: GateStepOptions): Step =>
  (call, next): Promise<ToolResult> => {
    const annotations = call.tool.tool.annotations;
    const o = call.options;
    // a signal made on first need (an MCP request's) is made here only when a person or an approval check may wait on it
    const signal =
      o.signal ?? (o.signalOf !== undefined && approvalRequirement(options.policies.approvals, call.name, annotations) !== 'auto' ? o.signalOf() : undefined);
    // one shape for every call (absent fields are undefined, which the gate reads as absent): no spread per field
    const judged = judgeCall(
      {
        tool: call.name,
        args: call.args,
        annotations,
        schema: call.tool.spec.schema,
        validated: call.args === call.checked,
        stepId: o.callId,
        context: o.context,
        signal,
        pause: call.pause,
      },
      options,
    );
    // most calls are judged at once: no promise between the verdict and the tool
    return judged instanceof Promise ? judged.then((outcome) => proceed(options, call, next, outcome)) : proceed(options, call, next, judged);
  };

/** The call as the gate let it through (a person's changes validated), or its refusal. */
const proceed = (options: GateStepOptions, call: Call, next: Next, outcome: GateOutcome): Promise<ToolResult> => {
  try {
    options.onOutcome?.(call, outcome);
  } catch {
    // an observer's failure does not change the verdict
  }
  if (outcome.refused !== undefined) return Promise.resolve(outcome.refused);
  const rules = options.policies.rules;
  const o = call.options;
  const args = outcome.args;
  return next(
    callWith(call, {
      args,
      // the gate validated a person's changes (defaults applied)
      checked: args === call.args ? call.checked : args,
      options: rules === undefined || o.rules === rules ? o : invokeOptionsWith(o, { rules }),
    }),
  );
};
