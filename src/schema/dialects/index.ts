/**
 * Provider schema dialects: exporters (canonical JSON Schema → a provider's tool definitions),
 * the argument normaliser that undoes their lowering, tool-name rules with a reverse map, and
 * checkers of each provider's documented rules.
 */
export type { Dialect, ExportableTool, ExportedTool, ExportedTools, DialectCode } from './dialect.js';
export { DIALECTS, DialectCodes, isDialect, parseDialect } from './dialect.js';
export { exportTool, exportTools } from './export-tools.js';
export { normalizeArguments } from './normalize-arguments.js';
export type { ToolNameMap, ToolNameRule } from './tool-names.js';
export { TOOL_NAME_RULES, isValidToolName, sanitizeToolName, toolNameMap, gramkitToolName, providerToolName } from './tool-names.js';
export { checkExportedTool } from './check-dialect.js';
