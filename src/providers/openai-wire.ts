/**
 * The OpenAI Chat Completions wire format (and the legacy `functions` API of older servers):
 * gramkit requests to request bodies, response bodies and stream chunks to assistant turns.
 * Pure functions; the transport is in `openai.ts`.
 */
import { AgentCodes } from '../agent/codes.js';
import { isRecord } from '../core/json.js';
import type { AssistantMessage, Message, ToolCall } from '../agent/messages.js';
import type { FinishReason, ModelError, ModelRequest, ModelResult, Usage } from '../agent/model.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { configurationError, failure, invalidResponse, modelError, readErrorBody, streamInterrupted, success } from './model-error.js';
import { isModelError } from './provider-options.js';
import { gramkitName, normalizeCallArguments, wireName, type PreparedTools } from './prepared-tools.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface OpenAIWireOptions {
  /** The model name as the server knows it (`gpt-4o-mini`, `llama3.2`). */
  readonly model: string;
  /** Use `functions`/`function_call` instead of `tools`/`tool_calls` (older servers). */
  readonly legacyFunctions: boolean;
  /** `max_completion_tokens` (OpenAI's current name) or `max_tokens` (what compatible servers take). */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Ask for usage in the last stream chunk (`stream_options.include_usage`). */
  readonly streamUsage: boolean;
}

type Wire = Record<string, JsonValue>;

// -------------------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------------------

const assistantWire = (m: AssistantMessage, p: PreparedTools): Wire => {
  const calls = m.toolCalls ?? [];
  if (calls.length === 0) return { role: 'assistant', content: m.content };
  return {
    role: 'assistant',
    content: m.content.length > 0 ? m.content : null,
    tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: wireName(p, c.name), arguments: c.arguments } })),
  };
};

/** Messages for `tools`/`tool_calls`. */
const toolMessages = (messages: ReadonlyArray<Message>, p: PreparedTools): Wire[] =>
  messages.map((m): Wire => {
    switch (m.role) {
      case 'system':
      case 'user':
        return { role: m.role, content: m.content };
      case 'assistant':
        return assistantWire(m, p);
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
    }
  });

/**
 * Messages for the legacy functions API: no call ids and one call per assistant message, so an
 * assistant turn with several calls becomes one `function_call` message before each result.
 */
const legacyMessages = (messages: ReadonlyArray<Message>, p: PreparedTools): Wire[] => {
  const out: Wire[] = [];
  const pending = new Map<string, { readonly call: ToolCall; emitted: boolean; readonly content: string }>();
  const emitCall = (id: string): void => {
    const e = pending.get(id);
    if (e === undefined || e.emitted) return;
    e.emitted = true;
    out.push({
      role: 'assistant',
      content: e.content.length > 0 ? e.content : null,
      function_call: { name: wireName(p, e.call.name), arguments: e.call.arguments },
    });
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
      case 'user':
        out.push({ role: m.role, content: m.content });
        break;
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        if (calls.length === 0) {
          out.push({ role: 'assistant', content: m.content });
          break;
        }
        calls.forEach((c, i) => pending.set(c.id, { call: c, emitted: false, content: i === 0 ? m.content : '' }));
        const firstCall = calls[0];
        if (firstCall !== undefined) emitCall(firstCall.id);
        break;
      }
      case 'tool':
        emitCall(m.toolCallId);
        out.push({ role: 'function', name: wireName(p, m.toolName), content: m.content });
        break;
    }
  }
  return out;
};

const toolChoiceWire = (req: ModelRequest, p: PreparedTools, legacy: boolean): JsonValue | ModelError | undefined => {
  const c = req.toolChoice;
  if (c === undefined || p.wire.length === 0) return undefined;
  if (!legacy) {
    if (typeof c === 'string') return c;
    return { type: 'function', function: { name: wireName(p, c.tool) } };
  }
  if (c === 'auto' || c === 'none') return c;
  if (c === 'required') {
    const fn = p.wire.length === 1 ? (p.wire[0] as JsonObject)['function'] : undefined;
    const only = typeof fn === 'object' && fn !== null && !Array.isArray(fn) ? (fn as JsonObject)['name'] : undefined;
    if (typeof only === 'string') return { name: only };
    return configurationError(
      'toolChoice "required" has no equivalent in the legacy functions API when there are several tools; use toolChoice {tool: name} or the tools API',
    );
  }
  return { name: wireName(p, c.tool) };
};

/** The request body for `POST {baseUrl}/chat/completions`. */
export const openAIRequestBody = (req: ModelRequest, o: OpenAIWireOptions, p: PreparedTools, stream: boolean): JsonObject | ModelError => {
  const messages: Wire[] = [];
  if (req.system !== undefined && req.system.length > 0) messages.push({ role: 'system', content: req.system });
  messages.push(...(o.legacyFunctions ? legacyMessages(req.messages, p) : toolMessages(req.messages, p)));
  const body: Wire = { model: o.model, messages };
  if (p.wire.length > 0) {
    if (o.legacyFunctions) body['functions'] = p.wire.map((t) => (t as { function: JsonValue }).function as JsonValue).map(stripStrict);
    else body['tools'] = [...p.wire];
  }
  const choice = toolChoiceWire(req, p, o.legacyFunctions);
  if (isModelError(choice)) return choice;
  if (choice !== undefined) body[o.legacyFunctions ? 'function_call' : 'tool_choice'] = choice;
  if (req.parallelToolCalls !== undefined && p.wire.length > 0 && !o.legacyFunctions) body['parallel_tool_calls'] = req.parallelToolCalls;
  if (req.maxTokens !== undefined) body[o.maxTokensField] = req.maxTokens;
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (stream) {
    body['stream'] = true;
    if (o.streamUsage) body['stream_options'] = { include_usage: true };
  }
  return body;
};

const stripStrict = (f: JsonValue): JsonValue => {
  if (typeof f !== 'object' || f === null || Array.isArray(f)) return f;
  const { strict: _strict, ...rest } = f as Wire;
  return rest;
};

// -------------------------------------------------------------------------------------------------
// response
// -------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined => (isRecord(v) ? (v as Obj) : undefined);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** Text content: a string, or an array of text parts (some compatible servers). */
const contentText = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((part) => asStr(asObj(part)?.['text']) ?? '').join('');
  return '';
};

/** Arguments as JSON text: a string as sent, or an object some servers send, serialized. */
const argumentsText = (v: unknown): string => {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
};

export const finishReasonOf = (raw: unknown, hasCalls: boolean): FinishReason => {
  if (hasCalls) return 'tool_calls';
  switch (raw) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content_filter';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    default:
      return raw === null || raw === undefined ? 'stop' : 'other';
  }
};

const usageOf = (u: unknown): Usage => {
  const o = asObj(u);
  return { inputTokens: asNum(o?.['prompt_tokens']), outputTokens: asNum(o?.['completion_tokens']) };
};

/** A call id for servers that send none (the legacy API, some local servers): unique in the conversation. */
export const inventedCallId = (req: ModelRequest, index: number): string => `call_gk${req.messages.length}_${index}`;

const makeCall = (req: ModelRequest, p: PreparedTools, index: number, id: string | undefined, name: string, args: string): ToolCall => {
  const gk = gramkitName(p, name);
  return { id: id !== undefined && id.length > 0 ? id : inventedCallId(req, index), name: gk, arguments: normalizeCallArguments(p, gk, args) };
};

/** A non-streamed `chat.completion` body → the assistant turn. */
export const openAIResponse = (json: unknown, req: ModelRequest, p: PreparedTools, raw: string): ModelResult => {
  const o = asObj(json);
  if (o === undefined) return failure(invalidResponse('the chat completion is not a JSON object', raw));
  if (o['error'] !== undefined) {
    const e = readErrorBody(raw);
    return failure(modelError(AgentCodes.LLM_API_ERROR, `OpenAI API error: ${e.message}`, { details: e }));
  }
  const choices = o['choices'];
  const choice = Array.isArray(choices) ? asObj(choices[0]) : undefined;
  const message = asObj(choice?.['message']);
  if (choice === undefined || message === undefined) return failure(invalidResponse('the chat completion has no choices[0].message', raw));
  const calls: ToolCall[] = [];
  const toolCalls = message['tool_calls'];
  if (Array.isArray(toolCalls)) {
    toolCalls.forEach((tc, i) => {
      const t = asObj(tc);
      const fn = asObj(t?.['function']);
      const name = asStr(fn?.['name']);
      if (name === undefined) return;
      calls.push(makeCall(req, p, i, asStr(t?.['id']), name, argumentsText(fn?.['arguments'])));
    });
    if (calls.length < toolCalls.length) return failure(invalidResponse('a tool call in the chat completion has no function name', raw));
  }
  const fc = asObj(message['function_call']);
  if (fc !== undefined && calls.length === 0) {
    const name = asStr(fc['name']);
    if (name === undefined) return failure(invalidResponse('the function_call in the chat completion has no name', raw));
    calls.push(makeCall(req, p, 0, undefined, name, argumentsText(fc['arguments'])));
  }
  const refusal = asStr(message['refusal']);
  const text = contentText(message['content']);
  const content = text.length > 0 ? text : (refusal ?? '');
  const finishReason =
    refusal !== undefined && text.length === 0 && calls.length === 0 ? 'content_filter' : finishReasonOf(choice['finish_reason'], calls.length > 0);
  const id = asStr(o['id']);
  const model = asStr(o['model']);
  return success({
    message: calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content },
    finishReason,
    usage: usageOf(o['usage']),
    ...(id !== undefined ? { id } : {}),
    ...(model !== undefined ? { model } : {}),
  });
};

// -------------------------------------------------------------------------------------------------
// stream
// -------------------------------------------------------------------------------------------------

interface PartialCall {
  id?: string;
  name: string;
  args: string;
}

/**
 * Accumulates `chat.completion.chunk`s: text deltas (passed to `onText` as they come), tool calls
 * by `index` (id and name in the first delta, arguments split across the following ones), the
 * legacy `function_call` delta, the finish reason and the usage of the last chunk.
 */
export const openAIStream = (req: ModelRequest, p: PreparedTools, onText: (delta: string) => void) => {
  let content = '';
  let refusal = '';
  let finish: unknown;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let id: string | undefined;
  let model: string | undefined;
  let error: ModelError | undefined;
  let done = false;
  let chunks = 0;
  const calls = new Map<number, PartialCall>();
  let legacy: PartialCall | undefined;

  const event = (data: string): void => {
    if (error !== undefined || done) return;
    if (data.trim() === '[DONE]') {
      done = true;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      error = invalidResponse('a stream chunk is not JSON', data);
      return;
    }
    const o = asObj(json);
    if (o === undefined) return;
    if (o['error'] !== undefined) {
      const e = readErrorBody(data);
      error = modelError(AgentCodes.LLM_API_ERROR, `OpenAI API error in the stream: ${e.message}`, { retryable: true, details: e });
      return;
    }
    chunks++;
    id ??= asStr(o['id']);
    model ??= asStr(o['model']);
    if (o['usage'] !== undefined && o['usage'] !== null) usage = usageOf(o['usage']);
    const choices = o['choices'];
    const choice = Array.isArray(choices) ? asObj(choices[0]) : undefined;
    if (choice === undefined) return;
    if (choice['finish_reason'] !== undefined && choice['finish_reason'] !== null) finish = choice['finish_reason'];
    const delta = asObj(choice['delta']);
    if (delta === undefined) return;
    const text = contentText(delta['content']);
    if (text.length > 0) {
      content += text;
      onText(text);
    }
    const r = asStr(delta['refusal']);
    if (r !== undefined) refusal += r;
    const tcs = delta['tool_calls'];
    if (Array.isArray(tcs)) {
      tcs.forEach((tc, position) => {
        const t = asObj(tc);
        if (t === undefined) return;
        const index = typeof t['index'] === 'number' ? t['index'] : position;
        const fn = asObj(t['function']);
        let c = calls.get(index);
        if (c === undefined) {
          c = { name: '', args: '' };
          calls.set(index, c);
        }
        const tid = asStr(t['id']);
        if (tid !== undefined && tid.length > 0) c.id = tid;
        const name = asStr(fn?.['name']);
        if (name !== undefined) c.name = c.name.length === 0 || c.name === name ? name : c.name + name;
        c.args += argumentsText(fn?.['arguments']);
      });
    }
    const fc = asObj(delta['function_call']);
    if (fc !== undefined) {
      legacy ??= { name: '', args: '' };
      const name = asStr(fc['name']);
      if (name !== undefined) legacy.name += name;
      legacy.args += argumentsText(fc['arguments']);
    }
  };

  const result = (): ModelResult => {
    if (error !== undefined) return failure(error);
    if (chunks === 0) return failure(streamInterrupted('OpenAI', 'its first chunk'));
    // a cut stream has neither [DONE] nor a finish reason: its tool calls may be incomplete
    if (!done && (finish === undefined || finish === null)) return failure(streamInterrupted('OpenAI', '[DONE] or a finish_reason'));
    const list: ToolCall[] = [];
    for (const [index, c] of [...calls.entries()].sort((a, b) => a[0] - b[0])) {
      if (c.name.length === 0) return failure(invalidResponse(`streamed tool call ${index} has no function name`));
      list.push(makeCall(req, p, index, c.id, c.name, c.args));
    }
    if (legacy !== undefined && list.length === 0) {
      if (legacy.name.length === 0) return failure(invalidResponse('the streamed function_call has no name'));
      list.push(makeCall(req, p, 0, undefined, legacy.name, legacy.args));
    }
    const text = content.length > 0 ? content : refusal;
    const finishReason = refusal.length > 0 && content.length === 0 && list.length === 0 ? 'content_filter' : finishReasonOf(finish, list.length > 0);
    return success({
      message: list.length > 0 ? { role: 'assistant', content: text, toolCalls: list } : { role: 'assistant', content: text },
      finishReason,
      usage,
      ...(id !== undefined ? { id } : {}),
      ...(model !== undefined ? { model } : {}),
    });
  };

  return { event, result };
};
