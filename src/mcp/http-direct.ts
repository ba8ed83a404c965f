/**
 * The direct path of `tools/call` over Streamable HTTP (direct-path.ts; http-handler.ts uses it).
 * A POST the SDK's stateless 2025-era serving would take (a declared length within the SDK's limit,
 * a JSON `Content-Type`, an `Accept` of JSON and event streams, a 2025-era `MCP-Protocol-Version`
 * or none) whose body is a plain `tools/call`, classified 2025-era by the SDK's own classifier, is
 * answered with what the SDK writes for it: status 200, its event-stream headers, one `message`
 * event holding the response. Any other request goes to the SDK: untouched when its body was not
 * read, else a copy carrying the body that was read.
 */
import {
  classifyInboundRequest,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isJsonContentType,
  readRequestBody,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/server';
import { type PlainCall, plainCall } from './direct-path.js';

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

/** Whether a request may be a direct call, by its method and headers (its body not read yet). */
export const mayBeDirect = (request: Request): boolean => {
  if (request.method !== 'POST') return false;
  const h = request.headers;
  const length = h.get('content-length');
  if (length === null || !(Number(length) <= DEFAULT_MAX_REQUEST_BODY_SIZE)) return false;
  if (!isJsonContentType(h.get('content-type'))) return false;
  const accept = h.get('accept');
  if (accept === null || !accept.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const version = h.get('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
};

/** What reading the body of a `mayBeDirect` request gave: its text, or the SDK's answer to a body it cannot read. */
export type ReadBody = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly answer: Response };

/** Reads the body as the SDK does (its limit; its answers to a body over it or that fails to arrive). */
export const readBody = async (request: Request): Promise<ReadBody> => {
  try {
    const read = await readRequestBody(request, DEFAULT_MAX_REQUEST_BODY_SIZE);
    if (read.tooLarge)
      return { ok: false, answer: errorAnswer(413, -32000, `Payload Too Large: Request body must not exceed ${DEFAULT_MAX_REQUEST_BODY_SIZE} bytes`) };
    return { ok: true, text: read.text };
  } catch {
    return { ok: false, answer: errorAnswer(400, -32700, 'Parse error: the request body could not be read') };
  }
};

/** The plain call a body is, when the SDK would serve it as a 2025-era request; `undefined` otherwise. */
export const directCallOf = (request: Request, text: string): PlainCall | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const call = plainCall(body);
  if (call === undefined) return undefined;
  const h = request.headers;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    ...(h.get('mcp-protocol-version') !== null ? { protocolVersionHeader: h.get('mcp-protocol-version') as string } : {}),
    ...(h.get('mcp-method') !== null ? { mcpMethodHeader: h.get('mcp-method') as string } : {}),
    ...(h.get('mcp-name') !== null ? { mcpNameHeader: h.get('mcp-name') as string } : {}),
    body,
  });
  return route.kind === 'legacy' ? call : undefined;
};

/** The request with the body already read, for the SDK. */
export const withBody = (request: Request, text: string): Request =>
  new Request(request.url, { method: request.method, headers: request.headers, body: text, signal: request.signal });

/** The SDK's answer to a request: one `message` event holding the JSON-RPC response. */
export const eventStreamAnswer = (response: unknown): Response =>
  new Response(`event: message\ndata: ${JSON.stringify(response)}\n\n`, { status: 200, headers: SSE_HEADERS });
