/**
 * The model interface: the one thing a provider implements. Small on purpose (the AI SDK's
 * LanguageModel and its mock show the shape): one request in, one assistant turn out.
 */
import type { CodedError, Result } from '../core/result.js';
import type { ModelErrorCode } from './codes.js';
import type { JsonObject } from '../core/json-schema.js';
import type { AssistantMessage, Message } from './messages.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A tool as the model sees it: canonical JSON Schema; adapters lower it to their dialect. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { readonly tool: string };

export interface ModelRequest {
  /** The agent's instruction. */
  readonly system?: string;
  readonly messages: ReadonlyArray<Message>;
  readonly tools: ReadonlyArray<ToolDefinition>;
  readonly toolChoice?: ToolChoice;
  /** Whether the model may ask for several tool calls in one turn (provider default when absent). */
  readonly parallelToolCalls?: boolean;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /** When given, the provider streams and calls this with each piece of text as it arrives. */
  readonly onTextDelta?: (delta: string) => void;
}

export type FinishReason = 'stop' | 'tool_calls' | 'length' | 'content_filter' | 'other';

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ModelResponse {
  readonly message: AssistantMessage;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  /** The provider's id of this response (`chatcmpl-…`, `msg_…`), when it gave one. */
  readonly id?: string;
  /** The model that answered, as the provider names it (`gpt-4o-mini-2024-07-18`), when known. */
  readonly model?: string;
}

export type { ModelErrorCode } from './codes.js';

/** A coded error (core/result.ts) of a model call, with the HTTP status when the provider's API gave one. */
export interface ModelError extends CodedError<ModelErrorCode> {
  /** HTTP status, when the failure came from the provider's API. */
  readonly status?: number;
}

export type ModelResult = Result<ModelResponse, ModelError>;

/** A provider's model. `generate` never throws or rejects: failures are `{ok: false}` results. */
export interface Model {
  /** `provider/model`, e.g. `openai/gpt-4o-mini`, `offline/demo`. */
  readonly id: string;
  generate(request: ModelRequest): Promise<ModelResult>;
}
