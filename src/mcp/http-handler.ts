/**
 * Serving a tool source over Streamable HTTP, stateless: every request gets a fresh SDK server
 * from the factory (no session lives in memory, so any instance behind a load balancer can answer),
 * through the SDK's `createMcpHandler`, which serves 2026-07-28 clients and 2025-era ones.
 *
 * The handler is web-standard (`fetch(Request) → Response`: Hono, Fastify through its adapters,
 * Workers) and has a `node(req, res)` face for `node:http`. DNS-rebinding protection is on: the
 * `Host` header must name an allowed host and a browser's `Origin` an allowed origin (localhost
 * by default). Mount it at any path: it answers every request it is given.
 *
 * When the source changes, clients listening on a 2026-07-28 `subscriptions/listen` stream get
 * `notifications/tools/list_changed`. Stateless 2025-era HTTP has no stream to send it on (its GET
 * is refused); such clients see the change on their next `tools/list`.
 *
 * A plain 2025-era `tools/call` of a known tool (http-direct.ts) is answered without the SDK, through
 * the same invoker, with the bytes the SDK would send; the client going away aborts its signal.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import { internalErrorOf, responseOf } from './direct-path.js';
import {
  closedSignal,
  directRequestOf,
  eventStreamAnswer,
  type HeaderOf,
  mayBeDirect,
  nodeHeaders,
  readBody,
  readNodeBody,
  withBody,
  writeEventStreamAnswer,
} from './http-direct.js';
import { handleNodeRequest } from './node-http.js';
import { type McpServeOptions, mcpServing } from './server.js';
import type { McpToolSource } from './tool-source.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpHttpOptions extends McpServeOptions {
  /**
   * Host names (no port; IPv6 in brackets) the `Host` header may name: the defence against DNS
   * rebinding. Default: localhost names (`localhost`, `127.0.0.1`, `[::1]`). `'any'` turns the check
   * off (a deployment behind a proxy that checks hosts itself).
   */
  readonly allowedHosts?: ReadonlyArray<string> | 'any';
  /** Origin host names a browser request may come from. Default: localhost names; `'any'` turns the check off. */
  readonly allowedOrigins?: ReadonlyArray<string> | 'any';
  /** Out-of-band errors and rejected requests: reporting only, never changes a response. */
  readonly onError?: (error: Error) => void;
}

export interface McpHttpHandler {
  /**
   * Serves one HTTP request (any method; mount it at the MCP endpoint's path). `caller`: who the
   * request comes from, as the service authenticated it (its scopes reach the source's `call`).
   */
  readonly fetch: (request: Request, caller?: McpCaller) => Promise<Response>;
  /** The same for `node:http` (and frameworks that give Node's request and response). */
  readonly node: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Stops notifying, aborts requests in flight and closes their servers. */
  readonly close: () => Promise<void>;
}

/** The caller of a request, as the service that mounts the handler knows it. */
export interface McpCaller {
  readonly scopes: ReadonlySet<string>;
}

const forbidden = (message: string): Response =>
  new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }), {
    status: 403,
    headers: { 'content-type': 'application/json' },
  });

// -------------------------------------------------------------------------------------------------
// the handler
// -------------------------------------------------------------------------------------------------

export const createMcpHttpHandler = (source: McpToolSource, options: McpHttpOptions = {}): McpHttpHandler => httpHandlerWith(source, options, true);

/** `createMcpHttpHandler`, with the direct path on or off. Internal: off only to compare both paths (test/mcp/direct-path.test.ts). */
export const httpHandlerWith = (source: McpToolSource, options: McpHttpOptions, direct: boolean): McpHttpHandler => {
  const serving = mcpServing(source, options);
  const handler = createMcpHandler(() => serving.create(), {
    legacy: 'stateless',
    ...(options.onError !== undefined ? { onerror: options.onError } : {}),
  });
  const hosts = options.allowedHosts === 'any' ? undefined : [...(options.allowedHosts ?? localhostAllowedHostnames())];
  const origins = options.allowedOrigins === 'any' ? undefined : [...(options.allowedOrigins ?? localhostAllowedOrigins())];
  const unsubscribe = source.subscribe?.(() => handler.notify.toolsChanged());
  let closed = false;
  /** The SDK's answer, with the caller's scopes (the SDK hands authInfo to request handlers as ctx.http.authInfo). */
  const sdkOf = (caller: McpCaller | undefined) => (r: Request) =>
    handler.fetch(r, caller !== undefined ? { authInfo: { token: '', clientId: '', scopes: [...caller.scopes] } } : undefined);
  /** The JSON-RPC response of a direct call or list, or `undefined` when the SDK answers the body. */
  const directAnswer = (h: HeaderOf, text: string, signalOf: () => AbortSignal, caller: McpCaller | undefined): Promise<unknown> | undefined => {
    const request = directRequestOf(h, text);
    if (request === undefined) return undefined;
    if ('list' in request) {
      const result = serving.list(request.list.cursor);
      return result === undefined ? undefined : Promise.resolve(responseOf(request.list.id, { ok: true, result }));
    }
    const { call } = request;
    const answer = serving.call({ name: call.name, args: call.args, signalOf, ...(caller !== undefined ? { scopes: [...caller.scopes] } : {}) });
    return answer?.then(
      (a) => responseOf(call.id, a),
      (e: unknown) => internalErrorOf(call.id, e),
    );
  };
  const fetch = async (request: Request, caller?: McpCaller): Promise<Response> => {
    if (hosts !== undefined) {
      // a Request made in code may have no Host header: its URL names the host then
      const host = validateHostHeader(request.headers.get('host') ?? new URL(request.url).host, hosts);
      if (!host.ok) return forbidden(host.message);
    }
    const refused = origins !== undefined ? originValidationResponse(request, origins) : undefined;
    if (refused !== undefined) return refused;
    const sdk = sdkOf(caller);
    const h: HeaderOf = (name) => request.headers.get(name);
    if (!direct || closed || !mayBeDirect(request.method, h)) return sdk(request);
    const body = await readBody(request);
    if (!body.ok) return body.answer;
    const answer = directAnswer(h, body.text, () => request.signal, caller);
    return answer === undefined ? sdk(withBody(request, body.text)) : eventStreamAnswer(await answer);
  };
  /** Whether Node's request passes the checks `fetch` makes, and makes the URL `toWebRequest` makes (else `fetch` answers it). */
  const passes = (req: IncomingMessage, h: HeaderOf): boolean => {
    const host = h('host') ?? 'localhost';
    if (!URL.canParse(req.url ?? '/', `http://${host}`)) return false;
    return (hosts === undefined || validateHostHeader(host, hosts).ok) && (origins === undefined || validateOriginHeader(h('origin'), origins).ok);
  };
  const node = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const h = nodeHeaders(req);
    if (!direct || closed || !mayBeDirect(req.method, h) || !passes(req, h)) return handleNodeRequest((r) => fetch(r), req, res);
    const body = await readNodeBody(req);
    if (!body.ok) return handleNodeRequest(() => Promise.resolve(body.answer), req, res, '');
    const answer = directAnswer(h, body.text, () => closedSignal(res), undefined);
    if (answer === undefined) return handleNodeRequest(sdkOf(undefined), req, res, body.text);
    writeEventStreamAnswer(res, await answer);
  };
  return Object.freeze({
    fetch,
    node,
    close: async () => {
      closed = true;
      unsubscribe?.();
      await handler.close();
    },
  });
};
