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

// spec: JSON Schema, validation, specifications
export type { JsonValue, JsonObject, JsonSchema } from './spec/json-schema.js';
export type { ValidationIssue, ValidationIssueCode, CompiledSchema } from './spec/validate.js';
export { compileSchema, validateValue, formatIssues } from './spec/validate.js';
export type { ToolSpecification } from './spec/tool-spec.js';

// library: tools and results
export type { Tool, ToolImplementation, InvocationContext, ToolLimits, ToolAnnotations, SafetyLevel, ApprovalRequirement } from './library/tool.js';
export type { ToolResult, ToolError, ToolErrorCode } from './library/result.js';
export { ToolErrorCodes, ToolFailure, ok, fail } from './library/result.js';

// agent: conversation and model interface
export type * from './agent/messages.js';
export { systemMessage, userMessage, assistantMessage, toolMessage } from './agent/messages.js';
export type * from './agent/model.js';
