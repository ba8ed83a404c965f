/**
 * A fake LLM server on 127.0.0.1 (port 0) that speaks the exact OpenAI Chat Completions (tools and
 * the legacy functions API), OpenAI Responses, Anthropic Messages and Gemini `generateContent`
 * wire formats, for tests and benchmarks.
 *
 * - Scripted turns, in a provider-neutral form (`{text}`, `{toolCalls}`, errors, delays), rendered
 *   per endpoint: `POST /v1/chat/completions`, `POST /v1/responses`, `POST /v1/messages`,
 *   `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`.
 * - Provider-style ids (`chatcmpl-…`, `call_…`, `resp_…`, `fc_…`, `msg_…`, `toolu_…`, Gemini call
 *   ids and thought signatures), arguments as a JSON string (OpenAI) or an object (Anthropic,
 *   Gemini), `finish_reason` / `status` / `stop_reason` / `finishReason` as the APIs send them.
 * - Request checks with the providers' 400 error bodies: pairing of tool calls and results (by id,
 *   or for Gemini by name and order, and its thought signatures), tool names, strict schemas,
 *   Gemini's schema subset, `max_tokens`, `anthropic-version`, API keys.
 * - SSE streaming with text and tool-call arguments split across deltas.
 * - 429 with `Retry-After` (Gemini: `RetryInfo` in the body), 5xx, slow headers, stalled bodies,
 *   dropped connections, garbage.
 * - Every request recorded (`requests`) so tests can assert what was sent.
 *
 * `startFakeServer({script}) → {url, openaiBaseUrl, anthropicBaseUrl, geminiBaseUrl, requests, close}`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkExportedTool } from '../../src/schema/dialects/check-dialect.js';
import { sanitizeToolName } from '../../src/schema/dialects/tool-names.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface FakeToolCall {
  /** A tool name of the request, or a gramkit name (it is sanitized to the request's name for it). */
  readonly name: string;
  /** An object (sent as JSON text to OpenAI, as `input` / `args` to Anthropic / Gemini) or raw text (OpenAI only, e.g. broken JSON). */
  readonly arguments: unknown;
  readonly id?: string;
}

export type FakeTurn =
  /** A final answer. */
  | { readonly text: string; readonly chunkSize?: number }
  /** Tool calls (parallel when several), optionally with text before them. */
  | { readonly toolCalls: ReadonlyArray<FakeToolCall>; readonly text?: string; readonly chunkSize?: number }
  /** An HTTP error with the provider's error body (`message` and `type` default from the status). */
  | { readonly status: number; readonly message?: string; readonly type?: string; readonly headers?: Readonly<Record<string, string>> }
  /** 429 with `Retry-After` (seconds or an HTTP date) or `retry-after-ms`. */
  | { readonly rateLimited: { readonly retryAfter?: string; readonly retryAfterMs?: number } }
  /** Wait before answering (headers included): for timeouts and aborts. */
  | { readonly delayMs: number; readonly then: FakeTurn }
  /** Send the start of the answer, then stall: for body timeouts and aborts mid-stream. */
  | { readonly stallMs: number; readonly then: FakeTurn }
  /** A stream that fails midway with the provider's error event (after some text). */
  | { readonly streamError: { readonly type: string; readonly message: string }; readonly afterText?: string }
  /** Any body (garbage, a wrong shape), 200 by default. */
  | { readonly raw: string; readonly status?: number; readonly contentType?: string }
  /** Close the socket without answering. */
  | { readonly dropConnection: true };

export type Provider = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';

export interface RecordedRequest {
  /** 0-based, in arrival order. */
  readonly index: number;
  readonly provider: Provider;
  readonly path: string;
  /** The query string, without `?` (Gemini streams with `alt=sse`). */
  readonly query: string;
  /** The model asked for (Gemini: from the path). */
  readonly model?: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body (undefined when it was not JSON). */
  readonly body: any;
  readonly stream: boolean;
  /** OpenAI request using `functions` instead of `tools`. */
  readonly legacy: boolean;
  /** The status the server answered. */
  status?: number;
}

export type Script = ReadonlyArray<FakeTurn> | ((request: RecordedRequest, turn: number) => FakeTurn);

export interface FakeServerOptions {
  readonly script: Script;
  /** When set, requests must carry this key (`Authorization: Bearer` / `x-api-key`). */
  readonly apiKey?: string;
  /** Default size of the pieces text and arguments are split into when streaming (default 7). */
  readonly chunkSize?: number;
  /** Gemini gives its function calls ids (default true; older versions did not). */
  readonly geminiCallIds?: boolean;
  /**
   * Gemini signs the first function call of a turn (`thoughtSignature`) and requires the
   * signatures of the current turn back, as Gemini 3 does (default true).
   */
  readonly geminiThoughtSignatures?: boolean;
}

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `url + "/v1"`: the base URL for OpenAI clients. */
  readonly openaiBaseUrl: string;
  /** `url`: the base URL for Anthropic clients (they add `/v1/messages`). */
  readonly anthropicBaseUrl: string;
  /** `url`: the base URL for Gemini clients (they add `/v1beta/models/...`). */
  readonly geminiBaseUrl: string;
  readonly requests: RecordedRequest[];
  /** Scripted turns not yet used (array scripts). */
  remaining(): number;
  close(): Promise<void>;
}

// -------------------------------------------------------------------------------------------------
// helpers for function scripts
// -------------------------------------------------------------------------------------------------

/** The text of the last user message (any provider), or '' when the last message is not a user's text. */
export const lastUserText = (r: RecordedRequest): string => {
  if (r.provider === 'gemini') {
    const contents: any[] = Array.isArray(r.body?.contents) ? r.body.contents : [];
    const last = contents[contents.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.parts)) return '';
    return last.parts
      .filter((p: any) => typeof p?.text === 'string')
      .map((p: any) => String(p.text))
      .join('');
  }
  if (r.provider === 'openai-responses') {
    if (typeof r.body?.input === 'string') return r.body.input;
    const items: any[] = Array.isArray(r.body?.input) ? r.body.input : [];
    const last = items[items.length - 1];
    if (last?.role !== 'user') return '';
    if (typeof last.content === 'string') return last.content;
    if (Array.isArray(last.content))
      return last.content
        .filter((b: any) => b?.type === 'input_text')
        .map((b: any) => String(b.text))
        .join('');
    return '';
  }
  const messages: any[] = Array.isArray(r.body?.messages) ? r.body.messages : [];
  const last = messages[messages.length - 1];
  if (last?.role !== 'user') return '';
  if (typeof last.content === 'string') return last.content;
  if (Array.isArray(last.content))
    return last.content
      .filter((b: any) => b?.type === 'text')
      .map((b: any) => String(b.text))
      .join('');
  return '';
};

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/**
 * The tool results at the end of the conversation (any provider), in order. Gemini's are the JSON
 * text of their `output` (or `error`), and those without an id are named by their function.
 */
export const toolResults = (r: RecordedRequest): ReadonlyArray<{ readonly id: string; readonly content: string; readonly isError: boolean }> => {
  if (r.provider === 'gemini') {
    const contents: any[] = Array.isArray(r.body?.contents) ? r.body.contents : [];
    const last = contents[contents.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.parts)) return [];
    return last.parts
      .filter((p: any) => p?.functionResponse !== undefined)
      .map((p: any) => {
        const f = p.functionResponse;
        const isError = f.response?.error !== undefined;
        return { id: String(f.id ?? f.name), content: JSON.stringify(isError ? f.response.error : (f.response?.output ?? f.response)), isError };
      });
  }
  if (r.provider === 'openai-responses') {
    const items: any[] = Array.isArray(r.body?.input) ? r.body.input : [];
    const out: Array<{ id: string; content: string; isError: boolean }> = [];
    for (let i = items.length - 1; i >= 0 && items[i]?.type === 'function_call_output'; i--)
      out.unshift({ id: String(items[i].call_id), content: asText(items[i].output), isError: false });
    return out;
  }
  const messages: any[] = Array.isArray(r.body?.messages) ? r.body.messages : [];
  if (r.provider === 'anthropic') {
    const last = messages[messages.length - 1];
    if (last?.role !== 'user' || !Array.isArray(last.content)) return [];
    return last.content
      .filter((b: any) => b?.type === 'tool_result')
      .map((b: any) => ({ id: String(b.tool_use_id), content: asText(b.content), isError: b.is_error === true }));
  }
  const out: Array<{ id: string; content: string; isError: boolean }> = [];
  for (let i = messages.length - 1; i >= 0 && (messages[i]?.role === 'tool' || messages[i]?.role === 'function'); i--) {
    const m = messages[i];
    out.unshift({ id: String(m.tool_call_id ?? m.name), content: asText(m.content), isError: false });
  }
  return out;
};

// -------------------------------------------------------------------------------------------------
// ids and sizes
// -------------------------------------------------------------------------------------------------

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const makeIds = () => {
  let n = 0;
  const token = (length: number): string => {
    n++;
    let x = n * 2654435761;
    let s = '';
    for (let i = 0; i < length; i++) {
      x = (x * 1103515245 + 12345 + i) % 2147483648;
      s += ALPHABET[x % ALPHABET.length];
    }
    return s;
  };
  return {
    completion: () => `chatcmpl-${token(29)}`,
    call: () => `call_${token(24)}`,
    message: () => `msg_01${token(22)}`,
    toolUse: () => `toolu_01${token(22)}`,
    response: () => `resp_${token(48)}`,
    item: (prefix: 'fc' | 'msg') => `${prefix}_${token(48)}`,
    geminiCall: () => token(8).toLowerCase(),
    geminiResponse: () => token(22),
    signature: () => `Cr${token(62)}==`,
  };
};

const tokens = (x: unknown): number => Math.max(1, Math.ceil((JSON.stringify(x) ?? '').length / 4));

const pieces = (s: string, size: number): string[] => {
  if (s.length === 0) return [];
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
};

const OPENAI_STATUS_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_denied',
  404: 'invalid_request_error',
  429: 'rate_limit_exceeded',
  500: 'server_error',
  503: 'server_error',
};

const STATUS_TYPES: Record<Provider, Record<number, string>> = {
  openai: OPENAI_STATUS_TYPES,
  'openai-responses': OPENAI_STATUS_TYPES,
  anthropic: {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    529: 'overloaded_error',
  },
  // Google's canonical codes, sent as `status`
  gemini: {
    400: 'INVALID_ARGUMENT',
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    404: 'NOT_FOUND',
    409: 'ABORTED',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
    504: 'DEADLINE_EXCEEDED',
  },
};

const errorBody = (
  provider: Provider,
  status: number,
  message: string,
  type?: string,
  extra: { param?: string | null; code?: string | null; details?: ReadonlyArray<unknown> } = {},
): string => {
  const fallback =
    provider === 'gemini'
      ? status >= 500
        ? 'INTERNAL'
        : 'INVALID_ARGUMENT'
      : status >= 500
        ? provider === 'anthropic'
          ? 'api_error'
          : 'server_error'
        : 'invalid_request_error';
  const t = type ?? STATUS_TYPES[provider][status] ?? fallback;
  if (provider === 'anthropic') return JSON.stringify({ type: 'error', error: { type: t, message } });
  if (provider === 'gemini')
    return JSON.stringify({ error: { code: status, message, status: t, ...(extra.details !== undefined ? { details: extra.details } : {}) } });
  return JSON.stringify({ error: { message, type: t, param: extra.param ?? null, code: extra.code ?? null } });
};

// -------------------------------------------------------------------------------------------------
// request checks (the providers' 400s)
// -------------------------------------------------------------------------------------------------

interface Rejection {
  readonly status: number;
  readonly message: string;
  readonly type?: string;
  readonly param?: string;
  readonly code?: string;
  /** Google's `details` (`ErrorInfo`, `RetryInfo`). */
  readonly details?: ReadonlyArray<unknown>;
}

const checkOpenAI = (r: RecordedRequest, apiKey: string | undefined): Rejection | undefined => {
  if (apiKey !== undefined && r.headers['authorization'] !== `Bearer ${apiKey}`) {
    return {
      status: 401,
      message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
      code: 'invalid_api_key',
    };
  }
  const b = r.body;
  if (typeof b !== 'object' || b === null)
    return {
      status: 400,
      message: "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
    };
  if (typeof b.model !== 'string') return { status: 400, message: 'you must provide a model parameter', param: 'model' };
  if (!Array.isArray(b.messages) || b.messages.length === 0) {
    return {
      status: 400,
      message: "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      param: 'messages',
      code: 'empty_array',
    };
  }
  const tools: any[] = Array.isArray(b.tools) ? b.tools : [];
  for (const [i, t] of tools.entries()) {
    const name = t?.function?.name;
    if (t?.type !== 'function' || typeof name !== 'string')
      return { status: 400, message: `Missing required parameter: 'tools[${i}].function'.`, param: `tools[${i}].function` };
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
      return {
        status: 400,
        message: `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        param: `tools[${i}].function.name`,
        code: 'invalid_value',
      };
    }
    const problems = checkExportedTool(t.function.strict === true ? 'openai-strict' : 'openai', t);
    const first = problems[0];
    if (first !== undefined) {
      const where = first.message.replace(/^tool "[^"]*" \([^)]*\), at /, '');
      return {
        status: 400,
        message: `Invalid schema for function '${name}': ${where}`,
        param: `tools[${i}].function.parameters`,
        code: 'invalid_function_parameters',
      };
    }
  }
  if (b.tool_choice !== undefined && tools.length === 0) {
    return { status: 400, message: "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", param: 'tool_choice' };
  }
  const functions: any[] = Array.isArray(b.functions) ? b.functions : [];
  for (const [i, f] of functions.entries()) {
    if (typeof f?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(f.name)) {
      return {
        status: 400,
        message: `Invalid 'functions[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        param: `functions[${i}].name`,
        code: 'invalid_value',
      };
    }
  }
  // pairing: the tool messages after an assistant turn with tool_calls answer every id, and only those
  let pending: string[] = [];
  let pendingFunction: string | undefined;
  for (const [i, m] of (b.messages as any[]).entries()) {
    if (m?.role === 'tool') {
      const id = m.tool_call_id;
      if (typeof id !== 'string' || !pending.includes(id)) {
        return {
          status: 400,
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          param: `messages.[${i}].role`,
        };
      }
      pending = pending.filter((x) => x !== id);
      continue;
    }
    if (m?.role === 'function') {
      if (pendingFunction === undefined || m.name !== pendingFunction) {
        return {
          status: 400,
          message: "Invalid parameter: messages with role 'function' must be a response to a preceding message with 'function_call'.",
          param: `messages.[${i}].role`,
        };
      }
      pendingFunction = undefined;
      continue;
    }
    if (pending.length > 0) {
      return {
        status: 400,
        message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
        param: `messages.[${i}].role`,
      };
    }
    if (!['system', 'developer', 'user', 'assistant'].includes(m?.role)) {
      return {
        status: 400,
        message: `Invalid value: '${String(m?.role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        param: `messages[${i}].role`,
      };
    }
    if (m.role === 'assistant') {
      if (Array.isArray(m.tool_calls)) {
        for (const tc of m.tool_calls) {
          if (typeof tc?.id !== 'string' || typeof tc?.function?.arguments !== 'string') {
            return {
              status: 400,
              message: `Invalid 'messages[${i}].tool_calls': each tool call needs an id and function.arguments as a string.`,
              param: `messages[${i}].tool_calls`,
            };
          }
        }
        pending = m.tool_calls.map((tc: any) => tc.id);
      }
      if (m.function_call !== undefined && m.function_call !== null) pendingFunction = m.function_call.name;
      if ((m.content === null || m.content === undefined) && pending.length === 0 && pendingFunction === undefined) {
        return { status: 400, message: `Invalid value for 'content': expected a string, got null.`, param: `messages.[${i}].content` };
      }
    }
  }
  if (pending.length > 0) {
    return {
      status: 400,
      message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${pending.join(', ')}`,
      param: 'messages',
    };
  }
  return undefined;
};

const checkAnthropic = (r: RecordedRequest, apiKey: string | undefined): Rejection | undefined => {
  if (apiKey !== undefined && r.headers['x-api-key'] !== apiKey) return { status: 401, message: 'invalid x-api-key' };
  if (r.headers['anthropic-version'] === undefined) return { status: 400, message: 'anthropic-version: header is required' };
  const b = r.body;
  if (typeof b !== 'object' || b === null) return { status: 400, message: 'There was an issue with your request body: it is not valid JSON' };
  if (typeof b.model !== 'string') return { status: 400, message: 'model: Field required' };
  if (typeof b.max_tokens !== 'number') return { status: 400, message: 'max_tokens: Field required' };
  if (!Array.isArray(b.messages) || b.messages.length === 0) return { status: 400, message: 'messages: at least one message is required' };
  const tools: any[] = Array.isArray(b.tools) ? b.tools : [];
  for (const [i, t] of tools.entries()) {
    if (typeof t?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(t.name))
      return { status: 400, message: `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'` };
    if (t.input_schema?.type !== 'object') return { status: 400, message: `tools.${i}.custom.input_schema.type: Input should be 'object'` };
  }
  const msgs: any[] = b.messages;
  for (const [i, m] of msgs.entries()) {
    if (m?.role !== 'user' && m?.role !== 'assistant') {
      return {
        status: 400,
        message:
          m?.role === 'system'
            ? `messages.${i}: Unexpected role "system". The Messages API accepts a top-level \`system\` parameter, not "system" as an input message role.`
            : `messages.${i}.role: Input should be 'user' or 'assistant'`,
      };
    }
    const blocks: any[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
    if (blocks.length === 0 && !(m.role === 'assistant' && i === msgs.length - 1)) {
      return { status: 400, message: `messages.${i}: all messages must have non-empty content except for the optional final assistant message` };
    }
    if (m.role === 'user') {
      let seenOther = false;
      for (const [k, bl] of blocks.entries()) {
        if (bl?.type === 'tool_result') {
          if (seenOther) return { status: 400, message: `messages.${i}.content.${k}: tool_result blocks must come before any other content in a user message` };
        } else seenOther = true;
      }
      const prev = msgs[i - 1];
      const uses: string[] =
        prev?.role === 'assistant' && Array.isArray(prev.content) ? prev.content.filter((x: any) => x?.type === 'tool_use').map((x: any) => x.id) : [];
      for (const [k, bl] of blocks.entries()) {
        if (bl?.type === 'tool_result' && !uses.includes(bl.tool_use_id)) {
          return {
            status: 400,
            message: `messages.${i}.content.${k}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(bl.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          };
        }
      }
    }
    if (m.role === 'assistant') {
      const uses = blocks.filter((x: any) => x?.type === 'tool_use');
      for (const u of uses) {
        if (typeof u.input !== 'object' || u.input === null || Array.isArray(u.input))
          return { status: 400, message: `messages.${i}: tool_use.input: Input should be a valid dictionary` };
      }
      if (uses.length > 0) {
        const next = msgs[i + 1];
        const results: string[] =
          next?.role === 'user' && Array.isArray(next.content) ? next.content.filter((x: any) => x?.type === 'tool_result').map((x: any) => x.tool_use_id) : [];
        const missing = uses.map((u: any) => String(u.id)).filter((id: string) => !results.includes(id));
        if (missing.length > 0) {
          return {
            status: 400,
            message: `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
          };
        }
      }
    }
  }
  return undefined;
};

const checkResponses = (r: RecordedRequest, apiKey: string | undefined): Rejection | undefined => {
  if (apiKey !== undefined && r.headers['authorization'] !== `Bearer ${apiKey}`) {
    return {
      status: 401,
      message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
      code: 'invalid_api_key',
    };
  }
  const b = r.body;
  if (typeof b !== 'object' || b === null)
    return {
      status: 400,
      message: "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
    };
  if (typeof b.model !== 'string') return { status: 400, message: "Missing required parameter: 'model'.", param: 'model', code: 'missing_required_parameter' };
  if (typeof b.input !== 'string' && !(Array.isArray(b.input) && b.input.length > 0)) {
    return {
      status: 400,
      message: "Invalid 'input': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      param: 'input',
      code: 'empty_array',
    };
  }
  const tools: any[] = Array.isArray(b.tools) ? b.tools : [];
  for (const [i, t] of tools.entries()) {
    if (t?.type !== 'function' || typeof t.name !== 'string')
      return { status: 400, message: `Missing required parameter: 'tools[${i}].name'.`, param: `tools[${i}].name`, code: 'missing_required_parameter' };
    if (t.function !== undefined)
      return { status: 400, message: `Unknown parameter: 'tools[${i}].function'.`, param: `tools[${i}].function`, code: 'unknown_parameter' };
    if (!/^[a-zA-Z0-9_-]{1,64}$/.test(t.name)) {
      return {
        status: 400,
        message: `Invalid 'tools[${i}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        param: `tools[${i}].name`,
        code: 'invalid_value',
      };
    }
    // `strict` omitted: the Responses API makes the schema strict itself
    const strict = t.strict !== false;
    const problems = checkExportedTool(strict ? 'openai-strict' : 'openai', { type: 'function', function: { name: t.name, parameters: t.parameters, strict } });
    const first = problems[0];
    if (first !== undefined) {
      const where = first.message.replace(/^tool "[^"]*" \([^)]*\), at /, '');
      return {
        status: 400,
        message: `Invalid schema for function '${t.name}': ${where}${t.strict === undefined ? ' (strict mode: "strict" was not given)' : ''}`,
        param: `tools[${i}].parameters`,
        code: 'invalid_function_parameters',
      };
    }
  }
  if (b.tool_choice !== undefined && typeof b.tool_choice === 'object' && !tools.some((t) => t.name === b.tool_choice?.name)) {
    return { status: 400, message: `Tool choice '${String(b.tool_choice?.name)}' not found in 'tools' parameter.`, param: 'tool_choice' };
  }
  const items: any[] = Array.isArray(b.input) ? b.input : [];
  const calls: string[] = [];
  const answered = new Set<string>();
  for (const [i, it] of items.entries()) {
    const type = it?.type ?? (it?.role !== undefined ? 'message' : undefined);
    if (type === 'message') {
      if (!['system', 'developer', 'user', 'assistant'].includes(it.role)) {
        return {
          status: 400,
          message: `Invalid value: '${String(it.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
          param: `input[${i}].role`,
          code: 'invalid_value',
        };
      }
    } else if (type === 'function_call') {
      if (typeof it.call_id !== 'string' || typeof it.name !== 'string' || typeof it.arguments !== 'string') {
        return { status: 400, message: `Invalid 'input[${i}]': a function_call needs call_id, name and arguments as a string.`, param: `input[${i}]` };
      }
      calls.push(it.call_id);
    } else if (type === 'function_call_output') {
      if (!calls.includes(it.call_id))
        return { status: 400, message: `No tool call found for function call output with call_id ${String(it.call_id)}.`, param: 'input' };
      answered.add(it.call_id);
    } else {
      return {
        status: 400,
        message: `Invalid value: '${String(type)}'. Supported values are: 'message', 'function_call', 'function_call_output', ...`,
        param: `input[${i}].type`,
        code: 'invalid_value',
      };
    }
  }
  const missing = calls.find((c) => !answered.has(c));
  if (missing !== undefined) return { status: 400, message: `No tool output found for function call ${missing}.`, param: 'input' };
  return undefined;
};

const GEMINI_SKIP_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

const checkGemini = (
  r: RecordedRequest,
  query: URLSearchParams,
  apiKey: string | undefined,
  signatures: ReadonlySet<string> | undefined,
): Rejection | undefined => {
  const given = r.headers['x-goog-api-key'] ?? query.get('key') ?? undefined;
  if (apiKey !== undefined && given === undefined) {
    return {
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    };
  }
  if (apiKey !== undefined && given !== apiKey) {
    return {
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    };
  }
  const b = r.body;
  if (typeof b !== 'object' || b === null) return { status: 400, message: 'Invalid JSON payload received. Unexpected token.' };
  if (b.model !== undefined) return { status: 400, message: 'Invalid JSON payload received. Unknown name "model": Cannot find field.' };
  const contents: any[] = Array.isArray(b.contents) ? b.contents : [];
  if (contents.length === 0) return { status: 400, message: '* GenerateContentRequest.contents: contents is not specified\n' };
  const declared: string[] = [];
  for (const [i, t] of (Array.isArray(b.tools) ? b.tools : []).entries()) {
    for (const [j, f] of (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []).entries()) {
      const first = checkExportedTool('gemini', f)[0];
      if (first !== undefined)
        return {
          status: 400,
          message: `* GenerateContentRequest.tools[${i}].function_declarations[${j}]: ${first.message.replace(/^tool "[^"]*" \([^)]*\), at /, 'at ')}\n`,
        };
      declared.push(String(f?.name));
    }
  }
  const mode = b.toolConfig?.functionCallingConfig?.mode;
  if (mode !== undefined && !['AUTO', 'ANY', 'NONE', 'VALIDATED'].includes(mode))
    return {
      status: 400,
      message: `Invalid value at 'tool_config.function_calling_config.mode' (type.googleapis.com/google.ai.generativelanguage.v1beta.FunctionCallingConfig.Mode), "${String(mode)}"`,
    };
  const allowed = b.toolConfig?.functionCallingConfig?.allowedFunctionNames;
  if (allowed !== undefined && mode !== 'ANY')
    return { status: 400, message: '* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names: only allowed when mode is ANY\n' };
  for (const n of Array.isArray(allowed) ? allowed : [])
    if (!declared.includes(n))
      return {
        status: 400,
        message: `* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names: "${String(n)}" is not a declared function\n`,
      };
  const fcs = (c: any): any[] => (Array.isArray(c?.parts) ? c.parts.filter((p: any) => p?.functionCall !== undefined) : []);
  const frs = (c: any): any[] => (Array.isArray(c?.parts) ? c.parts.filter((p: any) => p?.functionResponse !== undefined) : []);
  // the current turn: what follows the last user text
  let turnStart = 0;
  contents.forEach((c, i) => {
    if (c?.role !== 'model' && Array.isArray(c?.parts) && c.parts.some((p: any) => typeof p?.text === 'string')) turnStart = i + 1;
  });
  for (const [i, c] of contents.entries()) {
    const role = c?.role ?? 'user';
    if (role !== 'user' && role !== 'model') return { status: 400, message: `Please use a valid role: user, model.` };
    if (!Array.isArray(c.parts) || c.parts.length === 0)
      return { status: 400, message: `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n` };
    const calls = fcs(c);
    for (const p of calls)
      if (typeof p.functionCall.args !== 'object' || p.functionCall.args === null || Array.isArray(p.functionCall.args))
        return {
          status: 400,
          message: `Invalid value at 'contents[${i}].parts' (type.googleapis.com/google.protobuf.Struct): function_call.args must be an object`,
        };
    if (role === 'model' && calls.length > 0 && signatures !== undefined && i >= turnStart) {
      const sig = calls[0].thoughtSignature;
      if (sig === undefined) {
        return {
          status: 400,
          message: `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`default_api:${String(calls[0].functionCall.name)}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
        };
      }
      if (!signatures.has(sig) && !GEMINI_SKIP_SIGNATURES.has(sig)) return { status: 400, message: `Corrupted thought signature at contents[${i}].` };
    }
    if (role === 'model' && calls.length > 0 && i + 1 < contents.length && frs(contents[i + 1]).length === 0) {
      return {
        status: 400,
        message: 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      };
    }
    const responses = frs(c);
    if (responses.length === 0) continue;
    const prev = contents[i - 1];
    const prevCalls = prev?.role === 'model' ? fcs(prev) : [];
    if (prevCalls.length === 0) return { status: 400, message: 'Please ensure that function response turn comes immediately after a function call turn.' };
    if (responses.length !== prevCalls.length)
      return {
        status: 400,
        message: 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      };
    for (const [k, p] of responses.entries()) {
      const f = p.functionResponse;
      if (typeof f.response !== 'object' || f.response === null || Array.isArray(f.response))
        return {
          status: 400,
          message: `Invalid value at 'contents[${i}].parts[${k}].function_response.response' (type.googleapis.com/google.protobuf.Struct): must be an object`,
        };
      const call = f.id !== undefined ? prevCalls.find((q) => q.functionCall.id === f.id) : prevCalls[k];
      if (call === undefined)
        return {
          status: 400,
          message: `Function response id "${String(f.id)}" at contents[${i}].parts[${k}] matches no function call id of the function call turn.`,
        };
      if (call.functionCall.name !== f.name)
        return {
          status: 400,
          message: `Function response name "${String(f.name)}" at contents[${i}].parts[${k}] does not match its function call "${String(call.functionCall.name)}".`,
        };
    }
    const unanswered = prevCalls.find((q) => q.functionCall.id !== undefined && !responses.some((p) => p.functionResponse.id === q.functionCall.id));
    if (unanswered !== undefined)
      return { status: 400, message: `Function call id "${String(unanswered.functionCall.id)}" has no function response in contents[${i}].` };
  }
  return undefined;
};

// -------------------------------------------------------------------------------------------------
// rendering turns
// -------------------------------------------------------------------------------------------------

type Ids = ReturnType<typeof makeIds>;

interface Resolved {
  readonly id: string;
  readonly name: string;
  readonly argsText: string;
  readonly argsObject: unknown;
}

const requestToolNames = (r: RecordedRequest): string[] => {
  const b = r.body ?? {};
  if (r.provider === 'anthropic' || r.provider === 'openai-responses') return (Array.isArray(b.tools) ? b.tools : []).map((t: any) => String(t?.name));
  if (r.provider === 'gemini')
    return (Array.isArray(b.tools) ? b.tools : [])
      .flatMap((t: any) => (Array.isArray(t?.functionDeclarations) ? t.functionDeclarations : []))
      .map((f: any) => String(f?.name));
  if (r.legacy) return (Array.isArray(b.functions) ? b.functions : []).map((f: any) => String(f?.name));
  return (Array.isArray(b.tools) ? b.tools : []).map((t: any) => String(t?.function?.name));
};

const resolveCalls = (r: RecordedRequest, calls: ReadonlyArray<FakeToolCall>, ids: Ids): Resolved[] => {
  const names = requestToolNames(r);
  return calls.map((c) => {
    const dialect = r.provider === 'anthropic' || r.provider === 'gemini' ? r.provider : 'openai';
    const name = names.includes(c.name) ? c.name : names.includes(sanitizeToolName(c.name, dialect)) ? sanitizeToolName(c.name, dialect) : c.name;
    const argsText = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {});
    let argsObject: unknown = c.arguments;
    if (typeof c.arguments === 'string') {
      try {
        argsObject = JSON.parse(c.arguments);
      } catch {
        argsObject = { invalid_json: c.arguments };
      }
    }
    return { id: c.id ?? (r.provider === 'anthropic' ? ids.toolUse() : r.provider === 'gemini' ? ids.geminiCall() : ids.call()), name, argsText, argsObject };
  });
};

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' };

interface Writer {
  write(s: string): Promise<void>;
  end(s?: string): void;
  closed(): boolean;
  sleep(ms: number): Promise<void>;
}

const openAIRender = async (
  r: RecordedRequest,
  turn: { text?: string; toolCalls?: ReadonlyArray<FakeToolCall>; chunkSize?: number },
  ids: Ids,
  res: ServerResponse,
  w: () => Writer,
  chunk: number,
  stallAfterFirst?: number,
): Promise<void> => {
  const created = Math.floor(Date.now() / 1000);
  const id = ids.completion();
  const model = String(r.body?.model ?? 'gpt-fake');
  let calls = resolveCalls(r, turn.toolCalls ?? [], ids);
  if (r.legacy) calls = calls.slice(0, 1);
  const text = turn.text ?? '';
  const finish = calls.length > 0 ? (r.legacy ? 'function_call' : 'tool_calls') : 'stop';
  const usage = { prompt_tokens: tokens(r.body?.messages), completion_tokens: tokens([text, calls.map((c) => c.argsText)]), total_tokens: 0 };
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  const size = turn.chunkSize ?? chunk;
  if (!r.stream) {
    const message: Record<string, unknown> = { role: 'assistant', content: calls.length > 0 && text.length === 0 ? null : text, refusal: null };
    if (calls.length > 0) {
      if (r.legacy) message['function_call'] = { name: calls[0]?.name, arguments: calls[0]?.argsText };
      else message['tool_calls'] = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.argsText } }));
    }
    const body = JSON.stringify({
      id,
      object: 'chat.completion',
      created,
      model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finish }],
      usage,
      system_fingerprint: 'fp_fake',
    });
    await sendJson(res, w, body, { 'x-request-id': `req_${id.slice(9, 21)}` }, stallAfterFirst);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  const out = w();
  const send = async (choiceDelta: Record<string, unknown>, finishReason: string | null = null): Promise<void> => {
    await out.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: 'fp_fake', choices: [{ index: 0, delta: choiceDelta, logprobs: null, finish_reason: finishReason }] })}\n\n`,
    );
  };
  await send({ role: 'assistant', content: '', refusal: null });
  if (stallAfterFirst !== undefined) await out.sleep(stallAfterFirst);
  for (const p of pieces(text, size)) {
    if (out.closed()) return;
    await send({ content: p });
  }
  for (const [index, c] of calls.entries()) {
    if (r.legacy) {
      await send({ function_call: { name: c.name, arguments: '' } });
      for (const p of pieces(c.argsText, size)) await send({ function_call: { arguments: p } });
    } else {
      await send({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }] });
      for (const p of pieces(c.argsText, size)) await send({ tool_calls: [{ index, function: { arguments: p } }] });
    }
  }
  await send({}, finish);
  if (r.body?.stream_options?.include_usage === true) {
    await out.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`);
  }
  out.end('data: [DONE]\n\n');
};

/** A whole JSON body; with `stallAfterFirst`, its first bytes, a pause, then the rest (for body timeouts). */
const sendJson = async (res: ServerResponse, w: () => Writer, body: string, headers: Record<string, string>, stallAfterFirst?: number): Promise<void> => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  if (stallAfterFirst === undefined) {
    res.end(body);
    return;
  }
  const out = w();
  await out.write(body.slice(0, 20));
  await out.sleep(stallAfterFirst);
  out.end(body.slice(20));
};

const anthropicRender = async (
  r: RecordedRequest,
  turn: { text?: string; toolCalls?: ReadonlyArray<FakeToolCall>; chunkSize?: number },
  ids: Ids,
  res: ServerResponse,
  w: () => Writer,
  chunk: number,
  stallAfterFirst?: number,
): Promise<void> => {
  const id = ids.message();
  const model = String(r.body?.model ?? 'claude-fake');
  const calls = resolveCalls(r, turn.toolCalls ?? [], ids);
  const text = turn.text ?? '';
  const stop = calls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: tokens([r.body?.system, r.body?.messages]), output_tokens: tokens([text, calls.map((c) => c.argsObject)]) };
  const size = turn.chunkSize ?? chunk;
  if (!r.stream) {
    const content: unknown[] = [];
    if (text.length > 0) content.push({ type: 'text', text });
    for (const c of calls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.argsObject });
    const body = JSON.stringify({ id, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage });
    await sendJson(res, w, body, { 'request-id': `req_${id.slice(6, 20)}` }, stallAfterFirst);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  const out = w();
  const send = async (type: string, data: Record<string, unknown>): Promise<void> => {
    await out.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  };
  await send('message_start', {
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    },
  });
  await send('ping', {});
  if (stallAfterFirst !== undefined) await out.sleep(stallAfterFirst);
  let index = 0;
  if (text.length > 0) {
    await send('content_block_start', { index, content_block: { type: 'text', text: '' } });
    for (const p of pieces(text, size)) {
      if (out.closed()) return;
      await send('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
    }
    await send('content_block_stop', { index });
    index++;
  }
  for (const c of calls) {
    await send('content_block_start', { index, content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} } });
    for (const p of pieces(JSON.stringify(c.argsObject), size))
      await send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
    await send('content_block_stop', { index });
    index++;
  }
  await send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  out.end(`event: message_stop\ndata: ${JSON.stringify({ type: 'message_stop' })}\n\n`);
};

type RenderTurn = { text?: string; toolCalls?: ReadonlyArray<FakeToolCall>; chunkSize?: number };

const responsesRender = async (
  r: RecordedRequest,
  turn: RenderTurn,
  ids: Ids,
  res: ServerResponse,
  w: () => Writer,
  chunk: number,
  stallAfterFirst?: number,
): Promise<void> => {
  const id = ids.response();
  const createdAt = Math.floor(Date.now() / 1000);
  const b = r.body ?? {};
  const model = String(b.model ?? 'gpt-fake');
  const calls = resolveCalls(r, turn.toolCalls ?? [], ids);
  const text = turn.text ?? '';
  const size = turn.chunkSize ?? chunk;
  const inputTokens = tokens([b.instructions, b.input]);
  const outputTokens = tokens([text, calls.map((c) => c.argsText)]);
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
  const messageId = ids.item('msg');
  const messageItem = (t: string, status: string) => ({
    id: messageId,
    type: 'message',
    status,
    role: 'assistant',
    content: t.length > 0 || status === 'completed' ? [{ type: 'output_text', annotations: [], logprobs: [], text: t }] : [],
  });
  const callItems = calls.map((c) => ({ id: ids.item('fc'), type: 'function_call', status: 'completed', arguments: c.argsText, call_id: c.id, name: c.name }));
  const output = [...(text.length > 0 ? [messageItem(text, 'completed')] : []), ...callItems];
  const response = (status: string, out: unknown[], u: unknown) => ({
    id,
    object: 'response',
    created_at: createdAt,
    status,
    error: null,
    incomplete_details: null,
    instructions: b.instructions ?? null,
    max_output_tokens: b.max_output_tokens ?? null,
    model,
    output: out,
    parallel_tool_calls: b.parallel_tool_calls ?? true,
    previous_response_id: null,
    store: b.store ?? true,
    temperature: b.temperature ?? 1,
    tool_choice: b.tool_choice ?? 'auto',
    tools: b.tools ?? [],
    usage: u,
  });
  if (!r.stream) {
    await sendJson(res, w, JSON.stringify(response('completed', output, usage)), { 'x-request-id': `req_${id.slice(5, 17)}` }, stallAfterFirst);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  const out = w();
  let sequence = 0;
  const send = async (type: string, data: Record<string, unknown>): Promise<void> => {
    await out.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`);
  };
  await send('response.created', { response: response('in_progress', [], null) });
  if (stallAfterFirst !== undefined) await out.sleep(stallAfterFirst);
  await send('response.in_progress', { response: response('in_progress', [], null) });
  let index = 0;
  if (text.length > 0) {
    await send('response.output_item.added', { output_index: index, item: messageItem('', 'in_progress') });
    await send('response.content_part.added', {
      item_id: messageId,
      output_index: index,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    });
    for (const p of pieces(text, size)) {
      if (out.closed()) return;
      await send('response.output_text.delta', { item_id: messageId, output_index: index, content_index: 0, delta: p, logprobs: [] });
    }
    await send('response.output_text.done', { item_id: messageId, output_index: index, content_index: 0, text, logprobs: [] });
    await send('response.content_part.done', {
      item_id: messageId,
      output_index: index,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text },
    });
    await send('response.output_item.done', { output_index: index, item: messageItem(text, 'completed') });
    index++;
  }
  for (const item of callItems) {
    await send('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
    for (const p of pieces(item.arguments, size)) await send('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: p });
    await send('response.function_call_arguments.done', { item_id: item.id, output_index: index, name: item.name, arguments: item.arguments });
    await send('response.output_item.done', { output_index: index, item });
    index++;
  }
  await send('response.completed', { response: response('completed', output, usage) });
  out.end();
};

interface GeminiRender {
  readonly callIds: boolean;
  /** Signatures this server gave (undefined: it gives none). */
  readonly signatures: Set<string> | undefined;
}

const geminiRender = async (
  r: RecordedRequest,
  streamJson: boolean,
  turn: RenderTurn,
  ids: Ids,
  res: ServerResponse,
  w: () => Writer,
  chunk: number,
  g: GeminiRender,
  stallAfterFirst?: number,
): Promise<void> => {
  const responseId = ids.geminiResponse();
  const modelVersion = r.model ?? 'gemini-fake';
  const calls = resolveCalls(r, turn.toolCalls ?? [], ids);
  const text = turn.text ?? '';
  const size = turn.chunkSize ?? chunk;
  const promptTokenCount = tokens([r.body?.systemInstruction, r.body?.contents]);
  const candidatesTokenCount = tokens([text, calls.map((c) => c.argsObject)]);
  const usageMetadata = {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokenCount }],
  };
  const callParts = calls.map((c, i) => {
    const part: Record<string, unknown> = { functionCall: { ...(g.callIds ? { id: c.id } : {}), name: c.name, args: c.argsObject } };
    if (i === 0 && g.signatures !== undefined) {
      const signature = ids.signature();
      g.signatures.add(signature);
      part['thoughtSignature'] = signature;
    }
    return part;
  });
  const chunkOf = (parts: unknown[], last: boolean) => ({
    candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
    usageMetadata: last ? usageMetadata : { promptTokenCount, totalTokenCount: promptTokenCount },
    modelVersion,
    responseId,
  });
  if (!r.stream) {
    const parts = [...(text.length > 0 ? [{ text }] : []), ...callParts];
    await sendJson(res, w, JSON.stringify(chunkOf(parts.length > 0 ? parts : [{ text: '' }], true)), {}, stallAfterFirst);
    return;
  }
  // text in pieces, then the calls (whole, in one chunk, as Gemini sends them); the last chunk says how it finished
  const chunks: Array<Record<string, unknown>> = [];
  const textPieces = pieces(text, size);
  textPieces.forEach((p, i) => chunks.push(chunkOf([{ text: p }], callParts.length === 0 && i === textPieces.length - 1)));
  if (callParts.length > 0) chunks.push(chunkOf(callParts, true));
  if (chunks.length === 0) chunks.push(chunkOf([{ text: '' }], true));
  if (streamJson) {
    // :streamGenerateContent without alt=sse answers a JSON array of the chunks
    await sendJson(res, w, JSON.stringify(chunks), {}, stallAfterFirst);
    return;
  }
  res.writeHead(200, SSE_HEADERS);
  const out = w();
  for (const [i, c] of chunks.entries()) {
    if (out.closed()) return;
    await out.write(`data: ${JSON.stringify(c)}\r\n\r\n`);
    if (i === 0 && stallAfterFirst !== undefined) await out.sleep(stallAfterFirst);
  }
  out.end();
};

// -------------------------------------------------------------------------------------------------
// the server
// -------------------------------------------------------------------------------------------------

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const startFakeServer = async (options: FakeServerOptions): Promise<FakeServer> => {
  const requests: RecordedRequest[] = [];
  const ids = makeIds();
  const chunk = options.chunkSize ?? 7;
  // the thought signatures given out (Gemini), when the server gives them
  const signatures = options.geminiThoughtSignatures === false ? undefined : new Set<string>();
  let turn = 0;
  const script = options.script;
  // pending waits, cut short when the server closes (so no timer outlives a test)
  const sleepers = new Set<() => void>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  const nextTurn = (r: RecordedRequest): FakeTurn => {
    if (typeof script === 'function') return script(r, turn++);
    const t = script[turn];
    turn++;
    return t ?? { status: 500, message: `fake server: the script has ${script.length} turns and request ${r.index + 1} asked for turn ${turn}` };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const gemini = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(path);
    const provider: Provider | undefined =
      req.method !== 'POST'
        ? undefined
        : path === '/v1/chat/completions'
          ? 'openai'
          : path === '/v1/responses'
            ? 'openai-responses'
            : path === '/v1/messages'
              ? 'anthropic'
              : gemini !== null
                ? 'gemini'
                : undefined;
    const text = await readBody(req);
    if (provider === undefined) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } }),
      );
      return;
    }
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const model = gemini !== null ? decodeURIComponent(gemini[1] ?? '') : typeof body?.model === 'string' ? body.model : undefined;
    const r: RecordedRequest = {
      index: requests.length,
      provider,
      path,
      query: query.toString(),
      ...(model !== undefined ? { model } : {}),
      headers: { ...req.headers },
      body,
      stream: gemini !== null ? gemini[2] === 'streamGenerateContent' : body?.stream === true,
      legacy: provider === 'openai' && Array.isArray(body?.functions),
    };
    requests.push(r);
    const reject = (x: Rejection): void => {
      r.status = x.status;
      res.writeHead(x.status, { 'content-type': 'application/json' });
      res.end(
        errorBody(provider, x.status, x.message, x.type, {
          param: x.param ?? null,
          code: x.code ?? null,
          ...(x.details !== undefined ? { details: x.details } : {}),
        }),
      );
    };
    const problem =
      provider === 'openai'
        ? checkOpenAI(r, options.apiKey)
        : provider === 'openai-responses'
          ? checkResponses(r, options.apiKey)
          : provider === 'anthropic'
            ? checkAnthropic(r, options.apiKey)
            : checkGemini(r, query, options.apiKey, signatures);
    if (problem !== undefined) {
      reject(problem);
      return;
    }

    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    const writer = (): Writer => ({
      write: (s: string) =>
        new Promise<void>((resolve) => {
          if (closed) {
            resolve();
            return;
          }
          res.write(s, () => resolve());
        }),
      end: (s?: string) => {
        if (!closed) res.end(s);
      },
      closed: () => closed,
      sleep,
    });

    let t = nextTurn(r);
    let stall: number | undefined;
    for (;;) {
      if ('delayMs' in t) {
        await sleep(t.delayMs);
        if (closed) return;
        t = t.then;
      } else if ('stallMs' in t) {
        stall = t.stallMs;
        t = t.then;
      } else break;
    }
    r.status = 'status' in t && typeof t.status === 'number' ? t.status : 'rateLimited' in t ? 429 : 200;
    if ('dropConnection' in t) {
      req.socket.destroy();
      return;
    }
    if ('raw' in t) {
      res.writeHead(t.status ?? 200, { 'content-type': t.contentType ?? 'application/json' });
      res.end(t.raw);
      return;
    }
    if ('status' in t) {
      res.writeHead(t.status, { 'content-type': 'application/json', ...t.headers });
      res.end(
        errorBody(
          provider,
          t.status,
          t.message ?? (t.status >= 500 ? 'The server had an error while processing your request. Sorry about that!' : 'Bad request'),
          t.type,
        ),
      );
      return;
    }
    if ('rateLimited' in t) {
      const h: Record<string, string> = { 'content-type': 'application/json' };
      const { retryAfter, retryAfterMs } = t.rateLimited;
      if (provider === 'gemini') {
        // Gemini says how long to wait in the body (RetryInfo), not in a header
        const seconds =
          retryAfterMs !== undefined ? retryAfterMs / 1000 : retryAfter !== undefined && /^\d+(\.\d+)?$/.test(retryAfter) ? Number(retryAfter) : undefined;
        if (seconds === undefined && retryAfter !== undefined) h['retry-after'] = retryAfter;
        const details = seconds !== undefined ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }] : [];
        res.writeHead(429, h);
        res.end(errorBody(provider, 429, 'You exceeded your current quota, please check your plan and billing details.', undefined, { details }));
        return;
      }
      if (retryAfter !== undefined) h['retry-after'] = retryAfter;
      if (retryAfterMs !== undefined) h['retry-after-ms'] = String(retryAfterMs);
      res.writeHead(429, h);
      res.end(
        errorBody(
          provider,
          429,
          provider === 'anthropic'
            ? 'Number of request tokens has exceeded your per-minute rate limit.'
            : 'Rate limit reached for requests. Please try again later.',
        ),
      );
      return;
    }
    if ('streamError' in t) {
      if (!r.stream) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(errorBody(provider, 500, t.streamError.message, t.streamError.type));
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      const out = writer();
      if (provider === 'openai') {
        await out.write(
          `data: ${JSON.stringify({ id: ids.completion(), object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: t.afterText ?? '' }, finish_reason: null }] })}\n\n`,
        );
        out.end(`data: ${JSON.stringify({ error: { message: t.streamError.message, type: t.streamError.type, param: null, code: null } })}\n\n`);
      } else if (provider === 'openai-responses') {
        await out.write(
          `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: ids.response(), object: 'response', status: 'in_progress', output: [] } })}\n\n`,
        );
        if (t.afterText !== undefined)
          await out.write(
            `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', sequence_number: 1, item_id: ids.item('msg'), output_index: 0, content_index: 0, delta: t.afterText })}\n\n`,
          );
        out.end(
          `event: error\ndata: ${JSON.stringify({ type: 'error', sequence_number: 2, code: t.streamError.type, message: t.streamError.message, param: null })}\n\n`,
        );
      } else if (provider === 'gemini') {
        if (t.afterText !== undefined)
          await out.write(
            `data: ${JSON.stringify({ candidates: [{ content: { parts: [{ text: t.afterText }], role: 'model' }, index: 0 }], modelVersion: r.model })}\r\n\r\n`,
          );
        const code = Number(Object.entries(STATUS_TYPES.gemini).find(([, name]) => name === t.streamError.type)?.[0] ?? 500);
        out.end(`data: ${errorBody('gemini', code, t.streamError.message, t.streamError.type)}\r\n\r\n`);
      } else {
        await out.write(
          `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: ids.message(), type: 'message', role: 'assistant', content: [], usage: { input_tokens: 1, output_tokens: 1 } } })}\n\n`,
        );
        if (t.afterText !== undefined) {
          await out.write(
            `event: content_block_start\ndata: ${JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })}\n\n`,
          );
          await out.write(
            `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: t.afterText } })}\n\n`,
          );
        }
        out.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: t.streamError.type, message: t.streamError.message } })}\n\n`);
      }
      return;
    }
    if (provider === 'openai') await openAIRender(r, t, ids, res, writer, chunk, stall);
    else if (provider === 'openai-responses') await responsesRender(r, t, ids, res, writer, chunk, stall);
    else if (provider === 'anthropic') await anthropicRender(r, t, ids, res, writer, chunk, stall);
    else
      await geminiRender(
        r,
        r.stream && query.get('alt') !== 'sse',
        t,
        ids,
        res,
        writer,
        chunk,
        { callIds: options.geminiCallIds !== false, signatures },
        stall,
      );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake server failure: ${e instanceof Error ? e.message : String(e)}`, type: 'server_error' } }));
      } else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    geminiBaseUrl: url,
    requests,
    remaining: () => (typeof script === 'function' ? Number.POSITIVE_INFINITY : Math.max(0, script.length - turn)),
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...sleepers]) wake();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
