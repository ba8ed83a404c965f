/**
 * Tool results on the MCP wire, both ways.
 *
 * Served: a `ToolResult` becomes a `tools/call` result. A string is that text in one text block,
 * marked `_meta["gramkit/text"]` when the text could be read as JSON (`"42"`, `"true"`, `"[1]"`), so
 * a gramkit client reads it back as a string; a text that cannot be JSON needs no marker (and the
 * client parses no `_meta` for it); a
 * value that is MCP content (`{content: [blocks], structuredContent?}`, the blocks text, image,
 * audio, embedded resource or resource link) is sent as it is; any other value is JSON text in one
 * text block (and `structuredContent` when the tool declares an object output schema); a failure is
 * `isError: true` with `CODE: message` as its text, the message a model can act on, and gramkit's
 * error (code, message, retryable, details) under `_meta["gramkit/error"]`.
 *
 * Received: a `tools/call` result becomes the value of a remote tool or the failure it throws.
 * Content other than text (images, audio, resources) is kept: the value is
 * `{content: [...], structuredContent?}`, which a gramkit server sends on unchanged, so images
 * arrive as images end to end. Otherwise `structuredContent` is the value when there is one; else
 * one text block is the string when marked so, read as JSON when it parses and as text otherwise;
 * several text blocks are `{content: [...]}`. An `isError` result is a `ToolFailure`: gramkit's own error when the server
 * sent one, else `MCP_TOOL_ERROR` with the server's text. So a call through a gramkit server gives
 * the result of the same call made locally (a property test checks it).
 */
import { isCanonicalCode } from '../core/codes.js';
import { isJsonValue, isRecord } from '../core/json.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import { ToolFailure, type ToolError, type ToolResult } from '../library/result.js';
import { McpCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The `_meta` key holding gramkit's error of a failed call. */
export const ERROR_META_KEY = 'gramkit/error';

/** The `_meta` key saying the one text block is the value itself (a string), not JSON text. */
export const TEXT_META_KEY = 'gramkit/text';

/** The types of MCP content blocks a result may carry. */
const CONTENT_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/** A content block MCP defines: an object whose `type` is one of the content types, with what that type needs. */
const isContentBlock = (v: unknown): boolean => {
  if (!isRecord(v) || typeof v['type'] !== 'string' || !CONTENT_TYPES.has(v['type'])) return false;
  switch (v['type']) {
    case 'text':
      return typeof v['text'] === 'string';
    case 'image':
    case 'audio':
      return typeof v['data'] === 'string' && typeof v['mimeType'] === 'string';
    case 'resource':
      return isRecord(v['resource']) && typeof v['resource']['uri'] === 'string';
    default:
      return typeof v['uri'] === 'string' && typeof v['name'] === 'string';
  }
};

/**
 * Whether a tool's value is MCP content: an object with a `content` array of content blocks and
 * at most a `structuredContent` object beside it (what a remote tool returns for images, and what
 * a tool returns to send images, audio or resources).
 */
export const isMcpContent = (
  v: unknown,
): v is { readonly content: ReadonlyArray<Readonly<Record<string, unknown>>>; readonly structuredContent?: JsonObject } =>
  isRecord(v) &&
  Array.isArray(v['content']) &&
  v['content'].every(isContentBlock) &&
  Object.keys(v).every((k) => k === 'content' || (k === 'structuredContent' && isRecord(v['structuredContent'])));

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
  code: e.code,
  reason: String(e.reason),
  message: e.message,
  retryable: e.retryable,
  ...(e.details !== undefined && isJsonValue(e.details) ? { details: e.details as JsonValue } : {}),
});

/**
 * Whether a text might parse as JSON: it starts, after JSON's whitespace, with what a JSON value
 * starts with (a superset: `"nothing"` counts, which only costs a marker). A text that does not
 * reads back as itself without a marker (`valueOf` keeps a text that does not parse).
 */
const MAY_BE_JSON = /^[ \t\n\r]*[-0-9[{"tfn]/;

/**
 * The `tools/call` result of a `ToolResult`. `structured`: the tool declares an object output
 * schema, so its value also goes in `structuredContent`.
 */
export const toMcpCallResult = (result: ToolResult, structured: boolean): McpCallResult => {
  if (!result.ok) {
    return {
      content: [{ type: 'text', text: `${result.error.reason}: ${result.error.message}` }],
      isError: true,
      _meta: { [ERROR_META_KEY]: errorMeta(result.error) },
    };
  }
  const v = result.value;
  if (typeof v === 'string')
    return MAY_BE_JSON.test(v) ? { content: [{ type: 'text', text: v }], _meta: { [TEXT_META_KEY]: true } } : { content: [{ type: 'text', text: v }] };
  if (isMcpContent(v)) return v.structuredContent !== undefined ? { content: v.content, structuredContent: v.structuredContent } : { content: v.content };
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
    const reason = typeof meta['reason'] === 'string' && meta['reason'] !== '' ? meta['reason'] : meta['code'];
    return new ToolFailure(reason, meta['message'], {
      ...(isCanonicalCode(meta['code']) ? { code: meta['code'] } : {}),
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
  const content = Array.isArray(result['content']) ? result['content'] : [];
  const structured = isRecord(result['structuredContent']) ? result['structuredContent'] : undefined;
  // images, audio, resources: kept as content (with the structured value beside them)
  if (content.some((c) => !isRecord(c) || c['type'] !== 'text')) return structured !== undefined ? { content, structuredContent: structured } : { content };
  if (structured !== undefined) return structured;
  if (content.length === 0) return null;
  if (content.length === 1 && isRecord(content[0]) && typeof content[0]['text'] === 'string') {
    const marked = isRecord(result['_meta']) && result['_meta'][TEXT_META_KEY] === true;
    return marked ? content[0]['text'] : parseJson(content[0]['text']);
  }
  return { content };
};

/** A `ToolResult` from a `tools/call` result (the received direction, without throwing). */
export const fromMcpCallResult = (result: Readonly<Record<string, unknown>>): ToolResult => {
  try {
    return { ok: true, value: valueOf(result) };
  } catch (e) {
    const f = e as ToolFailure;
    return {
      ok: false,
      error: { code: f.code, reason: f.reason, message: f.message, ...(f.details !== undefined ? { details: f.details } : {}), retryable: f.retryable },
    };
  }
};
