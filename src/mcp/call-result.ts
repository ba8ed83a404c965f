/**
 * Tool results on the MCP wire, both ways.
 *
 * Served: a `ToolResult` becomes a `tools/call` result. A value is JSON text in one text block
 * (and `structuredContent` when the tool declares an object output schema); a failure is
 * `isError: true` with `CODE: message` as its text, the message a model can act on, and gramkit's
 * error (code, message, retryable, details) under `_meta["gramkit/error"]`.
 *
 * Received: a `tools/call` result becomes the value of a remote tool or the failure it throws.
 * `structuredContent` is the value when there is one; else one text block is read as JSON when it
 * parses and as text otherwise; other content (images, several blocks) is returned as
 * `{content: [...]}`. An `isError` result is a `ToolFailure`: gramkit's own error when the server
 * sent one, else `MCP_TOOL_ERROR` with the server's text. So a call through a gramkit server gives
 * the result of the same call made locally (a property test checks it).
 */
import { isJsonValue, isRecord } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { ToolFailure, type ToolError, type ToolResult } from '../library/result.js';
import { McpCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The `_meta` key holding gramkit's error of a failed call. */
export const ERROR_META_KEY = 'gramkit/error';

/** A `tools/call` result as MCP defines it (the parts gramkit reads and writes). */
export interface McpCallResult {
  readonly content: ReadonlyArray<Readonly<Record<string, unknown>>>;
  readonly structuredContent?: JsonObject;
  readonly isError?: boolean;
  readonly _meta?: JsonObject;
}

// -------------------------------------------------------------------------------------------------
// served: ToolResult → tools/call result
// -------------------------------------------------------------------------------------------------

const jsonText = (v: unknown): string => {
  try {
    return JSON.stringify(v) ?? 'null';
  } catch {
    return 'null';
  }
};

/** The JSON form of an error for `_meta` (details dropped when they are not JSON). */
const errorMeta = (e: ToolError): JsonObject => ({
  code: String(e.code),
  message: e.message,
  retryable: e.retryable,
  ...(e.details !== undefined && isJsonValue(e.details) ? { details: e.details as JsonValue } : {}),
});

/**
 * The `tools/call` result of a `ToolResult`. `structured`: the tool declares an object output
 * schema, so its value also goes in `structuredContent`.
 */
export const toMcpCallResult = (result: ToolResult, structured: boolean): McpCallResult => {
  if (!result.ok) {
    return { content: [{ type: 'text', text: `${result.error.code}: ${result.error.message}` }], isError: true, _meta: { [ERROR_META_KEY]: errorMeta(result.error) } };
  }
  const v = result.value;
  const text = { type: 'text', text: jsonText(v) };
  if (structured && typeof v === 'object' && v !== null && !Array.isArray(v)) return { content: [text], structuredContent: v as JsonObject };
  return { content: [text] };
};

// -------------------------------------------------------------------------------------------------
// received: tools/call result → value or ToolFailure
// -------------------------------------------------------------------------------------------------


const textOf = (content: ReadonlyArray<unknown>): string =>
  content
    .filter(isRecord)
    .map((c) => (c['type'] === 'text' && typeof c['text'] === 'string' ? c['text'] : ''))
    .filter((t) => t !== '')
    .join('\n');

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

/** The failure a remote error result stands for. */
export const failureOf = (result: Readonly<Record<string, unknown>>): ToolFailure => {
  const meta = isRecord(result['_meta']) ? result['_meta'][ERROR_META_KEY] : undefined;
  if (isRecord(meta) && typeof meta['code'] === 'string' && typeof meta['message'] === 'string') {
    return new ToolFailure(meta['code'], meta['message'], {
      retryable: meta['retryable'] === true,
      ...(meta['details'] !== undefined ? { details: meta['details'] } : {}),
    });
  }
  const content = Array.isArray(result['content']) ? result['content'] : [];
  const text = textOf(content);
  return new ToolFailure(McpCodes.TOOL_ERROR, text !== '' ? text : 'the MCP server reported an error without a message');
};

/** The value of a `tools/call` result; a `ToolFailure` (thrown) for an error result. */
export const valueOf = (result: Readonly<Record<string, unknown>>): unknown => {
  if (result['isError'] === true) throw failureOf(result);
  if (isRecord(result['structuredContent'])) return result['structuredContent'];
  const content = Array.isArray(result['content']) ? result['content'] : [];
  if (content.length === 0) return null;
  if (content.length === 1 && isRecord(content[0]) && content[0]['type'] === 'text' && typeof content[0]['text'] === 'string') return parseJson(content[0]['text']);
  return { content };
};

/** A `ToolResult` from a `tools/call` result (the received direction, without throwing). */
export const fromMcpCallResult = (result: Readonly<Record<string, unknown>>): ToolResult => {
  try {
    return { ok: true, value: valueOf(result) };
  } catch (e) {
    const f = e as ToolFailure;
    return { ok: false, error: { code: f.code, message: f.message, ...(f.details !== undefined ? { details: f.details } : {}), retryable: f.retryable } };
  }
};
