/**
 * The Gemini `generateContent` wire format: gramkit requests to request bodies (system instruction
 * apart; `functionCall` and `functionResponse` parts paired by name and order, with Gemini's call
 * ids when it gave some; arguments and results as objects), response bodies and stream chunks to
 * assistant turns. Pure functions (but for the thought-signature memo); the transport is in
 * `gemini.ts`.
 */
import { AgentCodes } from '../agent/codes.js';
import type { Message, ToolCall, ToolMessage } from '../agent/messages.js';
import type { FinishReason, ModelError, ModelRequest, ModelResult, Usage } from '../agent/model.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { argumentsObject } from './arguments-object.js';
import { rememberThoughtSignature, SKIP_THOUGHT_SIGNATURE, thoughtSignatureOf } from './gemini-thought-signatures.js';
import { failure, invalidResponse, modelError, readErrorBody, streamInterrupted, success } from './model-error.js';
import { inventedCallId } from './openai-wire.js';
import { gramkitName, normalizeCallArguments, wireName, type PreparedTools } from './prepared-tools.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

type Part = Record<string, JsonValue>;

interface Content {
  readonly role: 'user' | 'model';
  readonly parts: Part[];
}

/** The user turn that answers the calls of a model turn: one slot per call, in the calls' order. */
interface Answers {
  readonly calls: ReadonlyArray<ToolCall>;
  readonly slots: Array<Part | undefined>;
  /** Results that answer no call of that turn (the API rejects them; sent so that it says so). */
  readonly stray: Part[];
}

// -------------------------------------------------------------------------------------------------
// request
// -------------------------------------------------------------------------------------------------

/** Ids gramkit invented (the wire had none) are not sent: Gemini pairs those calls by name and order. */
const isInventedId = (id: string): boolean => id.startsWith('call_gk');

const callPart = (c: ToolCall, p: PreparedTools, first: boolean): Part => {
  const call: Record<string, JsonValue> = { name: wireName(p, c.name), args: argumentsObject(c.arguments) };
  if (c.id.length > 0 && !isInventedId(c.id)) call['id'] = c.id;
  const part: Part = { functionCall: call };
  // the first call of a step carries the step's signature (later parallel calls have none)
  const signature = thoughtSignatureOf(c) ?? (first ? SKIP_THOUGHT_SIGNATURE : undefined);
  if (signature !== undefined) part['thoughtSignature'] = signature;
  return part;
};

/** `functionResponse.response` is an object: the result under `output`, an error under `error` (Gemini's convention). */
const responsePart = (m: ToolMessage, name: string, id: string | undefined): Part => {
  let value: JsonValue;
  try {
    value = JSON.parse(m.content) as JsonValue;
  } catch {
    value = m.content;
  }
  const response: JsonObject = m.isError === true ? { error: value } : { output: value };
  return { functionResponse: { ...(id !== undefined ? { id } : {}), name, response } };
};

const contentsWire = (messages: ReadonlyArray<Message>, p: PreparedTools, system: string[]): Content[] => {
  const out: Array<Content | Answers> = [];
  let answers: Answers | undefined;
  for (const m of messages) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        out.push({ role: 'user', parts: [{ text: m.content }] });
        break;
      case 'assistant': {
        const calls = m.toolCalls ?? [];
        const parts: Part[] = [];
        if (m.content.length > 0) parts.push({ text: m.content });
        calls.forEach((c, i) => parts.push(callPart(c, p, i === 0)));
        if (parts.length === 0) break; // the API refuses a turn without parts; there is nothing in it
        out.push({ role: 'model', parts });
        // the results come in the user turn right after, whatever messages sit between them
        answers = calls.length > 0 ? { calls, slots: calls.map(() => undefined), stray: [] } : undefined;
        if (answers !== undefined) out.push(answers);
        break;
      }
      case 'tool': {
        const index = answers?.calls.findIndex((c) => c.id === m.toolCallId) ?? -1;
        const call = answers?.calls[index];
        if (answers !== undefined && call !== undefined && answers.slots[index] === undefined) {
          answers.slots[index] = responsePart(m, wireName(p, call.name), isInventedId(call.id) ? undefined : call.id);
          break;
        }
        const part = responsePart(m, wireName(p, m.toolName), isInventedId(m.toolCallId) ? undefined : m.toolCallId);
        if (answers !== undefined) answers.stray.push(part);
        else out.push({ role: 'user', parts: [part] });
        break;
      }
    }
  }
  return out.flatMap((c): Content[] => {
    if ('role' in c) return [c];
    const parts = [...c.slots.filter((s): s is Part => s !== undefined), ...c.stray];
    return parts.length > 0 ? [{ role: 'user', parts }] : [];
  });
};

const toolConfigWire = (req: ModelRequest, p: PreparedTools): JsonObject | undefined => {
  const c = req.toolChoice;
  if (c === undefined || p.wire.length === 0) return undefined;
  if (c === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (c === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (c === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [wireName(p, c.tool)] } };
};

/**
 * The request body for `POST {base}/v1beta/models/{model}:generateContent` (and
 * `:streamGenerateContent`, the same body). Gemini has no switch for parallel calls:
 * `parallelToolCalls` is not sent.
 */
export const geminiRequestBody = (req: ModelRequest, p: PreparedTools): JsonObject => {
  const system: string[] = req.system !== undefined && req.system.length > 0 ? [req.system] : [];
  const contents = contentsWire(req.messages, p, system);
  const body: Record<string, JsonValue> = {};
  if (system.length > 0) body['systemInstruction'] = { parts: [{ text: system.join('\n\n') }] };
  body['contents'] = contents.map((c) => ({ role: c.role, parts: c.parts }));
  if (p.wire.length > 0) body['tools'] = [{ functionDeclarations: [...p.wire] }];
  const config = toolConfigWire(req, p);
  if (config !== undefined) body['toolConfig'] = config;
  const generation: Record<string, JsonValue> = {};
  if (req.maxTokens !== undefined) generation['maxOutputTokens'] = req.maxTokens;
  if (req.temperature !== undefined) generation['temperature'] = req.temperature;
  if (Object.keys(generation).length > 0) body['generationConfig'] = generation;
  return body;
};

// -------------------------------------------------------------------------------------------------
// response
// -------------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined);
const asStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const asNum = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

const CONTENT_FILTERS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY']);

/**
 * Gemini says `STOP` for a turn with function calls too. `MALFORMED_FUNCTION_CALL`,
 * `UNEXPECTED_TOOL_CALL`, `TOO_MANY_TOOL_CALLS`, `LANGUAGE` and `OTHER` are `other`.
 */
export const geminiFinishReasonOf = (raw: unknown, hasCalls: boolean): FinishReason => {
  if (hasCalls) return 'tool_calls';
  if (raw === undefined || raw === null || raw === 'STOP' || raw === 'FINISH_REASON_UNSPECIFIED') return 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  return typeof raw === 'string' && CONTENT_FILTERS.has(raw) ? 'content_filter' : 'other';
};

/** Input counts tool-use prompts; output counts thinking, which is billed as output. */
const usageOf = (u: unknown): Usage => {
  const o = asObj(u);
  return {
    inputTokens: asNum(o?.['promptTokenCount']) + asNum(o?.['toolUsePromptTokenCount']),
    outputTokens: asNum(o?.['candidatesTokenCount']) + asNum(o?.['thoughtsTokenCount']),
  };
};

/** A Google error body (`{error: {code, message, status}}`) as a model error: 429 and 5xx are retryable. */
const streamedError = (data: string): ModelError => {
  const e = readErrorBody(data);
  const status = Number(e.code);
  const known = Number.isInteger(status) && status > 0;
  return modelError(
    status === 429 ? AgentCodes.RATE_LIMITED : AgentCodes.LLM_API_ERROR,
    `Gemini API error${known ? ` ${status}` : ''}${e.type !== undefined ? ` (${e.type})` : ''}: ${e.message}`,
    {
      ...(known ? { status } : {}),
      retryable: !known || status === 429 || status >= 500,
      details: { provider: 'Gemini', ...e },
    },
  );
};

/**
 * `RetryInfo.retryDelay` of a Google error body (`"37s"`, `"0.5s"`), in milliseconds: Gemini says
 * how long to wait there, not in `Retry-After`.
 */
export const geminiRetryDelayMs = (body: string): number | undefined => {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const details = asObj(asObj(json)?.['error'])?.['details'];
  if (!Array.isArray(details)) return undefined;
  for (const d of details) {
    const o = asObj(d);
    if (!String(o?.['@type'] ?? '').endsWith('google.rpc.RetryInfo')) continue;
    const m = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(asStr(o?.['retryDelay']) ?? '');
    if (m?.[1] !== undefined) return Math.round(Number(m[1]) * 1000);
  }
  return undefined;
};

// -------------------------------------------------------------------------------------------------
// chunks (a whole answer is one chunk; a stream is several)
// -------------------------------------------------------------------------------------------------

interface ReadCall {
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
  readonly signature?: string;
}

/**
 * Accumulates `GenerateContentResponse` chunks: text parts (passed to `onText` as they come;
 * thought summaries skipped), whole `functionCall` parts with their ids and thought signatures,
 * the finish reason, the usage of the last chunk, a blocked prompt, and error chunks. A stream
 * is complete once a chunk has a `finishReason` (or the prompt was blocked).
 */
export const geminiStream = (req: ModelRequest, p: PreparedTools, onText: (delta: string) => void) => {
  let text = '';
  const calls: ReadCall[] = [];
  let finish: unknown;
  let blocked: string | undefined;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let id: string | undefined;
  let model: string | undefined;
  let error: ModelError | undefined;
  let chunks = 0;

  const chunk = (json: unknown, raw: string): void => {
    if (error !== undefined) return;
    const o = asObj(json);
    if (o === undefined) {
      error = invalidResponse('a Gemini chunk is not a JSON object', raw);
      return;
    }
    if (o['error'] !== undefined) {
      error = streamedError(JSON.stringify(o));
      return;
    }
    chunks++;
    id ??= asStr(o['responseId']);
    model ??= asStr(o['modelVersion']);
    if (o['usageMetadata'] !== undefined) usage = usageOf(o['usageMetadata']);
    const reason = asStr(asObj(o['promptFeedback'])?.['blockReason']);
    if (reason !== undefined) blocked = reason;
    const candidates = o['candidates'];
    const candidate = Array.isArray(candidates) ? asObj(candidates[0]) : undefined;
    if (candidate === undefined) return;
    const parts = asObj(candidate['content'])?.['parts'];
    for (const part of Array.isArray(parts) ? parts : []) {
      const q = asObj(part);
      if (q === undefined || q['thought'] === true) continue;
      const t = asStr(q['text']);
      if (t !== undefined && t.length > 0) {
        text += t;
        onText(t);
      }
      const fc = asObj(q['functionCall']);
      if (fc === undefined) continue;
      const name = asStr(fc['name']);
      if (name === undefined || name.length === 0) {
        error = invalidResponse('a functionCall part has no name', raw);
        return;
      }
      const callId = asStr(fc['id']);
      const signature = asStr(q['thoughtSignature']);
      calls.push({
        name,
        args: fc['args'] ?? {},
        ...(callId !== undefined && callId.length > 0 ? { id: callId } : {}),
        ...(signature !== undefined ? { signature } : {}),
      });
    }
    if (candidate['finishReason'] !== undefined && candidate['finishReason'] !== null) finish = candidate['finishReason'];
  };

  const event = (data: string): void => {
    if (error !== undefined) return;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      error = invalidResponse('a Gemini stream chunk is not JSON', data);
      return;
    }
    chunk(json, data);
  };

  /** `stream`: the answer came in chunks, and is whole only if one of them said how it finished. */
  const result = (stream: boolean): ModelResult => {
    if (error !== undefined) return failure(error);
    if (chunks === 0) return failure(invalidResponse('the Gemini answer has no chunk'));
    if (stream && finish === undefined && blocked === undefined) {
      // a cut connection, not a finished turn: nothing of it may run
      return failure(streamInterrupted('Gemini', 'its last chunk (no finishReason)'));
    }
    const list = calls.map((c, index): ToolCall => {
      const gk = gramkitName(p, c.name);
      const call: ToolCall = { id: c.id ?? inventedCallId(req, index), name: gk, arguments: normalizeCallArguments(p, gk, JSON.stringify(c.args)) };
      if (c.signature !== undefined) rememberThoughtSignature(call, c.signature);
      return call;
    });
    return success({
      message: list.length > 0 ? { role: 'assistant', content: text, toolCalls: list } : { role: 'assistant', content: text },
      finishReason: blocked !== undefined && list.length === 0 ? 'content_filter' : geminiFinishReasonOf(finish, list.length > 0),
      usage,
      ...(id !== undefined ? { id } : {}),
      ...(model !== undefined ? { model } : {}),
    });
  };

  return { chunk, event, result };
};

/**
 * A whole `GenerateContentResponse` body → the assistant turn. An array of chunks (what
 * `:streamGenerateContent` answers without `alt=sse`) is read as one answer too.
 */
export const geminiResponse = (json: unknown, req: ModelRequest, p: PreparedTools, raw: string): ModelResult => {
  const chunks = Array.isArray(json) ? json : [json];
  const first = asObj(chunks[0]);
  if (first === undefined) return failure(invalidResponse('the Gemini answer is not a JSON object', raw));
  if (first['error'] !== undefined) return failure(streamedError(JSON.stringify(first)));
  if (!chunks.some((c) => asObj(c)?.['candidates'] !== undefined || asObj(c)?.['promptFeedback'] !== undefined)) {
    return failure(invalidResponse('the Gemini answer has neither candidates nor promptFeedback', raw));
  }
  const acc = geminiStream(req, p, () => undefined);
  for (const c of chunks) acc.chunk(c, raw);
  return acc.result(false);
};
