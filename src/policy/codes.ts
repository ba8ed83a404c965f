/**
 * The policy layer's codes (`POLICY_`): what the gate says when it refuses a call.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const PolicyCodes = defineCodes('policy', 'POLICY', {
  DENIED: {
    http: 403,
    summary: 'a policy refused the call: a permission, the safety level, a rule, or approval (details: source, rules, approvalNeeded)',
    hint: 'do something the policies allow (the message says which policy refused and why); a person may approve calls that need approval',
  },
});

export type PolicyCode = CodeOf<typeof PolicyCodes>;
