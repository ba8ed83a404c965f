/**
 * The policy layer's codes (`POLICY_`): what the gate says when it refuses a call.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const PolicyCodes = defineCodes('policy', 'POLICY', {
  DENIED: {
    canonical: 'DENIED',
    http: 403,
    summary: 'a policy refused the call: a permission, the safety level, a rule, or approval (details: source, rules, approvalNeeded)',
    hint: 'do something the policies allow (the message says which policy refused and why); a person may approve calls that need approval',
  },
  APPROVAL_REQUIRED: {
    canonical: 'APPROVAL_REQUIRED',
    http: 403,
    summary: 'the call needs the approval of a person and the run has no approver, so it was not made (details: source, approvalNeeded)',
    hint: 'run it where a person can approve (an approver, `--approve ask`), or change the rules so it needs no approval',
  },
});

export type PolicyCode = CodeOf<typeof PolicyCodes>;
