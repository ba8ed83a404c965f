/**
 * The direct path of `tools/call` (issue 21): a plain call, recognised on the wire (stdio-server.ts,
 * http-handler.ts), is answered without the SDK's `Protocol` and `Server` (which validate the
 * request twice and the result twice, and make an `AbortController` a request), through the same
 * `run` of the served source (server.ts: the one invoker, its serialise and gate steps). What the
 * SDK would answer is what this path answers, byte for byte (test/mcp/direct-path.test.ts checks it
 * on generated requests):
 *
 * - plain: `{jsonrpc: "2.0", id, method: "tools/call", params: {name, arguments?}}` and nothing
 *   else: no `_meta` (a progress token, a 2026-07-28 envelope), no `task`, an id the SDK's schema
 *   takes (a string or a safe integer), `arguments` an object;
 * - the result is the SDK's wire form of it (its schema's key order; content blocks as its schema
 *   keeps them): gramkit's own results are written in that form at once, a tool's MCP content goes
 *   through the SDK's schema, and an invalid one is the SDK's error;
 * - the response's keys are in the order the SDK's `Protocol` writes them.
 *
 * A plain `tools/list` (no `_meta`, at most a `cursor`) is answered so too: the SDK sends its
 * result as the handler gives it (unless an output schema is not an object, which it rewrites for
 * 2025-era clients: that list, and a cursor the server did not give, are the SDK's).
 *
 * Everything else (an unknown tool, a connection with a log level, a client that can be asked, any
 * other method) goes through the SDK.
 */
import { ProtocolErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';
import type { McpCallResult } from './call-result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type RequestId = string | number;

/** A plain `tools/call` request. */
export interface PlainCall {
  readonly id: RequestId;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** The answer of a call: its result on the wire, or the JSON-RPC error the SDK gives for it. */
export type DirectAnswer =
  | { readonly ok: true; readonly result: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly error: { readonly code: number; readonly message: string } };

// -------------------------------------------------------------------------------------------------
// recognising
// -------------------------------------------------------------------------------------------------

const isRequestId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isSafeInteger(v));

/** A request of `method` with nothing but the envelope's keys and an id the SDK takes: its id and params. */
const requestOf = (m: unknown, method: string): { readonly id: RequestId; readonly params: unknown } | undefined => {
  if (!isRecord(m) || m['method'] !== method || m['jsonrpc'] !== '2.0') return undefined;
  const id = m['id'];
  if (!isRequestId(id)) return undefined;
  for (const k in m) if (k !== 'jsonrpc' && k !== 'id' && k !== 'method' && k !== 'params') return undefined;
  return { id, params: m['params'] };
};

/** The call a message is, when it is a plain `tools/call` request; `undefined` for anything else. */
export const plainCall = (m: unknown): PlainCall | undefined => {
  const r = requestOf(m, 'tools/call');
  const p = r?.params;
  if (r === undefined || !isRecord(p) || typeof p['name'] !== 'string') return undefined;
  for (const k in p) if (k !== 'name' && k !== 'arguments') return undefined;
  const args = p['arguments'];
  if (args !== undefined && !isRecord(args)) return undefined;
  return { id: r.id, name: p['name'], args: args ?? {} };
};

/** A plain `tools/list` request: `params` absent, or holding at most a string `cursor`. */
export interface PlainList {
  readonly id: RequestId;
  readonly cursor: string | undefined;
}

/** The list request a message is, when it is a plain `tools/list`; `undefined` for anything else. */
export const plainList = (m: unknown): PlainList | undefined => {
  const r = requestOf(m, 'tools/list');
  if (r === undefined) return undefined;
  const p = r.params;
  if (p === undefined) return { id: r.id, cursor: undefined };
  if (!isRecord(p)) return undefined;
  for (const k in p) if (k !== 'cursor') return undefined;
  const cursor = p['cursor'];
  return cursor === undefined || typeof cursor === 'string' ? { id: r.id, cursor } : undefined;
};

/** The request a `notifications/cancelled` cancels; `undefined` for any other message. */
export const cancelledRequest = (m: unknown): { readonly id: RequestId; readonly reason: unknown } | undefined => {
  if (!isRecord(m) || m['method'] !== 'notifications/cancelled' || m['jsonrpc'] !== '2.0' || 'id' in m) return undefined;
  const p = m['params'];
  if (!isRecord(p) || !isRequestId(p['requestId'])) return undefined;
  return { id: p['requestId'], reason: p['reason'] };
};

// -------------------------------------------------------------------------------------------------
// answering
// -------------------------------------------------------------------------------------------------

/** The SDK's result schema of `tools/call` (typed there as a Standard Schema; it is a zod schema, whose error text the SDK's message quotes). */
const callToolResultSchema = specTypeSchemas.CallToolResult as unknown as {
  readonly safeParse: (v: unknown) => { readonly success: true; readonly data: unknown } | { readonly success: false; readonly error: unknown };
};

/** A text block with nothing but its type and text: its wire form is `{type, text}`. */
const isBareText = (b: Readonly<Record<string, unknown>>): boolean => {
  if (b['type'] !== 'text' || typeof b['text'] !== 'string') return false;
  for (const k in b) if (k !== 'type' && k !== 'text') return false;
  return true;
};

/**
 * A `tools/call` result as the SDK's `Server` sends it (its result schema parses it: keys in the
 * schema's order, `_meta`, `content`, `structuredContent`, `isError`; blocks as the schema keeps them).
 */
export const wireCallResult = (r: McpCallResult): DirectAnswer => {
  if (r.content.every(isBareText)) {
    const content = r.content.map((b) => ({ type: 'text', text: b['text'] }));
    const result: Record<string, unknown> = {};
    if (r._meta !== undefined) result['_meta'] = r._meta;
    result['content'] = content;
    if (r.structuredContent !== undefined) result['structuredContent'] = r.structuredContent;
    if (r.isError !== undefined) result['isError'] = r.isError;
    return { ok: true, result };
  }
  const parsed = callToolResultSchema.safeParse(r);
  return parsed.success
    ? { ok: true, result: parsed.data as Readonly<Record<string, unknown>> }
    : { ok: false, error: { code: ProtocolErrorCode.InvalidParams, message: `Invalid tools/call result: ${String(parsed.error)}` } };
};

/** The JSON-RPC response of an answer, keys in the order of the SDK's `Protocol`. */
export const responseOf = (id: RequestId, answer: DirectAnswer): Readonly<Record<string, unknown>> =>
  answer.ok ? { result: answer.result, jsonrpc: '2.0', id } : { jsonrpc: '2.0', id, error: answer.error };

/** The JSON-RPC response of a call whose run failed unexpectedly (the SDK's answer to a handler that throws). */
export const internalErrorOf = (id: RequestId, e: unknown): Readonly<Record<string, unknown>> => ({
  jsonrpc: '2.0',
  id,
  error: { code: ProtocolErrorCode.InternalError, message: e instanceof Error && e.message !== undefined ? e.message : 'Internal error' },
});

/** A direct call's cancellation: the signal is made on first need; a cancellation before that still aborts it. */
export class CallCancellation {
  private controller: AbortController | undefined;
  private done = false;
  readonly signalOf = (): AbortSignal => {
    this.controller ??= new AbortController();
    return this.controller.signal;
  };
  /** Aborts the call's signal (with the reason the client gave); its answer is then not sent, as the SDK does. */
  cancel(reason: unknown): void {
    this.done = true;
    this.controller ??= new AbortController();
    this.controller.abort(reason);
  }
  get cancelled(): boolean {
    return this.done;
  }
}
