/**
 * The tool service as a web-standard handler: `createService({catalog, …}).fetch(request)` answers
 * the catalog routes (under `/tools`), the registry routes (under `/api/v1`), the experiments of a
 * directory (`experiments`, under `/api/v1/experiments`), `/healthz`,
 * `/openapi.json` and the events stream, with problem+json errors. `startServer` (serve.ts) puts it
 * on a socket; tests call `fetch` directly.
 *
 * Every request goes through the same checks, in order: the `Host` header (a local server refuses
 * other host names: DNS rebinding), the bearer token (when the server has tokens: the token names
 * the caller and grants its scopes), the request's origin (a state-changing request without a
 * token must come from no browser or from this server's own pages, and a POST, PUT or PATCH must
 * declare JSON even when its body is empty: cross-site request forgery), the scope (always with
 * tokens; with `requireScopes` and no tokens, the scopes `X-Caller-Scopes` claims), the query, the
 * identifying headers, the body (JSON only, capped while it streams, validated against the route's
 * schema by gramkit's validator: nothing coerced or dropped). Handlers never see bad input, and
 * whatever a handler throws is a 500 problem, never a crash.
 *
 * Routing is Hono (2 packages, no dependencies, web-standard handlers); its type stays inside:
 * extra handlers (MCP at `/mcp`, the admin page at `/ui`) are mounted with `mounts`, as web-standard
 * `(request) => Response` functions, and get the same host and token checks.
 */
import { Hono } from 'hono';
import type { Catalog } from '../catalog/catalog.js';
import type { JsonObject } from '../core/json-schema.js';
import type { ApprovalQueue } from '../policy/approval-queue.js';
import { compileSchema, type CompiledSchema } from '../schema/validate.js';
import { ServiceCodes } from './codes.js';
import { MemoRouter } from './route-memo.js';
import { openApiDocument } from './openapi.js';
import { type Answer, answerResponse, problem, problemAnswer, problemResponse } from './problem.js';
import { claimedScopes, type Credential, credentialOf, grantScopes } from './caller.js';
import { isJsonType, queryPatterns, readIdHeader, readJsonBody, readQuery, readScopes, readStreamedBody } from './request.js';
import { type RequestView, webView } from './request-view.js';
import { type DirectHandler, directHandler, type Rendered } from './serve-direct.js';
import { missingScope } from './scopes.js';
import { json, type Reply, type RequestContext, type RouteSpec } from './route.js';
import type { RequestPrograms } from '../catalog/program-guard.js';
import { catalogRoutes } from './routes-catalog.js';
import { approvalRoutes } from './routes-approvals.js';
import { experimentRoutes } from './routes-experiments.js';
import { eventsRoute } from './routes-events.js';
import { healthRoute, monitorRoutes, registryRoutes } from './routes-registry.js';
import { isLeft } from '../core/either.js';

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
  /**
   * The tokens the server accepts: requests must carry `Authorization: Bearer <token>` (all but
   * the public ones: `/healthz`, `/openapi.json`, the admin page's files), and a caller's scopes
   * are its token's. None (the default): no authentication, every caller is trusted.
   */
  readonly tokens?: ReadonlyArray<Credential>;
  /** Without tokens: enforce the scopes `X-Caller-Scopes` claims (tests; not a boundary). With tokens, scopes are always enforced. */
  readonly requireScopes?: boolean;
  /** Let requests register command tools that run in the sandbox (never `sandbox: "none"`). Default false: requests register no command tool. */
  readonly allowCommandTools?: boolean;
  /** `loopback`: only `Host: localhost|127.x.x.x|[::1]` (a server on a loopback address); `any`: no check. Default `loopback`. */
  readonly hostHeaders?: 'loopback' | 'any';
  /** Largest body accepted, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  readonly version?: string;
  /** Which built-ins `POST /api/v1/tools/discover` may register (e.g. `shell` only with a sandbox). */
  readonly discoverUsable?: (builtin: string) => boolean;
  readonly mounts?: ReadonlyArray<Mount>;
  /**
   * Calls that need approval wait here until a person decides (`/api/v1/approvals`, the admin
   * page); invocations name their caller to it. Without one, the catalog's approver answers.
   */
  readonly approvals?: ApprovalQueue;
  /** The most bytes an events subscriber may have waiting before it is dropped (default 4 MiB). */
  readonly eventBufferBytes?: number;
  /**
   * A directory of experiments' results files (`gramkit ab --out NAME.jsonl`): their reports under
   * `/api/v1/experiments` (list, JSON report, the HTML page). Without it, the list is empty and
   * says so (`enabled: false`).
   */
  readonly experiments?: string;
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

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

const render = (r: Reply): Rendered => {
  switch (r.kind) {
    case 'json':
      return {
        answer: { status: r.status, headers: r.headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...r.headers }, body: JSON.stringify(r.body) },
      };
    case 'text':
      return { answer: { status: r.status, headers: { 'content-type': r.contentType }, body: r.body } };
    case 'problem':
      return { answer: problemAnswer(r.problem) };
    case 'response':
      return { response: r.response };
  }
};

const asResponse = (r: Rendered): Response => ('answer' in r ? answerResponse(r.answer) : r.response);

/** What a request that threw is answered (500; the request is never left hanging, the server never crashes). */
const internalProblem = (e: unknown): Answer =>
  problemAnswer(problem(ServiceCodes.INTERNAL, `the request could not be answered: ${e instanceof Error ? e.message : String(e)}`));

/**
 * What a handler is given. A class, not an object literal: a literal with a getter (the signal,
 * built on first use: creating it costs an AbortController per request) is built by the runtime,
 * not by optimized code, and made a request through the invoke route cost about 15 µs more of the
 * server's CPU (bench/server.bench.ts). One shape for every request: an absent id is undefined.
 */
class RouteContext implements RequestContext {
  constructor(
    readonly catalog: Catalog,
    readonly params: Readonly<Record<string, string>>,
    readonly query: RequestContext['query'],
    readonly body: unknown,
    readonly programs: RequestPrograms,
    readonly agentId: string | undefined,
    readonly projectId: string | undefined,
    readonly approvals: ApprovalQueue | undefined,
    private readonly request: RequestView,
  ) {}

  /** Aborted when the client goes away (made on first use). */
  get signal(): AbortSignal {
    return this.request.signal;
  }
}

// -------------------------------------------------------------------------------------------------
// checks
// -------------------------------------------------------------------------------------------------

const hostAllowed = (request: RequestView, rule: 'loopback' | 'any'): boolean => {
  if (rule === 'any') return true;
  const host = request.header('host');
  if (host === null) return true;
  const colon = host.indexOf(':');
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : colon < 0 ? host : host.slice(0, colon);
  // any address of 127.0.0.0/8 (a server may listen on 127.0.0.2): a literal address is no DNS name to rebind
  return LOOPBACK_NAMES.has(name.toLowerCase()) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** Whether an `Origin` names this server (the host the request was sent to). */
const sameOrigin = (request: RequestView, origin: string): boolean => {
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  const host = (request.header('host') ?? new URL(request.url).host).toLowerCase();
  return (o.protocol === 'http:' || o.protocol === 'https:') && o.host.toLowerCase() === host;
};

/**
 * A state-changing request without a token (cross-site request forgery): a browser sends `Origin`
 * with it, which must be this server's; and a POST, PUT or PATCH declares JSON (a type a page of
 * another origin cannot send without the preflight this server never grants), empty body or not.
 */
const forgeryProblem = (request: RequestView): Answer | undefined => {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const origin = request.header('origin');
  if (origin !== null && !sameOrigin(request, origin)) {
    return problemAnswer(
      problem(
        ServiceCodes.CROSS_ORIGIN,
        `a ${request.method} from the origin ${JSON.stringify(origin.slice(0, 100))} is refused: only this server's own pages (or clients that send no Origin) may change or run anything without a token`,
      ),
    );
  }
  if (BODY_METHODS.has(request.method) && !isJsonType(request.header('content-type') ?? '')) {
    const given = request.header('content-type');
    return problemAnswer(
      problem(
        ServiceCodes.UNSUPPORTED_MEDIA_TYPE,
        `a ${request.method} must declare Content-Type: application/json, even with an empty body (got ${given === null ? 'none' : JSON.stringify(given.slice(0, 80))})`,
      ),
    );
  }
  return undefined;
};

/** The gatekeeper's verdict: refused (the answer), or let in with the scopes it is granted. */
type Verdict = { readonly refused: Answer } | { readonly scopes: ReadonlySet<string> };

/**
 * Host, token and origin: the checks every request passes, mounted handlers included, on either
 * path (Hono's, or the direct one of the invoke routes). It gives the scopes the request is granted
 * (its token's; without tokens, those `X-Caller-Scopes` claims).
 */
const gatekeeper = (options: ServiceOptions) => {
  const credentials = options.tokens ?? [];
  const byToken = new Map(credentials.map((c) => [c, new Set(c.scopes)] as const));
  const none: ReadonlySet<string> = new Set();
  return (request: RequestView, isPublic: boolean): Verdict => {
    if (!hostAllowed(request, options.hostHeaders ?? 'loopback')) {
      return {
        refused: problemAnswer(
          problem(ServiceCodes.FORBIDDEN_HOST, `this server answers requests for localhost only, not for ${JSON.stringify(request.header('host'))}`),
        ),
      };
    }
    if (credentials.length === 0) {
      const refused = forgeryProblem(request);
      return refused !== undefined ? { refused } : { scopes: claimedScopes(request) };
    }
    const caller = credentialOf(request, credentials);
    if (caller === undefined && !isPublic) {
      return {
        refused: problemAnswer(problem(ServiceCodes.UNAUTHORIZED, 'this server needs Authorization: Bearer <token>'), { 'www-authenticate': 'Bearer' }),
      };
    }
    const refused = caller === undefined ? forgeryProblem(request) : undefined;
    return refused !== undefined ? { refused } : { scopes: caller !== undefined ? (byToken.get(caller) ?? none) : none };
  };
};

/**
 * A mounted handler's body (MCP's) within the server's limit: a larger declared length is refused
 * before reading; a body of unknown length is read up to the limit and handed on as a new request
 * (granted the same scopes).
 */
const capBody = async (request: Request, limit: number): Promise<Request | Response> => {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return request;
  const declared = request.headers.get('content-length');
  if (declared !== null) {
    return Number(declared) > limit
      ? problemResponse(problem(ServiceCodes.BODY_TOO_LARGE, `the body has ${declared} bytes; this server accepts at most ${limit}`, { limit }))
      : request;
  }
  const read = await readStreamedBody(request.body, limit);
  if (!read.ok) return problemResponse(read.problem);
  const copy = new Request(request.url, { method: request.method, headers: request.headers, body: new Uint8Array(read.value), signal: request.signal });
  grantScopes(copy, readScopes(request));
  return copy;
};

// -------------------------------------------------------------------------------------------------
// the service
// -------------------------------------------------------------------------------------------------

export const createService = (options: ServiceOptions): Service => {
  const version = options.version ?? '0';
  const limit = options.maxBodyBytes ?? DEFAULT_BODY_LIMIT;
  // the document is a route like the others (405 with Allow, 400 for a query), made from the table it is in
  let openapi: JsonObject = {};
  const documentRoute: RouteSpec = {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openapi',
    summary: 'This document: the OpenAPI 3.1 description of every route',
    description:
      'Made from the route table whose schemas validate the requests, so it says what the server accepts. Open to every caller, even when the server has tokens.',
    tag: 'service',
    public: true,
    responses: {
      200: {
        description: 'OpenAPI 3.1',
        schema: {
          type: 'object',
          properties: { openapi: { type: 'string' }, info: { type: 'object' }, paths: { type: 'object' } },
          required: ['openapi', 'info', 'paths'],
        },
      },
    },
    handler: async () => json(200, openapi),
  };
  const routes: ReadonlyArray<RouteSpec> = [
    healthRoute(version),
    ...catalogRoutes,
    ...registryRoutes(options.discoverUsable !== undefined ? { usable: options.discoverUsable } : {}),
    ...monitorRoutes(),
    eventsRoute(options.eventBufferBytes !== undefined ? { bufferBytes: options.eventBufferBytes } : {}),
    ...approvalRoutes,
    ...experimentRoutes(options.experiments),
    documentRoute,
  ];
  openapi = openApiDocument(routes, { version, secured: (options.tokens ?? []).length > 0 });
  const check = gatekeeper(options);
  const enforceScopes = (options.tokens ?? []).length > 0 || options.requireScopes === true;
  const programs = options.allowCommandTools === true ? 'sandboxed' : 'refuse';
  const validators = new Map<RouteSpec, CompiledSchema>();
  const patterns = new Map(routes.map((r) => [r, queryPatterns(r.query)]));
  for (const r of routes) {
    if (r.body === undefined) continue;
    const compiled = compileSchema(r.body.schema);
    if (isLeft(compiled)) throw new Error(`the body schema of ${r.operationId} does not compile: ${compiled.left.message}`);
    validators.set(r, compiled.right);
  }

  /** Hono's handlers that are not routes (405, not found, mounts): the gatekeeper, the scopes recorded for `readScopes`. */
  const checkRequest = (request: Request, isPublic: boolean): Response | undefined => {
    const verdict = check(webView(request), isPublic);
    if ('refused' in verdict) return answerResponse(verdict.refused);
    grantScopes(request, verdict.scopes);
    return undefined;
  };

  /** A route, on either path: every check in order, then its handler. */
  const serveRoute = async (route: RouteSpec, request: RequestView, params: Readonly<Record<string, string>>): Promise<Rendered> => {
    const verdict = check(request, route.public === true);
    if ('refused' in verdict) return { answer: verdict.refused };
    const missing = enforceScopes && route.scope !== undefined ? missingScope(verdict.scopes, route.scope) : undefined;
    if (missing !== undefined) return { answer: problemAnswer(problem(missing.code, missing.message, { scope: missing.scope })) };
    // a request without a query string (most) is not parsed for one
    const query = request.url.includes('?') ? readQuery(new URL(request.url), route.query, patterns.get(route)) : ({ ok: true, value: {} } as const);
    if (!query.ok) return { answer: problemAnswer(query.problem) };
    let agentId: string | undefined;
    let projectId: string | undefined;
    if (route.agentHeaders === true) {
      const a = readIdHeader(request, 'x-agent-id');
      if (!a.ok) return { answer: problemAnswer(a.problem) };
      const p = readIdHeader(request, 'x-project-id');
      if (!p.ok) return { answer: problemAnswer(p.problem) };
      agentId = a.value;
      projectId = p.value;
    }
    let body: unknown;
    if (route.body !== undefined) {
      const read = await readJsonBody(request, limit);
      if (!read.ok) return { answer: problemAnswer(read.problem) };
      body = read.value;
      if (body === undefined && route.body.required)
        return { answer: problemAnswer(problem(ServiceCodes.INVALID_REQUEST, `this route needs a JSON body: ${route.body.description}`)) };
      const v = validators.get(route);
      if (body !== undefined && v !== undefined && !v.check(body)) {
        const issues = v.issues(body);
        return {
          answer: problemAnswer(problem(ServiceCodes.INVALID_REQUEST, `the body does not fit: ${issues.map((i) => i.message).join('; ')}`, { issues })),
        };
      }
    }
    const reply = await route.handler(new RouteContext(options.catalog, params, query.value, body, programs, agentId, projectId, options.approvals, request));
    return render(reply);
  };

  const app = new Hono({ router: new MemoRouter() });
  const byPath = new Map<string, RouteSpec[]>();
  for (const r of routes) byPath.set(r.path, [...(byPath.get(r.path) ?? []), r]);
  for (const [path, list] of byPath) {
    for (const r of list)
      app.on(r.method.toUpperCase(), path, async (c) => asResponse(await serveRoute(r, webView(c.req.raw), c.req.param() as Record<string, string>)));
    const allow = [...list.map((r) => r.method.toUpperCase()), ...(list.some((r) => r.method === 'get') ? ['HEAD'] : [])].join(', ');
    app.all(path, (c) => {
      const refused = checkRequest(c.req.raw, false);
      if (refused !== undefined) return refused;
      return problemResponse(
        problem(ServiceCodes.METHOD_NOT_ALLOWED, `${c.req.method} is not allowed on ${path.replace(/:([A-Za-z]+)/g, '{$1}')}; allowed: ${allow}`),
        { allow },
      );
    });
  }
  for (const m of options.mounts ?? []) {
    const prefix = m.path.replace(/\/+$/, '');
    // the mount's calls check the caller's scopes with the same step (server/scopes.ts)
    const run = async (request: Request): Promise<Response> => {
      const refused = checkRequest(request, m.public === true);
      if (refused !== undefined) return refused;
      const capped = await capBody(request, limit);
      return capped instanceof Response ? capped : await m.handler(capped, enforceScopes ? { scopes: readScopes(request) } : undefined);
    };
    app.all(prefix, (c) => run(c.req.raw));
    app.all(`${prefix}/*`, (c) => run(c.req.raw));
  }
  app.notFound(
    (c) =>
      checkRequest(c.req.raw, false) ??
      problemResponse(problem(ServiceCodes.NOT_FOUND, `no route ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}; see /openapi.json`)),
  );
  app.onError((e) => answerResponse(internalProblem(e)));

  const service: Service = {
    fetch: async (request) => {
      try {
        return await app.fetch(request);
      } catch (e) {
        return answerResponse(internalProblem(e));
      }
    },
    routes,
    openapi,
    catalog: options.catalog,
  };
  // the invoke routes, served by startServer straight from node:http (serve-direct.ts): the same serveRoute
  directPaths.set(
    service,
    directHandler(
      routes.filter((r) => DIRECT_ROUTES.has(r.operationId)),
      (route, request, params) => serveRoute(route, request, params).catch(internalProblemOf),
    ),
  );
  return service;
};

const internalProblemOf = (e: unknown): Rendered => ({ answer: internalProblem(e) });

/** The routes the direct path serves: the two invoke routes (the service's hot path). */
const DIRECT_ROUTES: ReadonlySet<string> = new Set(['invokeTool', 'registryInvoke']);

const directPaths = new WeakMap<Service, DirectHandler>();

/** The direct path of a service (internal: startServer puts it before Hono). */
export const directPathOf = (service: Service): DirectHandler | undefined => directPaths.get(service);
