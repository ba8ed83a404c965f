/**
 * gramkit's root entry: the core a user starts with. Gram notation in, tool and agent
 * specifications, JSON Schema, validation, tool libraries, late binding, invocation, and the agent
 * loop. The rest lives in subpath entries (see src/entries/): `gramkit/gram` (the front end's
 * lower-level pieces), `gramkit/types` (the type language and its interpreters),
 * `gramkit/providers` (models and schema dialects), `gramkit/tools` (HTTP and command tools),
 * `gramkit/builtins`, `gramkit/policy` and `gramkit/testing`.
 *
 * Anything not exported from an entry is internal and may change; test/api keeps each entry's
 * surface deliberate.
 */

// core: diagnostics, results
import './registries.js';
export type { Span, Position } from './core/span.js';
export type { Diagnostic, Severity, RelatedInformation } from './core/diagnostic.js';
export { hasErrors } from './core/diagnostic.js';
export { formatDiagnostic, formatDiagnostics } from './core/format-diagnostic.js';
export type { JsonValue, JsonObject, JsonSchema } from './core/json-schema.js';
export type { Either, Diagnosed, Checked, Warned } from './core/either.js';
export { checkedValue, checkedDiagnostics } from './core/either.js';
export type { Result, Ok, Err, CodedError } from './core/result.js';
export { ok, err, isOk, isErr, fromEither, toEither } from './core/result.js';
export type { CanonicalCode, CanonicalSpec, CodeInfo, Retry } from './core/codes.js';
export { codeInfo } from './core/codes.js';
export type { HttpDispatcher } from './net/dispatcher.js';

// gram: parsing, lowering to patterns, canonical JSON, formatting
export type * from './gram/ast.js';
export type { GramCode } from './gram/codes.js';
export { GramCodes } from './gram/codes.js';
export type { ParseOptions } from './gram/parse.js';
export { parseGram, analyzeGram } from './gram/parse.js';
export type { GramJson, GramProperties, GramPattern, PatternSubject, LoweredDocument } from './gram/lower.js';
export { toPatterns } from './gram/lower.js';
export type { CanonicalJsonOptions } from './gram/canonical-json.js';
export { toCanonicalJson } from './gram/canonical-json.js';
export type { GramFormatOptions } from './gram/print.js';
export { formatGram } from './gram/print.js';

// spec: type signatures and JSON Schema
export type { TypeSignature, Type } from './types/types.js';
export type { SignatureOptions } from './specification/signature.js';
export { parseTypeSignature, typeSignatureToJSONSchema, checkTypeSignature } from './specification/signature.js';
export type { CompiledSignature } from './types/compile-signature.js';
export { compileSignature } from './types/compile-signature.js';
export type { SpecCode, ArgCode } from './types/codes.js';
export { SpecCodes, ArgCodes } from './types/codes.js';

// spec: validation
export type { ValidationIssue, ValidationIssueCode, CompiledSchema } from './schema/validate.js';
export { validateToolArgs, compileSchema, validateValue, formatIssues } from './schema/validate.js';

// spec: tool and agent specifications, in gram and in JSON
export type { ToolSpecification, ToolSpecificationOptions } from './specification/tool-spec.js';
export {
  createToolSpecification,
  checkToolSpecification,
  toolSpecName,
  toolSpecDescription,
  toolSpecTypeSignature,
  toolSpecSchema,
  toolSpecOutputSchema,
  toolSpecMetadata,
  toolSpecSignature,
  withMetadata,
} from './specification/tool-spec.js';
export type { AgentSpecification, AgentSpecificationOptions } from './specification/agent-spec.js';
export {
  createAgentSpecification,
  checkAgentSpecification,
  agentSpecName,
  agentSpecDescription,
  agentSpecInstruction,
  agentSpecModel,
  agentSpecTools,
  agentTool,
} from './specification/agent-spec.js';
export type { DecodeOptions, DecodedSpecifications } from './specification/json-form.js';
export {
  encodeToolSpecification,
  decodeToolSpecification,
  encodeAgentSpecification,
  decodeAgentSpecification,
  encodeSpecifications,
  decodeSpecifications,
} from './specification/json-form.js';
export type { GramPrintOptions } from './specification/serialize.js';
export { printToolSpecification, printAgentSpecification, printSpecifications } from './specification/serialize.js';
export type { LoadOptions, Specifications, SpecificationSource, KnownTools } from './specification/load.js';
export { parseSpecifications, loadSpecifications } from './specification/load.js';
export { loadSpecificationFiles } from './specification/load-files.js';
export type { ImportFormat, ImportOptions, ImportedTool, ImportReport } from './specification/import.js';
export { importTools } from './specification/import.js';
export type { TypeScriptOptions } from './specification/to-typescript.js';
export { toolsToTypeScript } from './specification/to-typescript.js';
export type { InferArgs, InferInput, InferResult, InferToolArgs, InferToolResult, SignatureOf, ExprType } from './types/infer.js';

// library: tools and their results
export type {
  Tool,
  ToolImplementation,
  InvocationContext,
  ProgressReporter,
  ToolLimits,
  ToolAnnotations,
  SafetyLevel,
  ApprovalRequirement,
  ToolOptions,
} from './library/tool.js';
export { createTool, toolName, toolDescription, toolSchema, toolOutputSchema, isTool } from './library/tool.js';
export type { DefineToolOptions, DefineToolFromGramOptions } from './library/define-tool.js';
export { defineTool } from './library/define-tool.js';
export type { Handler, Handlers, ToolTypes, ImplementSource, ImplementOptions } from './tools/implement.js';
export { implement, implementSync, ImplementError } from './tools/implement.js';
export type { ToolResult, ToolError, ToolErrorCode } from './library/result.js';
export { ToolFailure, fail } from './library/result.js';
export type { ToolCode } from './library/codes.js';
export { ToolCodes } from './library/codes.js';

// library: the immutable tool library, late binding, invocation
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
  isToolLibrary,
} from './library/tool-library.js';
export type { BindError, BindErrorCode, Mismatch, MismatchCode, BindOptions, BoundTool, BoundTools } from './library/bind.js';
export { bindTool, bindAll, lookupBound, formatBindError } from './library/bind.js';
export type { InvokeOptions } from './library/invoke.js';
export { invoke, invokeJson, invokeByName, invokeTask, DEFAULT_TOOL_TIMEOUT_MS } from './library/invoke.js';
export type { Call, Next, Step, Invoker, InvokerOptions } from './library/invoker.js';
export { createInvoker } from './library/invoker.js';
export { MAX_ARGUMENT_DEPTH } from './core/json.js';
export type { InvocationEvent, InvokedEvent, ResultEvent, FailedEvent, InvocationObserver } from './library/events.js';
export { onEvent } from './library/events.js';
export type { ToolMetrics, ToolUsage, LatencySummary, MetricsSnapshot } from './library/metrics.js';
export { createToolMetrics } from './library/metrics.js';
export type { Variant, VariantBindError } from './library/variants.js';
export { bindVariants, variantMetrics } from './library/variants.js';

// agent: messages, the model interface, the loop, experiments
export type * from './agent/messages.js';
export { systemMessage, userMessage, assistantMessage, toolMessage } from './agent/messages.js';
export type * from './agent/model.js';
export type { AgentError, AgentErrorCode } from './agent/agent-error.js';
export { formatAgentError } from './agent/agent-error.js';
export type { AgentCode } from './agent/codes.js';
export { AgentCodes } from './agent/codes.js';
export { continueConversation } from './agent/conversation.js';
export type { AgentEvent, AgentEventType, AgentEventListener } from './agent/events.js';
export type { AgentTrace, TraceSpan, TraceSpanKind, TraceAttribute } from './agent/trace.js';
export { formatTrace } from './agent/trace.js';
export type { LoopState, Stop, StopCondition } from './agent/stop.js';
export { stepLimit, timeLimit, tokenLimit, stopWhen } from './agent/stop.js';
export type { BoundAgent } from './agent/bind-agent.js';
export { bindAgent } from './agent/bind-agent.js';
export type { ToolUse, ToolApproval } from './agent/tool-call.js';
export type { RunAgentOptions, AgentUsage, AgentProgress, AgentRun, AgentFailure, AgentResult, AgentInput } from './agent/run-types.js';
export { runAgent, runBoundAgent, runAgentTask } from './agent/run-agent.js';
export { DEFAULT_MAX_STEPS } from './agent/loop.js';
export type {
  ExperimentInput,
  ExperimentVariant,
  ExperimentRunKey,
  ExperimentModel,
  ExperimentOptions,
  ExperimentExecutor,
  ExperimentToolCall,
  ExperimentRun,
  VariantSummary,
  AnswerDifference,
  ExperimentReport,
  ExperimentResult,
} from './agent/experiment.js';
export { runExperiment } from './agent/experiment.js';
export type { Named, VariantParts, PartsVariant } from './agent/experiment-variants.js';
export type { LatencyStats, Interval, PairedComparison } from './agent/experiment-stats.js';
export type { AnswerChecks, RunScore, ScorerInput, ExperimentScorer } from './agent/experiment-scoring.js';
export { formatExperimentReport, EXPERIMENT_COLUMNS } from './agent/experiment-report.js';
export { matchToolCalls } from './agent/tool-call-match.js';
export type { AskedToolCall, ExpectedToolCall, ToolCallMatch } from './agent/tool-call-match.js';
export type { ExperimentColumn } from './agent/experiment-report.js';
