/**
 * `gramkit/policy`: what runs before a tool call. The gate (`passGate`: permissions, safety level,
 * rules, then a person's approval), approvals, a rule engine (dangerous shell commands, sensitive
 * paths) and permissions with safety levels.
 */
export type { PolicyCode } from '../policy/codes.js';
export { PolicyCodes } from '../policy/codes.js';
export type { PolicyDecision, PolicySource, PolicyCall } from '../policy/decision.js';
export { policyAllow, policyDeny, policyAsk, deniedResult } from '../policy/decision.js';
export type { Policies } from '../policy/evaluate.js';
export { evaluatePolicies, evaluateStaticPolicies } from '../policy/evaluate.js';
export type { GateCall, GateOptions, GateOutcome, GateApproval } from '../policy/gate.js';
export { passGate } from '../policy/gate.js';
export type { GateStepOptions } from '../policy/gate-step.js';
export { gateStep } from '../policy/gate-step.js';
export { CallLock, serialise } from '../library/serial.js';
export { copyArguments } from '../library/invoker.js';
export type { GuardOptions } from '../policy/guard.js';
export { withPolicies, invokeGated } from '../policy/guard.js';
export type { PermissionPolicy } from '../policy/permissions.js';
export { checkPermissions, permissionGranted, parsePermissionList, parseSafetyLevel, SAFETY_LEVELS } from '../policy/permissions.js';
export type { ApprovalRequest, ApprovalResponse, Approver, ApprovalPolicy } from '../policy/approvals.js';
export { checkApproval, approvalRequirement } from '../policy/approvals.js';
export type { TerminalApprover, TerminalApproverOptions } from '../policy/approvers.js';
export { approveAll, denyAll, approverFrom, terminalApprover } from '../policy/approvers.js';
export type {
  ApprovalQueue,
  ApprovalQueueOptions,
  ApprovalCaller,
  PendingApproval,
  ApprovalOutcome,
  ApprovalDecision,
  ApprovalEvent,
  ApprovalRequestedEvent,
  ApprovalDecidedEvent,
  DecideError,
} from '../policy/approval-queue.js';
export { approvalQueue, queueApprover, APPROVAL_EVENT_TYPES, DEFAULT_APPROVAL_TIMEOUT_MS, DEFAULT_MAX_PENDING_APPROVALS } from '../policy/approval-queue.js';
export type {
  Rule,
  RuleInput,
  RuleViolation,
  RuleEngine,
  RuleEngineOptions,
  CommandText,
  CommandExtractor,
  PathArgument,
  PathAccess,
  ForbiddenPatternsOptions,
  ForbiddenPathsOptions,
} from '../policy/rules.js';
export {
  ruleEngine,
  emptyRuleEngine,
  customRule,
  forbiddenPatternsRule,
  forbiddenPathsRule,
  MAX_COMMAND_LENGTH,
  addRule,
  removeRule,
  combineRuleEngines,
  checkRules,
  describeViolations,
} from '../policy/rules.js';
export { defaultRules, defaultRuleEngine, isCriticalPath, sensitivePath, noRmRf, noSystemAccountFiles, isAccountFile } from '../policy/default-rules.js';
export { checkPaths } from '../policy/path-rules.js';
export type { CommandView } from '../policy/command-view.js';
export { commandViews } from '../policy/command-view.js';
export type { SimpleCommand, ParsedShell, Redirect } from '../policy/shell-words.js';
export { parseShell } from '../policy/shell-words.js';
