/**
 * `gramkit/providers`: models (OpenAI and compatible servers, Anthropic, the offline demo model,
 * record and replay, `createModel` from an id) and the schema dialects of each provider (export,
 * tool-name rules, the argument normalizer).
 */
export type { Dialect, DialectCode, ExportableTool, ExportedTool, ExportedTools, ToolNameMap, ToolNameRule } from '../schema/dialects/index.js';
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
} from '../schema/dialects/index.js';
export type { ProviderOptions } from '../providers/provider-options.js';
export type { RetryInfo } from '../net/retry.js';
export { MODEL_RETRY } from '../net/retry.js';
export type { OpenAIOptions } from '../providers/openai.js';
export { openAIModel, OPENAI_BASE_URL } from '../providers/openai.js';
export type { AnthropicOptions } from '../providers/anthropic.js';
export { anthropicModel, ANTHROPIC_BASE_URL, ANTHROPIC_VERSION } from '../providers/anthropic.js';
export { offlineModel } from '../providers/offline.js';
export type { Recording, RecordedExchange, RecordedModelRequest } from '../providers/recording.js';
export { parseRecording, loadRecording, serializeRecording } from '../providers/recording.js';
export type { ReplayOptions, RecordOptions } from '../providers/replay.js';
export { replayModel, recordModel } from '../providers/replay.js';
export type { CreateModelOptions, ModelId } from '../providers/registry.js';
export { createModel, parseModelId, MODEL_ID_FORMS } from '../providers/registry.js';
export type { OpenAIResponsesOptions } from '../providers/openai-responses.js';
export { openAIResponsesModel } from '../providers/openai-responses.js';
export type { GeminiOptions } from '../providers/gemini.js';
export { geminiModel, GEMINI_BASE_URL, GEMINI_API_VERSION } from '../providers/gemini.js';
