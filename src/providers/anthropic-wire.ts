/**
 * The Anthropic Messages wire format: gramkit requests to request bodies (system apart, tool
 * results of a turn in one user message before any text, tool inputs as objects), response
 * bodies and stream events to assistant turns. Pure functions; the transport is in `anthropic.ts`.
 */
import { AgentCodes } from '../agent/codes.js';
import { isRecord } from '../core/json.js';
import type { Message, ToolCall } from '../agent/messages.js';
import type { FinishReason, ModelError, ModelRequest, ModelResult, Usage } from '../agent/model.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { argumentsObject } from './arguments-object.js';
import { failure, invalidResponse, modelError, readErrorBody, streamInterrupted, success } from './model-error.js';
import { gramkitName, wireName, type PreparedTools } from './prepared-tools.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface AnthropicWireOptions {
  readonly model: string;
  /** `max_tokens` when the request gives none (the API requires it). */
  readonly defaultMaxTokens: number;
}

type Block = Record<string, JsonValue>;
interface WireMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

// -------------------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------------------

const messagesWire = (messages: ReadonlyArray<Message>, p: PreparedTools, system: string[]): WireMessage[] => {
  const out: WireMessage[] = [];
  const last = (): WireMessage | undefined => out[out.length - 1];
  const userBlocks = (): Block[] => {
    const l = last();
    if (l !== undefined && l.role === 'user') return l.content;
    const m: WireMessage = { role: 'user', content: [] };
    out.push(m);
    return m.content;
  };
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        userBlocks().push({ type: 'text', text: m.content });
        break;
      case 'tool': {
        const blocks = userBlocks();
        const result: Block = { type: 'tool_result', tool_use_id: m.toolCallId, content: m.content };
        if (m.isError === true) result['is_error'] = true;
        // tool results come first in their user message, before any text
        const firstText = blocks.findIndex((b) => b['type'] !== 'tool_result');
        if (firstText === -1) blocks.push(result);
        else blocks.splice(firstText, 0, result);
        break;
      }
      case 'assistant': {
        const content: Block[] = [];
        if (m.content.length > 0) content.push({ type: 'text', text: m.content });
        for (const c of m.toolCalls ?? []) content.push({ type: 'tool_use', id: c.id, name: wireName(p, c.name), input: argumentsObject(c.arguments) });
        if (content.length === 0) break; // the API refuses empty assistant turns; there is nothing in it
        const l = last();
        if (l !== undefined && l.role === 'assistant') l.content.push(...content);
        else out.push({ role: 'assistant', content });
        break;
      }
    }
  }
  return out;
};

/** A user message of one text block is sent as a plain string (the common, readable form). */
const compact = (m: WireMessage): JsonObject => {
  const only = m.content[0];
  if (m.role === 'user' && m.content.length === 1 && only !== undefined && only['type'] === 'text') return { role: m.role, content: only['text'] as string };
  return { role: m.role, content: m.content };
};

const toolChoiceWire = (req: ModelRequest, p: PreparedTools): JsonObject | undefined => {
  const c = req.toolChoice;
  const noParallel: JsonObject = req.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (p.wire.length === 0) return undefined;
  if (c === undefined) return req.parallelToolCalls === false ? { type: 'auto', ...noParallel } : undefined;
  if (c === 'none') return { type: 'none' };
  if (c === 'auto') return { type: 'auto', ...noParallel };
  if (c === 'required') return { type: 'any', ...noParallel };
  return { type: 'tool', name: wireName(p, c.tool), ...noParallel };
};

/** The request body for `POST {baseUrl}/v1/messages`. */
export const anthropicRequestBody = (req: ModelRequest, o: AnthropicWireOptions, p: PreparedTools, stream: boolean): JsonObject => {
  const system: string[] = req.system !== undefined && req.system.length > 0 ? [req.system] : [];
  const messages = messagesWire(req.messages, p, system).map(compact);
  const body: Record<string, JsonValue> = { model: o.model, max_tokens: req.maxTokens ?? o.defaultMaxTokens };
  if (system.length > 0) body['system'] = system.join('\n\n');
  body['messages'] = messages;
  if (p.wire.length > 0) body['tools'] = [...p.wire];
  const choice = toolChoiceWire(req, p);
  if (choice !== undefined) body['tool_choice'] = choice;
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (stream) body['stream'] = true;
  return body;
};

// -------------------------------------------------------------------------------------------------
// response
// -------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined => (isRecord(v) ? (v as Obj) : undefined);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

export const stopReasonOf = (raw: unknown, hasCalls: boolean): FinishReason => {
  if (hasCalls) return 'tool_calls';
  switch (raw) {
    case 'end_turn':
    case 'stop_sequence':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return raw === null || raw === undefined ? 'stop' : 'other';
  }
};

/** Input tokens count the cached ones too (`cache_creation_input_tokens`, `cache_read_input_tokens`). */
const usageOf = (u: unknown, base: Usage = { inputTokens: 0, outputTokens: 0 }): Usage => {
  const o = asObj(u);
  if (o === undefined) return base;
  const input = asNum(o['input_tokens']) + asNum(o['cache_creation_input_tokens']) + asNum(o['cache_read_input_tokens']);
  return {
    inputTokens: o['input_tokens'] !== undefined ? input : base.inputTokens,
    outputTokens: o['output_tokens'] !== undefined ? asNum(o['output_tokens']) : base.outputTokens,
  };
};

const toolCallOf = (p: PreparedTools, id: string, name: string, input: unknown): ToolCall => ({
  id,
  name: gramkitName(p, name),
  arguments: JSON.stringify(input ?? {}),
});

/** A non-streamed `message` body → the assistant turn. */
export const anthropicResponse = (json: unknown, p: PreparedTools, raw: string): ModelResult => {
  const o = asObj(json);
  if (o === undefined) return failure(invalidResponse('the message is not a JSON object', raw));
  if (o['type'] === 'error') {
    const e = readErrorBody(raw);
    return failure(modelError(AgentCodes.LLM_API_ERROR, `Anthropic API error: ${e.message}`, { details: e }));
  }
  const content = o['content'];
  if (!Array.isArray(content)) return failure(invalidResponse('the message has no content array', raw));
  let text = '';
  const calls: ToolCall[] = [];
  for (const b of content) {
    const block = asObj(b);
    if (block === undefined) continue;
    if (block['type'] === 'text') text += asStr(block['text']) ?? '';
    else if (block['type'] === 'tool_use') {
      const id = asStr(block['id']);
      const name = asStr(block['name']);
      if (id === undefined || name === undefined) return failure(invalidResponse('a tool_use block has no id or name', raw));
      calls.push(toolCallOf(p, id, name, block['input']));
    }
  }
  const id = asStr(o['id']);
  const model = asStr(o['model']);
  return success({
    message: calls.length > 0 ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text },
    finishReason: stopReasonOf(o['stop_reason'], calls.length > 0),
    usage: usageOf(o['usage']),
    ...(id !== undefined ? { id } : {}),
    ...(model !== undefined ? { model } : {}),
  });
};

// -------------------------------------------------------------------------------------------------
// stream
// -------------------------------------------------------------------------------------------------

interface OpenBlock {
  readonly type: string;
  id?: string;
  name?: string;
  json: string;
  input?: unknown;
}

/**
 * Accumulates the Messages stream: `message_start` (id, input usage), `content_block_start`,
 * `content_block_delta` (`text_delta` passed to `onText`, `input_json_delta` pieces joined per
 * block), `content_block_stop`, `message_delta` (stop reason, output usage), `message_stop`,
 * and `error` events.
 */
export const anthropicStream = (p: PreparedTools, onText: (delta: string) => void) => {
  const blocks = new Map<number, OpenBlock>();
  let text = '';
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let stop: unknown;
  let id: string | undefined;
  let model: string | undefined;
  let error: ModelError | undefined;
  let started = false;
  let stopped = false;

  const event = (name: string | undefined, data: string): void => {
    if (error !== undefined) return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      error = invalidResponse(`stream event ${name ?? '(unnamed)'} is not JSON`, data);
      return;
    }
    const o = asObj(json);
    if (o === undefined) return;
    const type = asStr(o['type']) ?? name;
    switch (type) {
      case 'message_start': {
        started = true;
        const m = asObj(o['message']);
        id = asStr(m?.['id']);
        model = asStr(m?.['model']);
        usage = usageOf(m?.['usage'], usage);
        break;
      }
      case 'content_block_start': {
        const index = asNum(o['index']);
        const b = asObj(o['content_block']);
        const t = asStr(b?.['type']) ?? 'unknown';
        const block: OpenBlock = { type: t, json: '' };
        if (t === 'tool_use') {
          const bid = asStr(b?.['id']);
          const bname = asStr(b?.['name']);
          if (bid !== undefined) block.id = bid;
          if (bname !== undefined) block.name = bname;
          const input = asObj(b?.['input']);
          if (input !== undefined && Object.keys(input).length > 0) block.input = input;
        } else if (t === 'text') {
          const initial = asStr(b?.['text']) ?? '';
          if (initial.length > 0) {
            text += initial;
            onText(initial);
          }
        }
        blocks.set(index, block);
        break;
      }
      case 'content_block_delta': {
        const index = asNum(o['index']);
        const d = asObj(o['delta']);
        const block = blocks.get(index);
        if (d?.['type'] === 'text_delta') {
          const t = asStr(d['text']) ?? '';
          if (t.length > 0) {
            text += t;
            onText(t);
          }
        } else if (d?.['type'] === 'input_json_delta') {
          if (block === undefined) {
            error = invalidResponse(`input_json_delta for block ${index}, which was never started`);
            return;
          }
          block.json += asStr(d['partial_json']) ?? '';
        }
        break;
      }
      case 'message_delta': {
        const d = asObj(o['delta']);
        if (d?.['stop_reason'] !== undefined) stop = d['stop_reason'];
        usage = usageOf(o['usage'], usage);
        break;
      }
      case 'message_stop':
        stopped = true;
        break;
      case 'error': {
        const e = readErrorBody(data);
        const retryable = e.type === 'overloaded_error' || e.type === 'api_error' || e.type === 'rate_limit_error';
        error = modelError(
          e.type === 'rate_limit_error' ? AgentCodes.RATE_LIMITED : AgentCodes.LLM_API_ERROR,
          `Anthropic API error in the stream${e.type !== undefined ? ` (${e.type})` : ''}: ${e.message}`,
          { retryable, details: e },
        );
        break;
      }
      default:
        break; // ping, content_block_stop, and event types added later
    }
  };

  const result = (): ModelResult => {
    if (error !== undefined) return failure(error);
    if (!started) return failure(streamInterrupted('Anthropic', 'message_start'));
    if (!stopped && stop === undefined) return failure(streamInterrupted('Anthropic', 'message_stop'));
    const calls: ToolCall[] = [];
    for (const [index, b] of [...blocks.entries()].sort((a, c) => a[0] - c[0])) {
      if (b.type !== 'tool_use') continue;
      if (b.id === undefined || b.name === undefined) return failure(invalidResponse(`streamed tool_use block ${index} has no id or name`));
      let input: unknown = b.input ?? {};
      if (b.json.length > 0) {
        try {
          input = JSON.parse(b.json);
        } catch {
          // keep what the model sent: the loop reports arguments that are not JSON
          calls.push({ id: b.id, name: gramkitName(p, b.name), arguments: b.json });
          continue;
        }
      }
      calls.push(toolCallOf(p, b.id, b.name, input));
    }
    return success({
      message: calls.length > 0 ? { role: 'assistant', content: text, toolCalls: calls } : { role: 'assistant', content: text },
      finishReason: stopReasonOf(stop, calls.length > 0),
      usage,
      ...(id !== undefined ? { id } : {}),
      ...(model !== undefined ? { model } : {}),
    });
  };

  return { event, result };
};
