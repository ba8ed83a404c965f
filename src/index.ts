/**
 * gramkit's public surface. Everything a user may import is named here; anything not exported
 * from this file is internal and may change.
 */

// gram: diagnostics and source positions
export type { Span, Position, LineIndex } from './gram/span.js';
export { lineIndex, positionAt, lineText } from './gram/span.js';
export type { Diagnostic, Severity, RelatedInformation } from './gram/diagnostic.js';
export { hasErrors, sortDiagnostics } from './gram/diagnostic.js';
export { formatDiagnostic, formatDiagnostics, formatPosition } from './gram/format-diagnostic.js';
export type * from './gram/ast.js';

// gram: parsing, lowering to patterns, canonical JSON, formatting
export type { ParseOptions, ParseResult } from './gram/parse.js';
export { parseGram, analyzeGram } from './gram/parse.js';

// spec: JSON Schema, validation, specifications
export type { JsonValue, JsonObject, JsonSchema } from './spec/json-schema.js';
export type { ValidationIssue, ValidationIssueCode, CompiledSchema } from './spec/validate.js';
export { compileSchema, validateValue, formatIssues } from './spec/validate.js';
export type { ToolSpecification } from './spec/tool-spec.js';

// library: tools and results
export type { Tool, ToolImplementation, InvocationContext, ToolLimits, ToolAnnotations, SafetyLevel, ApprovalRequirement } from './library/tool.js';
export type { ToolResult, ToolError, ToolErrorCode } from './library/result.js';
export { ToolErrorCodes, ToolFailure, ok, fail } from './library/result.js';

// library
export type { ToolOptions } from './library/tool.js';
export { createTool, toolName, toolDescription, toolSchema, toolOutputSchema, isTool, validateTool } from './library/tool.js';
export type { DefineToolOptions } from './library/define-tool.js';
export { defineTool } from './library/define-tool.js';
export { isOk, isFailed, isToolFailure } from './library/result.js';
export type { ToolLibrary } from './library/tool-library.js';
export {
  emptyToolLibrary,
  toolLibrary,
  registerTool,
  removeTool,
  unionLibraries,
  lookupTool,
  hasTool,
  librarySize,
  toolNames,
  listTools,
  libraryEntries,
  librariesEqual,
  isToolLibrary,
  checkLibrary,
} from './library/tool-library.js';
export type { JsonDifference, DiffOptions } from './library/json-diff.js';
export { diffJson, jsonEqual, formatDifferences, schemaDiffOptions } from './library/json-diff.js';
export type { NotJson } from './library/json-value.js';
export { findNonJson } from './library/json-value.js';
export type { BindError, BindErrorCode, Mismatch, MismatchCode, BindOptions, BoundTool, BoundTools, CompiledValidators } from './library/bind.js';
export { bindTool, bindAll, lookupBound, isBoundTool, formatBindError, bindErrorDiagnostic } from './library/bind.js';
export type { InvokeOptions } from './library/invoke.js';
export { invoke, invokeJson, invokeByName, invokeTask, parseArguments } from './library/invoke.js';
export type { InvocationEvent, InvokedEvent, ResultEvent, FailedEvent, InvocationObserver } from './library/events.js';
export { combineObservers, onEvent } from './library/events.js';
export type { ToolMetrics, ToolUsage, LatencySummary, MetricsSnapshot } from './library/metrics.js';
export { createToolMetrics } from './library/metrics.js';

// agent: conversation and model interface
export type * from './agent/messages.js';
export { systemMessage, userMessage, assistantMessage, toolMessage } from './agent/messages.js';
export type * from './agent/model.js';

// implementations: safe processes, safe fetch, declarative HTTP tools, command tools
export type { RunProcessOptions, ProcessResult, SpawnError } from './impls/process.js';
export { runProcess } from './impls/process.js';
export type { HostAllowlist, HostPattern, HostDecision } from './impls/host-allowlist.js';
export { parseAllowedHosts, checkHost, isPrivateAddress } from './impls/host-allowlist.js';
export type { SafeFetchOptions, FetchResponse, FetchError, FetchErrorCode } from './impls/safe-fetch.js';
export { safeFetch, safeDispatcher } from './impls/safe-fetch.js';
export type { HttpToolConfig, HttpToolConfigInput, HttpMethod } from './impls/http-config.js';
export { decodeHttpToolConfig, HTTP_METHODS } from './impls/http-config.js';
export type { HttpToolOptions } from './impls/http-tool.js';
export { httpTool } from './impls/http-tool.js';
export type { RetryPolicy } from './impls/retry.js';
export { DEFAULT_RETRY, IDEMPOTENT_METHODS } from './impls/retry.js';
export type { SecretProvider } from './impls/redact.js';
export { REDACTED } from './impls/redact.js';
export type { CommandToolConfig, CommandToolConfigInput } from './impls/command-config.js';
export { decodeCommandToolConfig } from './impls/command-config.js';
export type { CommandToolOptions } from './impls/command-tool.js';
export { commandTool } from './impls/command-tool.js';
export type { OutputMode, ParsedOutput } from './impls/command-output.js';
export { parseCommandOutput } from './impls/command-output.js';
export type { DeclarativeToolOptions, ImplementationKind } from './impls/declarative.js';
export { declaredTool, declaredKind, declarativeLibrary } from './impls/declarative.js';

// policy: approvals, safety rules, permissions and safety levels, evaluated before a call runs
export type { PolicyDecision, PolicySource, PolicyCall } from './policy/decision.js';
export { policyAllow, policyDeny, policyAsk, deniedResult } from './policy/decision.js';
export type { Policies, GuardOptions } from './policy/evaluate.js';
export { evaluatePolicies, evaluateStaticPolicies, withPolicies } from './policy/evaluate.js';
export type { PermissionPolicy } from './policy/permissions.js';
export { checkPermissions, permissionGranted, parsePermissionList, parseSafetyLevel, SAFETY_LEVELS } from './policy/permissions.js';
export type { ApprovalRequest, ApprovalResponse, Approver, ApprovalPolicy } from './policy/approvals.js';
export { checkApproval, approvalRequirement } from './policy/approvals.js';
export type { TerminalApprover, TerminalApproverOptions } from './policy/approvers.js';
export { approveAll, denyAll, approverFrom, terminalApprover } from './policy/approvers.js';
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
} from './policy/rules.js';
export {
  ruleEngine,
  emptyRuleEngine,
  customRule,
  forbiddenPatternsRule,
  forbiddenPathsRule,
  addRule,
  removeRule,
  combineRuleEngines,
  checkRules,
  describeViolations,
} from './policy/rules.js';
export { defaultRules, defaultRuleEngine, isCriticalPath, sensitivePath } from './policy/default-rules.js';
export type { CommandView } from './policy/command-view.js';
export { commandViews } from './policy/command-view.js';
export type { SimpleCommand, ParsedShell, Redirect } from './policy/shell-words.js';
export { parseShell } from './policy/shell-words.js';
