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
export type { GramJson, GramProperties, GramPattern, PatternSubject, LoweredDocument } from './gram/lower.js';
export { toPatterns, lowerPattern, valueToJson, recordToJson, propertiesToJson, identityOf, headerPattern } from './gram/lower.js';
export type { CanonicalJsonOptions } from './gram/canonical-json.js';
export { toCanonicalJson } from './gram/canonical-json.js';
export type { GramFormatOptions } from './gram/print.js';
export { formatGram } from './gram/print.js';
export { isSymbol as isGramSymbol, quote as quoteGramString } from './gram/strings.js';

// spec: JSON Schema, validation, specifications
export type { JsonValue, JsonObject, JsonSchema } from './spec/json-schema.js';
export type { ValidationIssue, ValidationIssueCode, CompiledSchema } from './spec/validate.js';
export { compileSchema, validateValue, formatIssues } from './spec/validate.js';
export type { ToolSpecification } from './spec/tool-spec.js';

// spec: type signatures, specifications, import, TypeScript types
export type {
  Type, TypeKind, PrimitiveKind, Keywords, KeywordName, Field, ObjectType, ArrayType, TupleType, UnionType,
  StringType, IntegerType, NumberType, BooleanType, NullType, AnyType, ReturnType, TypeSignature, TypeAlgebra,
} from './spec/types.js';
export {
  stringType, integerType, numberType, booleanType, nullType, anyType, arrayType, tupleType, objectType, unionType,
  primitiveType, field, typeSignature, returnType, matchType, foldType, withMeta, stripSpans, stripSignatureSpans,
  typeEquals, fieldEquals, signatureEquals, jsonEquals,
} from './spec/types.js';
export type { KeywordInfo, KeywordValueKind } from './spec/keywords.js';
export { KEYWORDS, keywordApplies } from './spec/keywords.js';
export { SigCodes, SpecCodes } from './spec/codes.js';
export type { TypeExpression, TypeExpressionOptions } from './spec/type-expr.js';
export { parseTypeExpression, printTypeExpression, TYPE_NAMES } from './spec/type-expr.js';
export type { SignatureOptions, CompiledSignature } from './spec/signature.js';
export { parseTypeSignature, typeSignatureToJSONSchema, checkTypeSignature, compileSignature } from './spec/signature.js';
export type { SignatureSchemas } from './spec/to-json-schema.js';
export { toJsonSchema, argumentsSchema, signatureSchemas } from './spec/to-json-schema.js';
export type { SchemaDialect, SchemaImportOptions, Checked } from './spec/from-json-schema.js';
export { fromJsonSchema, checkFromJsonSchema, checkSignatureFromJsonSchemas, ImportCodes, BFCL_TYPES } from './spec/from-json-schema.js';
export type { Intersection } from './spec/intersect.js';
export { intersect } from './spec/intersect.js';
export type { ValueProblem } from './spec/value-check.js';
export { checkValue, isValueOf } from './spec/value-check.js';
export type { SignaturePrintOptions, NameStyle } from './spec/print-signature.js';
export { printSignature, ARGUMENTS_LABEL } from './spec/print-signature.js';
export { jsonToGram } from './spec/gram-values.js';
export type { ToolSpecificationOptions } from './spec/tool-spec.js';
export {
  createToolSpecification, checkToolSpecification, toolSpecName, toolSpecDescription, toolSpecTypeSignature, toolSpecSchema,
  toolSpecOutputSchema, toolSpecMetadata, toolSpecSignature, withMetadata,
} from './spec/tool-spec.js';
export { validateToolArgs, compiledSchemaCount } from './spec/validate.js';
export type { AgentSpecification, AgentSpecificationOptions } from './spec/agent-spec.js';
export {
  createAgentSpecification, checkAgentSpecification, agentSpecName, agentSpecDescription, agentSpecInstruction, agentSpecModel,
  agentSpecTools, agentTool,
} from './spec/agent-spec.js';
export type { DecodeOptions, DecodedSpecifications } from './spec/codecs.js';
export {
  ToolSpecificationJson, AgentSpecificationJson, SpecificationsJson, encodeToolSpecification, decodeToolSpecification,
  encodeAgentSpecification, decodeAgentSpecification, encodeSpecifications, decodeSpecifications,
} from './spec/codecs.js';
export type { GramPrintOptions } from './spec/serialize.js';
export { printToolSpecification, printAgentSpecification, printSpecifications } from './spec/serialize.js';
export type { LoadOptions, Specifications, SpecificationSource, KnownTools } from './spec/load.js';
export { parseSpecifications, loadSpecifications, loadSpecificationFiles } from './spec/load.js';
export type { ImportFormat, ImportOptions, ImportedTool, ImportReport } from './spec/import.js';
export { importTools, importDefinitions, importSucceeded, detectFormat, IMPORT_FORMATS } from './spec/import.js';
export type { TypeView, TypeScriptOptions } from './spec/to-typescript.js';
export { typeToTypeScript, toolsToTypeScript, signatureDeclarations } from './spec/to-typescript.js';
export type { InferArgs, InferInput, InferResult, InferToolArgs, InferToolResult, SignatureOf, ExprType } from './spec/infer.js';

// library: tools and results
export type { Tool, ToolImplementation, InvocationContext, ToolLimits, ToolAnnotations, SafetyLevel, ApprovalRequirement } from './library/tool.js';
export type { ToolResult, ToolError, ToolErrorCode } from './library/result.js';
export { ToolErrorCodes, ToolFailure, ok, fail } from './library/result.js';

// library
export type { ToolOptions } from './library/tool.js';
export { createTool, toolName, toolDescription, toolSchema, toolOutputSchema, isTool, validateTool } from './library/tool.js';
export type { DefineToolOptions, DefineToolFromGramOptions } from './library/define-tool.js';
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
export type { Variant, VariantBindError } from './library/variants.js';
export { bindVariants, variantMetrics } from './library/variants.js';

// agent: conversation and model interface
export type * from './agent/messages.js';
export { systemMessage, userMessage, assistantMessage, toolMessage } from './agent/messages.js';
export type * from './agent/model.js';

// providers: schema dialects (exporters, the argument normalizer, tool names, rule checkers) and models
export type { Dialect, DialectCode, ExportableTool, ExportedTool, ExportedTools, ToolNameMap, ToolNameRule } from './spec/dialects/index.js';
export {
  DIALECTS,
  DialectCodes,
  isDialect,
  parseDialect,
  exportTool,
  exportTools,
  normalizeArguments,
  TOOL_NAME_RULES,
  isValidToolName,
  sanitizeToolName,
  toolNameMap,
  gramkitToolName,
  providerToolName,
  checkExportedTool,
} from './spec/dialects/index.js';
export type { ProviderOptions } from './providers/provider-options.js';
export type { RetryPolicy as ModelRetryPolicy, RetryInfo as ModelRetryInfo } from './providers/retry.js';
export type { OpenAIOptions } from './providers/openai.js';
export { openAIModel, OPENAI_BASE_URL } from './providers/openai.js';
export type { AnthropicOptions } from './providers/anthropic.js';
export { anthropicModel, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION } from './providers/anthropic.js';
export type { OpenAIResponsesOptions } from './providers/openai-responses.js';
export { openAIResponsesModel } from './providers/openai-responses.js';
export type { GeminiOptions } from './providers/gemini.js';
export { geminiModel, GEMINI_BASE_URL, GEMINI_API_VERSION } from './providers/gemini.js';
export { offlineModel } from './providers/offline.js';
export type { Recording, RecordedExchange, RecordedModelRequest } from './providers/recording.js';
export { parseRecording, loadRecording, serializeRecording } from './providers/recording.js';
export type { ReplayOptions, RecordOptions } from './providers/replay.js';
export { replayModel, recordModel } from './providers/replay.js';
export type { CreateModelOptions, ModelId } from './providers/registry.js';
export { createModel, parseModelId, MODEL_ID_FORMS } from './providers/registry.js';
// providers: testing helper (a scripted mock model)
export type { ScriptedTurn, ScriptedToolCall, ScriptedScript, ScriptedModel } from './providers/scripted.js';
export { scriptedModel } from './providers/scripted.js';

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
export type { DeclarativeToolOptions, ImplementationKind, DeclarativeLoad } from './impls/declarative.js';
export { declaredTool, declaredKind, declarativeLibrary, loadDeclarativeLibrary } from './impls/declarative.js';

// builtins: file, code, shell, web, JSON and text tools, confined to a workspace
export type { BuiltinOptions, BuiltinLimits, SandboxOptions, SandboxMode } from './builtins/options.js';
export { DEFAULT_LIMITS } from './builtins/options.js';
export type { BuiltinToolName } from './builtins/specifications.js';
export { builtinSpecifications, builtinSpecification, isBuiltinToolName, BUILTIN_TOOL_NAMES } from './builtins/specifications.js';
export { BUILTINS_GRAM } from './builtins/builtins-gram.js';
export { builtinTools, builtinLibrary } from './builtins/builtin-tools.js';
export { BuiltinErrorCodes } from './builtins/errors.js';
export type { WorkspacePath, PathRefusal, ResolvePathOptions } from './builtins/workspace.js';
export { normalizeWorkspacePath, resolveWorkspacePath } from './builtins/workspace.js';
export type { WebSearchBackend, WebSearchResult, WebSearchRequest, SearxngOptions, SearchDocument } from './builtins/web-search-backend.js';
export { searxngBackend, inMemorySearchBackend } from './builtins/web-search-backend.js';
export type { SandboxPlan, HostLayout, ResourceLimits, SandboxStatus } from './builtins/sandbox.js';
export { bwrapArguments, probeHostLayout, probeSandbox, findBwrap, SANDBOX_WORKSPACE } from './builtins/sandbox.js';
export type { DirectoryEntry, EntryType, ListDirectoryResult } from './builtins/list-directory.js';
export type { ReadFileResult, FileEncoding } from './builtins/read-file.js';
export type { WriteFileResult } from './builtins/write-file.js';
export type { DeleteFileResult } from './builtins/delete-file.js';
export type { MoveFileResult } from './builtins/move-file.js';
export type { ProgramResult } from './builtins/run-program.js';
export type { WebFetchResult } from './builtins/web-fetch.js';
export type { WebSearchToolResult } from './builtins/web-search.js';
export type { JsonParseResult } from './builtins/json-parse.js';
export type { TextSearchResult } from './builtins/text-search.js';

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

// agent: the tool-calling loop, runs, stop conditions, events, traces, experiments
export type { AgentError, AgentErrorCode } from './agent/agent-error.js';
export { AgentErrorCodes, agentError, formatAgentError } from './agent/agent-error.js';
export type { ConversationProblem, CheckedConversation } from './agent/conversation.js';
export { checkConversation, conversationProblems, continueConversation } from './agent/conversation.js';
export type { AgentEvent, AgentEventType, AgentEventListener } from './agent/events.js';
export type { AgentTrace, TraceSpan, TraceSpanKind, TraceAttribute } from './agent/trace.js';
export { formatTrace } from './agent/trace.js';
export type { LoopState, Stop, StopCondition } from './agent/stop.js';
export { stepLimit, timeLimit, tokenLimit, whenAborted, stopWhen, firstStop } from './agent/stop.js';
export type { BoundAgent } from './agent/bind-agent.js';
export { bindAgent } from './agent/bind-agent.js';
export type { ToolUse, ToolApproval } from './agent/tool-call.js';
export { toolResultContent } from './agent/tool-call.js';
export type { RunAgentOptions, AgentUsage, AgentProgress, AgentRun, AgentFailure, AgentResult, AgentInput } from './agent/run-types.js';
export { runAgent, runBoundAgent, runAgentTask, checkRunOptions } from './agent/run-agent.js';
export { DEFAULT_MAX_STEPS } from './agent/loop.js';
export type {
  ExperimentInput, ExperimentVariant, ExperimentRunKey, ExperimentOptions, ExperimentToolCall, ExperimentRun, VariantSummary,
  AnswerDifference, ExperimentReport, ExperimentResult,
} from './agent/experiment.js';
export { runExperiment } from './agent/experiment.js';
export type { LatencyStats } from './agent/experiment-stats.js';
export { percentile, latencyStats, normalizeAnswer } from './agent/experiment-stats.js';
export { formatExperimentReport } from './agent/experiment-report.js';
