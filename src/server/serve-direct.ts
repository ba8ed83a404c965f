/**
 * The direct path of `gramkit serve`: the invoke routes (`POST /api/v1/tools/{id}/invoke` and
 * `POST /tools/bundles/{bundleID}/tools/{toolSlug}/version/{v}/invoke`) answered straight from
 * `node:http`, before Hono's adapter makes a web-standard `Request` and `Response` of them.
 *
 * It is a path, not a second service: the route is served by the service's one `serveRoute` (the
 * host allow-list, the token and its scopes, the origin, the content type, the body's size and JSON,
 * the identifying headers, the body's schema, then the handler), reading the request through the
 * same view (request-view.ts), and the answer is the same text with the same headers. It only takes
 * the requests whose meaning needs no normalising, where Hono would see the very same URL and
 * parameters:
 *
 * - `POST`, with a `Host` header Hono's adapter uses as it is (lower-case name, optional port), and a
 *   declared `Content-Length` (no chunked body);
 * - a path that matches the route exactly, each parameter of unreserved characters only (letters,
 *   digits, `-`, `.`, `_`, `~`; never `.` or `..`), no `%`, no query, no trailing slash.
 *
 * Every other request (another method: 405 with Allow; an encoded or dotted path; a query; a host
 * Hono normalises) goes to Hono, which answers it as before. test/server/direct-path.test.ts checks,
 * on random requests, that both paths give the same status, body and headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from './problem.js';
import type { RouteSpec } from './route.js';
import { nodeView, type RequestView } from './request-view.js';

/** A route's answer: text for the wire, or a ready response (a stream). */
export type Rendered = { readonly answer: Answer } | { readonly response: Response };

/** Answers a request when it is one of the direct path's (`true`), else leaves it to Hono (`false`). */
export type DirectHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/** A host `@hono/node-server` puts in the URL unchanged (its own test, `reValidHost`). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

/** A path parameter that no decoding or dot-segment rule changes. */
const PLAIN_SEGMENT = '((?!\\.\\.?(?:/|$))[A-Za-z0-9._~-]+)';

interface DirectRoute {
  readonly route: RouteSpec;
  readonly pattern: RegExp;
  readonly names: ReadonlyArray<string>;
}

const compile = (route: RouteSpec): DirectRoute => {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return PLAIN_SEGMENT;
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), names };
};

/** Writes an answer (or a ready response) on Node's response. */
const write = async (res: ServerResponse, r: Rendered): Promise<void> => {
  if ('answer' in r) {
    res.writeHead(r.answer.status, { ...r.answer.headers, 'content-length': Buffer.byteLength(r.answer.body) });
    res.end(r.answer.body);
    return;
  }
  const body = Buffer.from(await r.response.arrayBuffer());
  res.writeHead(r.response.status, { ...Object.fromEntries(r.response.headers), 'content-length': body.byteLength });
  res.end(body);
};

/** The direct path over some routes; `serve` is the service's one way of serving a route. */
export const directHandler = (
  routes: ReadonlyArray<RouteSpec>,
  serve: (route: RouteSpec, request: RequestView, params: Readonly<Record<string, string>>) => Promise<Rendered>,
): DirectHandler => {
  const table = routes.filter((r) => r.method === 'post').map(compile);
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const host = req.headers.host;
    const target = req.url ?? '';
    if (host === undefined || !PLAIN_HOST.test(host) || req.headers['content-length'] === undefined || req.headers['transfer-encoding'] !== undefined) {
      return false;
    }
    for (const d of table) {
      const m = d.pattern.exec(target);
      if (m === null) continue;
      const params: Record<string, string> = {};
      for (const [i, name] of d.names.entries()) params[name] = m[i + 1] as string;
      void serve(d.route, nodeView(req, res, `http://${host}${target}`), params)
        .then((r) => write(res, r))
        .catch(() => res.destroy());
      return true;
    }
    return false;
  };
};
