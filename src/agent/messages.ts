/**
 * The conversation as plain data: serializable to JSON as it is, so a conversation can be saved
 * and continued. Provider adapters translate it to and from each wire format.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A tool call as the model asked for it. */
export interface ToolCall {
  /** The provider's call id (`call_…`, `toolu_…`); adapters invent one when the wire has none. */
  readonly id: string;
  /** The tool name as gramkit knows it (adapters undo any provider name sanitizing). */
  readonly name: string;
  /**
   * The arguments as JSON text, exactly as the model sent them (OpenAI sends a string that may not
   * be valid JSON; Anthropic's object is serialized). The loop parses and validates it.
   */
  readonly arguments: string;
}

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
}

export interface AssistantMessage {
  readonly role: 'assistant';
  /** Text the model wrote (may be empty when it only calls tools). */
  readonly content: string;
  readonly toolCalls?: ReadonlyArray<ToolCall>;
}

/** The result of one tool call, sent back to the model. */
export interface ToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName: string;
  /** What the model reads: the result as JSON text, or the error's code and message. */
  readonly content: string;
  readonly isError?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const systemMessage = (content: string): SystemMessage => ({ role: 'system', content });
export const userMessage = (content: string): UserMessage => ({ role: 'user', content });
export const assistantMessage = (content: string, toolCalls?: ReadonlyArray<ToolCall>): AssistantMessage =>
  toolCalls !== undefined && toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
export const toolMessage = (toolCallId: string, toolName: string, content: string, isError = false): ToolMessage =>
  isError ? { role: 'tool', toolCallId, toolName, content, isError } : { role: 'tool', toolCallId, toolName, content };
