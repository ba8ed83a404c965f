/**
 * The direct path of `tools/call` over Streamable HTTP (direct-path.ts; http-handler.ts uses it).
 * A POST the SDK's stateless 2025-era serving would take (a declared length within the SDK's limit,
 * a JSON `Content-Type`, an `Accept` of JSON and event streams, a 2025-era `MCP-Protocol-Version`
 * or none) whose body is a plain `tools/call` or `tools/list`, classified 2025-era by the SDK's own classifier, is
 * answered with what the SDK writes for it: status 200, its event-stream headers, one `message`
 * event holding the response. Any other request goes to the SDK: untouched when its body was not
 * read, else a copy carrying the body that was read.
 *
 * Both faces of the handler take the path: `fetch` reads a web `Request`, `node` reads Node's
 * request as it is (no web `Request`, stream or `Response` made for a direct call).
 */
import {
  classifyInboundRequest,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  readRequestBody,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type PlainCall, type PlainList, plainCall, plainList } from './direct-path.js';

/** The headers of the SDK's event-stream answer to a POST. */
const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

/** The SDK's JSON-RPC error answers (`jsonrpc`, `error`, `id` in its order). */
const errorAnswer = (status: number, code: number, message: string): Response =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/** A request's header by its lower-case name (as `Headers.get` gives it: several values joined), `null` when absent. */
export type HeaderOf = (name: string) => string | null;

/** The headers of Node's request, as the web `Request` made of it (node-http.ts) has them. */
export const nodeHeaders =
  (req: IncomingMessage): HeaderOf =>
  (name) => {
    const v = req.headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };

/** Whether a request may be a direct call, by its method and headers (its body not read yet). */
export const mayBeDirect = (method: string | undefined, h: HeaderOf): boolean => {
  if (method !== 'POST') return false;
  const length = h('content-length');
  if (length === null || !(Number(length) <= DEFAULT_MAX_REQUEST_BODY_SIZE)) return false;
  if (!isJsonContentType(h('content-type'))) return false;
  const accept = h('accept');
  if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = h('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
};

/** What reading the body of a `mayBeDirect` request gave: its text, or the SDK's answer to a body it cannot read. */
export type ReadBody = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly answer: Response };

/** The SDK's answer to a body that fails to arrive. */
const unreadable = (): ReadBody => ({ ok: false, answer: errorAnswer(400, -32700, 'Parse error: the request body could not be read') });

/** Reads the body of Node's request as `readBody` reads the web one (its length was declared and Node holds the request to it). */
export const readNodeBody = (req: IncomingMessage): Promise<ReadBody> =>
  new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.once('end', () => resolve({ ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) }));
    req.once('error', () => resolve(unreadable()));
    req.once('aborted', () => resolve(unreadable()));
  });

/** Reads the body as the SDK does (its limit; its answers to a body over it or that fails to arrive). */
export const readBody = async (request: Request): Promise<ReadBody> => {
  try {
    const read = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (read.tooLarge)
      return { ok: false, answer: errorAnswer(413, -32000, `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`) };
    return { ok: true, text: read.text };
  } catch {
    return unreadable();
  }
};

/** A direct request: a plain call or a plain list. */
export type DirectRequest = { readonly call: PlainCall } | { readonly list: PlainList };

/** The plain call or list a body is, when the SDK would serve it as a 2025-era request; `undefined` otherwise. */
export const directRequestOf = (h: HeaderOf, text: string): DirectRequest | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const call = plainCall(body);
  const list = call === undefined ? plainList(body) : undefined;
  if (call === undefined && list === undefined) return undefined;
  const version = h('mcp-protocol-version');
  const method = h('mcp-method');
  const name = h('mcp-name');
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    ...(version !== null ? { protocolVersionHeader: version } : {}),
    ...(method !== null ? { mcpMethodHeader: method } : {}),
    ...(name !== null ? { mcpNameHeader: name } : {}),
    body,
  });
  if (route.kind !== 'legacy') return undefined;
  return call !== undefined ? { call } : list !== undefined ? { list } : undefined;
};

/** The request with the body already read, for the SDK. */
export const withBody = (request: Request, text: string): Request =>
  new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal });

const eventOf = (response: unknown): string => `event: message\ndata: ${JSON.stringify(response)}\n\n`;

/** The SDK's answer to a request: one `message` event holding the JSON-RPC response. */
export const eventStreamAnswer = (response: unknown): Response => new Response(eventOf(response), { status: 200, headers: SSE_HEADERS });

/** `SSE_HEADERS` as node-http.ts writes a `Response`'s headers (as `Headers` iterates them: names in lower case, sorted). */
const NODE_SSE_HEADERS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SSE_HEADERS)
    .map(([k, v]) => [k.toLowerCase(), v] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);

/** The same answer written to Node's response, as node-http.ts writes the `Response`. */
export const writeEventStreamAnswer = (res: ServerResponse, response: unknown): void => {
  res.writeHead(200, '', NODE_SSE_HEADERS);
  res.end(eventOf(response));
};

/** A signal that aborts when Node's response closes before it was written (the client went away). */
export const closedSignal = (res: ServerResponse): AbortSignal => {
  const c = new AbortController();
  if (res.closed) {
    if (!res.writableFinished) c.abort();
  } else
    res.once('close', () => {
      if (!res.writableFinished) c.abort();
    });
  return c.signal;
};
