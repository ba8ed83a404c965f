/**
 * The OpenAI Responses API wire format: gramkit requests to request bodies (`instructions`,
 * `input` items — `message`, `function_call`, `function_call_output` paired by `call_id` —, flat
 * function tools with `strict` always said), response bodies and stream events to assistant
 * turns. Stateless: the whole conversation is sent each time, no `previous_response_id`. Pure
 * functions; the transport is in `openai-responses.ts`.
 */
import { AgentCodes } from '../agent/codes.js';
import type { Message, ToolCall } from '../agent/messages.js';
import type { FinishReason, ModelError, ModelRequest, ModelResult, Usage } from '../agent/model.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { failure, invalidResponse, modelError, readErrorBody, streamInterrupted, success } from './model-error.js';
import { inventedCallId } from './openai-wire.js';
import { gramkitName, normalizeCallArguments, wireName, type PreparedTools } from './prepared-tools.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ResponsesWireOptions {
  /** The model name as the server knows it (`gpt-4.1-mini`). */
  readonly model: string;
  /** `store` (whether OpenAI keeps the response); not sent when undefined (the API's default applies). */
  readonly store?: boolean;
}

type Wire = Record<string, JsonValue>;

// -------------------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------------------

const inputItems = (messages: ReadonlyArray<Message>, p: PreparedTools): Wire[] =>
  messages.flatMap((m): Wire[] => {
    switch (m.role) {
      case 'system':
      case 'user':
        return [{ type: 'message', role: m.role, content: m.content }];
      case 'assistant': {
        const items: Wire[] = m.content.length > 0 ? [{ type: 'message', role: 'assistant', content: m.content }] : [];
        // without the item id (`fc_…`): a call sent back without its reasoning item is refused by id
        for (const c of m.toolCalls ?? []) items.push({ type: 'function_call', call_id: c.id, name: wireName(p, c.name), arguments: c.arguments });
        return items;
      }
      case 'tool':
        return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.content }];
    }
  });

/**
 * A Chat Completions tool definition (what the `openai` dialects export) in the Responses API's
 * flat shape. `strict` is always said: when it is omitted, the Responses API makes the schema
 * strict itself.
 */
const flatTool = (t: JsonObject): Wire => {
  const fn = t['function'];
  const f = typeof fn === 'object' && fn !== null && !Array.isArray(fn) ? (fn as JsonObject) : {};
  return {
    type: 'function',
    name: f['name'] ?? '',
    ...(f['description'] !== undefined ? { description: f['description'] } : {}),
    parameters: f['parameters'] ?? { type: 'object', properties: {} },
    strict: f['strict'] === true,
  };
};

const toolChoiceWire = (req: ModelRequest, p: PreparedTools): JsonValue | undefined => {
  const c = req.toolChoice;
  if (c === undefined || p.wire.length === 0) return undefined;
  return typeof c === 'string' ? c : { type: 'function', name: wireName(p, c.tool) };
};

/** The request body for `POST {baseUrl}/responses`. */
export const responsesRequestBody = (req: ModelRequest, o: ResponsesWireOptions, p: PreparedTools, stream: boolean): JsonObject => {
  const body: Wire = { model: o.model };
  if (req.system !== undefined && req.system.length > 0) body['instructions'] = req.system;
  body['input'] = inputItems(req.messages, p);
  if (p.wire.length > 0) body['tools'] = p.wire.map(flatTool);
  const choice = toolChoiceWire(req, p);
  if (choice !== undefined) body['tool_choice'] = choice;
  if (req.parallelToolCalls !== undefined && p.wire.length > 0) body['parallel_tool_calls'] = req.parallelToolCalls;
  if (req.maxTokens !== undefined) body['max_output_tokens'] = req.maxTokens;
  if (req.temperature !== undefined) body['temperature'] = req.temperature;
  if (o.store !== undefined) body['store'] = o.store;
  if (stream) body['stream'] = true;
  return body;
};

// -------------------------------------------------------------------------------------------------
// response
// -------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

const usageOf = (u: unknown): Usage => {
  const o = asObj(u);
  return { inputTokens: asNum(o?.['input_tokens']), outputTokens: asNum(o?.['output_tokens']) };
};

/** `error` of a failed response, or an `error` stream event: rate limits and server errors are retryable. */
const responseError = (e: Obj | undefined, where: string): ModelError => {
  const code = asStr(e?.['code']) ?? asStr(e?.['type']);
  const message = asStr(e?.['message']) ?? 'no message';
  const limited = code === 'rate_limit_exceeded' || code === 'rate_limit_error';
  return modelError(
    limited ? AgentCodes.RATE_LIMITED : AgentCodes.LLM_API_ERROR,
    `OpenAI API error ${where}${code !== undefined ? ` (${code})` : ''}: ${message}`,
    {
      retryable: limited || code === undefined || code === 'server_error' || code === 'internal_error',
      details: { provider: 'OpenAI', message, ...(code !== undefined ? { code } : {}) },
    },
  );
};

/** The finish reason of a response object: `incomplete` says why in `incomplete_details.reason`. */
export const responsesFinishReasonOf = (response: Obj | undefined, hasCalls: boolean, refused: boolean): FinishReason => {
  if (hasCalls) return 'tool_calls';
  if (response?.['status'] === 'incomplete') {
    const reason = asObj(response['incomplete_details'])?.['reason'];
    return reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content_filter' : 'other';
  }
  return refused ? 'content_filter' : 'stop';
};

interface ReadCall {
  callId?: string;
  name: string;
  args: string;
}

interface ReadOutput {
  readonly text: string;
  readonly refusal: string;
  readonly calls: ReadonlyArray<ReadCall>;
}

/** Text, refusal and function calls of `output` items (reasoning and hosted-tool items are skipped). */
const readOutput = (output: ReadonlyArray<unknown>): ReadOutput | string => {
  let text = '';
  let refusal = '';
  const calls: ReadCall[] = [];
  for (const it of output) {
    const item = asObj(it);
    if (item?.['type'] === 'message') {
      const content = item['content'];
      for (const part of Array.isArray(content) ? content : []) {
        const q = asObj(part);
        if (q?.['type'] === 'output_text') text += asStr(q['text']) ?? '';
        else if (q?.['type'] === 'refusal') refusal += asStr(q['refusal']) ?? '';
      }
    } else if (item?.['type'] === 'function_call') {
      const name = asStr(item['name']);
      if (name === undefined || name.length === 0) return 'a function_call item has no name';
      const callId = asStr(item['call_id']);
      calls.push({ name, args: asStr(item['arguments']) ?? '', ...(callId !== undefined && callId.length > 0 ? { callId } : {}) });
    }
  }
  return { text, refusal, calls };
};

const turn = (req: ModelRequest, p: PreparedTools, out: ReadOutput, response: Obj | undefined, fallbackId?: string, fallbackModel?: string): ModelResult => {
  const calls = out.calls.map((c, index): ToolCall => {
    const gk = gramkitName(p, c.name);
    return { id: c.callId ?? inventedCallId(req, index), name: gk, arguments: normalizeCallArguments(p, gk, c.args) };
  });
  const refused = out.refusal.length > 0 && out.text.length === 0;
  const content = refused ? out.refusal : out.text;
  const id = asStr(response?.['id']) ?? fallbackId;
  const model = asStr(response?.['model']) ?? fallbackModel;
  return success({
    message: calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content },
    finishReason: responsesFinishReasonOf(response, calls.length > 0, refused),
    usage: usageOf(response?.['usage']),
    ...(id !== undefined ? { id } : {}),
    ...(model !== undefined ? { model } : {}),
  });
};

/** A non-streamed `response` object → the assistant turn (`failed` and `cancelled` ones are errors). */
export const responsesResponse = (json: unknown, req: ModelRequest, p: PreparedTools, raw: string): ModelResult => {
  const o = asObj(json);
  if (o === undefined) return failure(invalidResponse('the response is not a JSON object', raw));
  if (o['object'] !== 'response' && asObj(o['error']) !== undefined) {
    const e = readErrorBody(raw);
    return failure(modelError(AgentCodes.LLM_API_ERROR, `OpenAI API error: ${e.message}`, { details: e }));
  }
  if (o['status'] === 'failed') return failure(responseError(asObj(o['error']), 'in the response'));
  if (o['status'] === 'cancelled')
    return failure(modelError(AgentCodes.LLM_API_ERROR, 'the OpenAI response was cancelled before it finished', { retryable: true }));
  const output = o['output'];
  if (!Array.isArray(output)) return failure(invalidResponse('the response has no output array', raw));
  const out = readOutput(output);
  if (typeof out === 'string') return failure(invalidResponse(out, raw));
  return turn(req, p, out, o);
};

// -------------------------------------------------------------------------------------------------
// stream
// -------------------------------------------------------------------------------------------------

/**
 * Accumulates the Responses stream: `response.output_text.delta` (passed to `onText`),
 * function calls by `output_index` (`response.output_item.added`, arguments joined from
 * `response.function_call_arguments.delta`, replaced by `.done` and `response.output_item.done`),
 * then `response.completed` / `response.incomplete` (the terminal events, with usage), or
 * `response.failed` / `error`. A stream without a terminal event runs no tool call.
 */
export const responsesStream = (req: ModelRequest, p: PreparedTools, onText: (delta: string) => void) => {
  let text = '';
  let refusal = '';
  const calls = new Map<number, ReadCall>();
  const byItem = new Map<string, number>();
  let final: Obj | undefined;
  let id: string | undefined;
  let model: string | undefined;
  let error: ModelError | undefined;

  const callAt = (o: Obj): ReadCall | undefined => {
    const index = typeof o['output_index'] === 'number' ? o['output_index'] : byItem.get(asStr(o['item_id']) ?? '');
    return index === undefined ? undefined : calls.get(index);
  };

  const setCall = (index: number, item: Obj): void => {
    const name = asStr(item['name']) ?? calls.get(index)?.name ?? '';
    const callId = asStr(item['call_id']) ?? calls.get(index)?.callId;
    const args = asStr(item['arguments']);
    calls.set(index, {
      name,
      args: args !== undefined && args.length > 0 ? args : (calls.get(index)?.args ?? ''),
      ...(callId !== undefined && callId.length > 0 ? { callId } : {}),
    });
    const itemId = asStr(item['id']);
    if (itemId !== undefined) byItem.set(itemId, index);
  };

  const event = (name: string | undefined, data: string): void => {
    if (error !== undefined || final !== undefined) return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      error = invalidResponse('a Responses stream event is not JSON', data);
      return;
    }
    const o = asObj(json);
    if (o === undefined) return;
    const type = asStr(o['type']) ?? name;
    switch (type) {
      case 'response.created':
      case 'response.in_progress': {
        const r = asObj(o['response']);
        id ??= asStr(r?.['id']);
        model ??= asStr(r?.['model']);
        break;
      }
      case 'response.output_item.added':
      case 'response.output_item.done': {
        const item = asObj(o['item']);
        const index = o['output_index'];
        if (item?.['type'] === 'function_call' && typeof index === 'number') setCall(index, item);
        break;
      }
      case 'response.output_text.delta': {
        const d = asStr(o['delta']) ?? '';
        if (d.length > 0) {
          text += d;
          onText(d);
        }
        break;
      }
      case 'response.refusal.delta':
        refusal += asStr(o['delta']) ?? '';
        break;
      case 'response.function_call_arguments.delta': {
        const c = callAt(o);
        if (c === undefined) {
          error = invalidResponse(`function_call_arguments.delta for output ${String(o['output_index'] ?? o['item_id'])}, which was never added`, data);
          return;
        }
        c.args += asStr(o['delta']) ?? '';
        break;
      }
      case 'response.function_call_arguments.done': {
        const c = callAt(o);
        const args = asStr(o['arguments']);
        if (c !== undefined && args !== undefined) c.args = args;
        const n = asStr(o['name']);
        if (c !== undefined && n !== undefined && n.length > 0) c.name = n;
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
        final = asObj(o['response']) ?? {};
        break;
      case 'response.failed':
        error = responseError(asObj(asObj(o['response'])?.['error']), 'in the stream');
        break;
      case 'error':
        error = responseError(asObj(o['error']) ?? { code: o['code'], message: o['message'] }, 'in the stream');
        break;
      default:
        break; // content parts, reasoning, hosted tools, and event types added later
    }
  };

  const result = (): ModelResult => {
    if (error !== undefined) return failure(error);
    if (final === undefined) {
      // a cut connection, not a finished turn: nothing of it may run
      return failure(streamInterrupted('OpenAI Responses', 'response.completed'));
    }
    const list = [...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    const bad = list.findIndex((c) => c.name.length === 0);
    if (bad !== -1) return failure(invalidResponse(`streamed function call ${bad} has no name`));
    // a server that sent no deltas still has the whole output in the final response
    const whole = Array.isArray(final['output']) ? readOutput(final['output']) : undefined;
    if (typeof whole === 'string') return failure(invalidResponse(whole));
    if (text.length === 0 && whole !== undefined && whole.text.length > 0) {
      text = whole.text;
      onText(text);
    }
    const out: ReadOutput = {
      text,
      refusal: refusal.length > 0 ? refusal : (whole?.refusal ?? ''),
      calls: list.length > 0 ? list : (whole?.calls ?? []),
    };
    return turn(req, p, out, final, id, model);
  };

  return { event, result };
};
