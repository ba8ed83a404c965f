/**
 * The tool service as a web-standard handler: `createService({catalog, …}).fetch(request)` answers
 * the catalog routes (under `/tools`), the registry routes (under `/api/v1`), `/healthz`,
 * `/openapi.json` and the events stream, with problem+json errors. `startServer` (serve.ts) puts it
 * on a socket; tests call `fetch` directly.
 *
 * Every request goes through the same checks, in order: the `Host` header (a local server refuses
 * other host names: DNS rebinding), the bearer token (when the server has one), the scope (when the
 * server requires scopes), the query, the identifying headers, the body (JSON only, capped while it
 * streams, validated against the route's schema by gramkit's validator: nothing coerced or
 * dropped). Handlers never see bad input, and whatever a handler throws is a 500 problem, never a
 * crash.
 *
 * Routing is Hono (2 packages, no dependencies, web-standard handlers); its type stays inside:
 * extra handlers (MCP at `/mcp`, the admin page at `/ui`) are mounted with `mounts`, as web-standard
 * `(request) => Response` functions, and get the same host and token checks.
 */
import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { Catalog } from '../catalog/catalog.js';
import type { JsonObject } from '../core/json-schema.js';
import { compileSchema, type CompiledSchema } from '../spec/validate.js';
import { ServiceCodes } from './codes.js';
import { openApiDocument } from './openapi.js';
import { problem, problemResponse } from './problem.js';
import { readIdHeader, readJsonBody, readQuery, readScopes } from './request.js';
import { missingScope } from './scopes.js';
import { json, type Reply, type RouteSpec } from './route.js';
import { catalogRoutes } from './routes-catalog.js';
import { eventsRoute } from './routes-events.js';
import { healthRoute, registryRoutes } from './routes-registry.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** A web-standard handler: what `fetch` takes and gives. */
/** A mounted handler: the request, and its caller when the service knows one (`--require-scopes`: the caller's scopes). */
export type FetchHandler = (request: Request, caller?: Caller) => Response | Promise<Response>;

/** Who a request comes from, as the service authenticated it. */
export interface Caller {
  readonly scopes: ReadonlySet<string>;
}

export interface Mount {
  /** A path prefix, e.g. `/mcp`: the handler answers it and everything below it. */
  readonly path: string;
  readonly handler: FetchHandler;
  /** Open without the token (default false). */
  readonly public?: boolean;
}

export interface ServiceOptions {
  readonly catalog: Catalog;
  /** Requests must carry `Authorization: Bearer <token>` (all but `/healthz`). */
  readonly token?: string;
  /** Enforce the callers' `X-Caller-Scopes`: `read_registry`, `invoke_tool`, `write_registry`. */
  readonly requireScopes?: boolean;
  /** `loopback`: only `Host: localhost|127.0.0.1|[::1]` (a server on 127.0.0.1); `any`: no check. Default `loopback`. */
  readonly hostHeaders?: 'loopback' | 'any';
  /** Largest body accepted, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  readonly version?: string;
  /** Which built-ins `POST /api/v1/tools/discover` may register (e.g. `shell` only with a sandbox). */
  readonly discoverUsable?: (builtin: string) => boolean;
  readonly mounts?: ReadonlyArray<Mount>;
}

export interface Service {
  readonly fetch: (request: Request) => Promise<Response>;
  readonly routes: ReadonlyArray<RouteSpec>;
  readonly openapi: JsonObject;
  readonly catalog: Catalog;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

// -------------------------------------------------------------------------------------------------
// responses
// -------------------------------------------------------------------------------------------------

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const render = (r: Reply): Response => {
  switch (r.kind) {
    case 'json':
      return new Response(JSON.stringify(r.body), { status: r.status, headers: { ...JSON_HEADERS, ...(r.headers ?? {}) } });
    case 'text':
      return new Response(r.body, { status: r.status, headers: { 'content-type': r.contentType } });
    case 'problem':
      return problemResponse(r.problem);
    case 'response':
      return r.response;
  }
};

// -------------------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------------------

const hostAllowed = (request: Request, rule: 'loopback' | 'any'): boolean => {
  if (rule === 'any') return true;
  const host = request.headers.get('host');
  if (host === null) return true;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
  return LOOPBACK_NAMES.has(name.toLowerCase());
};

const tokenMatches = (request: Request, token: string): boolean => {
  const header = request.headers.get('authorization') ?? '';
  const m = /^Bearer\s+(.+)$/i.exec(header);
  if (m === null) return false;
  const given = Buffer.from((m[1] as string).trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/** Host and token: the checks every request passes, mounted handlers included. */
const gatekeeper = (options: ServiceOptions) => (request: Request, isPublic: boolean): Response | undefined => {
  if (!hostAllowed(request, options.hostHeaders ?? 'loopback')) {
    return problemResponse(problem(ServiceCodes.FORBIDDEN_HOST, `this server answers requests for localhost only, not for ${JSON.stringify(request.headers.get('host'))}`));
  }
  if (!isPublic && options.token !== undefined && !tokenMatches(request, options.token)) {
    return problemResponse(problem(ServiceCodes.UNAUTHORIZED, 'this server needs Authorization: Bearer <token>'), { 'www-authenticate': 'Bearer' });
  }
  return undefined;
};

// -------------------------------------------------------------------------------------------------
// the service
// -------------------------------------------------------------------------------------------------

export const createService = (options: ServiceOptions): Service => {
  const version = options.version ?? '0';
  const limit = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
  const routes: ReadonlyArray<RouteSpec> = [
    healthRoute(version),
    ...catalogRoutes,
    ...registryRoutes(options.discoverUsable !== undefined ? { usable: options.discoverUsable } : {}),
    eventsRoute,
  ];
  const openapi = openApiDocument(
    [
      ...routes,
      {
        method: 'get',
        path: '/openapi.json',
        operationId: 'openapi',
        summary: 'This document',
        tag: 'service',
        public: true,
        responses: { 200: { description: 'OpenAPI 3.1', schema: { type: 'object' } } },
        handler: async () => json(200, {}),
      },
    ],
    { version, secured: options.token !== undefined },
  );
  const check = gatekeeper(options);
  const validators = new Map<RouteSpec, CompiledSchema>();
  for (const r of routes) {
    if (r.body === undefined) continue;
    const compiled = compileSchema(r.body.schema);
    if (compiled._tag === 'Left') throw new Error(`the body schema of ${r.operationId} does not compile: ${compiled.left.message}`);
    validators.set(r, compiled.right);
  }

  const handle = async (route: RouteSpec, request: Request, params: Readonly<Record<string, string>>): Promise<Response> => {
    const refused = check(request, route.public === true);
    if (refused !== undefined) return refused;
    const missing = options.requireScopes === true && route.scope !== undefined ? missingScope(readScopes(request), route.scope) : undefined;
    if (missing !== undefined) return problemResponse(problem(missing.code, missing.message, { scope: missing.scope }));
    const query = route.query === undefined ? ({ ok: true, value: {} } as const) : readQuery(new URL(request.url), route.query);
    if (!query.ok) return problemResponse(query.problem);
    let agentId: string | undefined;
    let projectId: string | undefined;
    if (route.agentHeaders === true) {
      const a = readIdHeader(request, 'x-agent-id');
      if (!a.ok) return problemResponse(a.problem);
      const p = readIdHeader(request, 'x-project-id');
      if (!p.ok) return problemResponse(p.problem);
      agentId = a.value;
      projectId = p.value;
    }
    let body: unknown;
    if (route.body !== undefined) {
      const read = await readJsonBody(request, limit);
      if (!read.ok) return problemResponse(read.problem);
      body = read.value;
      if (body === undefined && route.body.required) return problemResponse(problem(ServiceCodes.INVALID_REQUEST, `this route needs a JSON body: ${route.body.description}`));
      const v = validators.get(route);
      if (body !== undefined && v !== undefined && !v.check(body)) {
        const issues = v.issues(body);
        return problemResponse(problem(ServiceCodes.INVALID_REQUEST, `the body does not fit: ${issues.map((i) => i.message).join('; ')}`, { issues }));
      }
    }
    const reply = await route.handler({
      catalog: options.catalog,
      params,
      query: query.value,
      body,
      ...(agentId !== undefined ? { agentId } : {}),
      ...(projectId !== undefined ? { projectId } : {}),
      // built on first use (creating it costs the server an AbortController per request)
      get signal() {
        return request.signal;
      },
    });
    return render(reply);
  };

  const app = new Hono();
  const byPath = new Map<string, RouteSpec[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, list] of byPath) {
    for (const r of list) app.on(r.method.toUpperCase(), path, (c) => handle(r, c.req.raw, c.req.param() as Record<string, string>));
    const allow = [...list.map((r) => r.method.toUpperCase()), ...(list.some((r) => r.method === 'get') ? ['HEAD'] : [])].join(', ');
    app.all(path, (c) => {
      const refused = check(c.req.raw, false);
      if (refused !== undefined) return refused;
      return problemResponse(problem(ServiceCodes.METHOD_NOT_ALLOWED, `${c.req.method} is not allowed on ${path.replace(/:([A-Za-z]+)/g, '{$1}')}; allowed: ${allow}`), { allow });
    });
  }
  app.get('/openapi.json', (c) => check(c.req.raw, true) ?? new Response(JSON.stringify(openapi), { headers: JSON_HEADERS }));
  for (const m of options.mounts ?? []) {
    const prefix = m.path.replace(/\/+$/, '');
    // the mount's calls check the caller's scopes with the same step (server/scopes.ts)
    const run = async (request: Request): Promise<Response> =>
      check(request, m.public === true) ?? (await m.handler(request, options.requireScopes === true ? { scopes: readScopes(request) } : undefined));
    app.all(prefix, (c) => run(c.req.raw));
    app.all(`${prefix}/*`, (c) => run(c.req.raw));
  }
  app.notFound((c) => check(c.req.raw, false) ?? problemResponse(problem(ServiceCodes.NOT_FOUND, `no route ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}; see /openapi.json`)));
  app.onError((e) => problemResponse(problem(ServiceCodes.INTERNAL, `the request could not be answered: ${e instanceof Error ? e.message : String(e)}`)));

  return {
    fetch: async (request) => {
      try {
        return await app.fetch(request);
      } catch (e) {
        return problemResponse(problem(ServiceCodes.INTERNAL, `the request could not be answered: ${e instanceof Error ? e.message : String(e)}`));
      }
    },
    routes,
    openapi,
    catalog: options.catalog,
  };
};
