/**
 * The OpenAPI 3.1 document of the service, made from the route table: the same schemas validate
 * the requests, so what the document says is what the server accepts.
 *
 * What every route shares is written once and derived from the route's data, so a new route gets
 * it without saying so: each error status is a shared response (`components.responses`, its
 * description listing the codes whose registry gives that status), and an operation refers to
 * those that can answer it: 400 (every route refuses an undeclared or malformed query parameter),
 * 401 (a server with tokens, a route that is not public), 403 (a `Host` naming another server, a
 * missing scope, a state-changing request from another origin), 413 and 415 (a route that reads a body; on a server without tokens 415 also for
 * any POST, PUT or PATCH that does not declare JSON), and the statuses the route itself declares. A 405 (with `Allow`) is the
 * answer of a path to a method it does not have: it is shared too, and named by every path's
 * description, since OpenAPI has no place for a path's own responses.
 */
import { registries } from '../core/codes.js';
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import type { RouteSpec } from './route.js';
import { COMPONENTS } from './schemas.js';

const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

const querySchema = (q: NonNullable<RouteSpec['query']>[string]): JsonObject => {
  const text: JsonObject = {
    type: 'string',
    ...(q.maxLength !== undefined ? { maxLength: q.maxLength } : {}),
    ...(q.pattern !== undefined ? { pattern: q.pattern } : {}),
    ...(q.enum !== undefined ? { enum: [...q.enum] } : {}),
  };
  switch (q.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', ...(q.minimum !== undefined ? { minimum: q.minimum } : {}), ...(q.maximum !== undefined ? { maximum: q.maximum } : {}) };
    case 'list':
      return { type: 'array', maxItems: 200, items: text };
    default:
      return text;
  }
};

// -------------------------------------------------------------------------------------------------
// the shared responses
// -------------------------------------------------------------------------------------------------

/** The name of each shared error response, by status. */
const SHARED: Readonly<Record<number, string>> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  409: 'Conflict',
  413: 'ContentTooLarge',
  415: 'UnsupportedMediaType',
  503: 'Unavailable',
};

const HEADERS: Readonly<Record<number, JsonObject>> = {
  401: { 'WWW-Authenticate': { description: 'Bearer', schema: { type: 'string' } } },
  405: { Allow: { description: 'the methods the path answers', schema: { type: 'string' } } },
  503: { 'Retry-After': { description: 'seconds to wait before trying again', schema: { type: 'string' } } },
};

/** The codes whose registry gives them this status, for the shared response's description. */
const codesOf = (status: number): ReadonlyArray<string> =>
  [...new Set(registries().flatMap((r) => r.codes.filter((c) => c.http === status).map((c) => c.code)))].sort();

const sharedResponse = (status: number): JsonObject => {
  const codes = codesOf(status);
  return {
    description: `problem details (RFC 9457)${codes.length > 0 ? `; \`code\` is one of ${codes.join(', ')}` : ''}`,
    ...(HEADERS[status] !== undefined ? { headers: HEADERS[status] } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
};

const ref = (status: number): JsonObject => ({ $ref: `#/components/responses/${SHARED[status] as string}` });

/** The error statuses that can answer a route: those every route shares, and its own. */
const errorStatuses = (r: RouteSpec, secured: boolean): ReadonlyArray<number> => {
  const statuses = new Set<number>([400, 403]);
  if (secured && r.public !== true) statuses.add(401);
  if (r.body !== undefined) statuses.add(413);
  // a POST, PUT or PATCH without a token must declare JSON even when it has no body (forgery); with tokens, a body that is not JSON
  if (r.body !== undefined || (!secured && (r.method === 'post' || r.method === 'put' || r.method === 'patch'))) statuses.add(415);
  for (const s of Object.keys(r.responses).map(Number)) if (s >= 400) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
};

// -------------------------------------------------------------------------------------------------
// operations
// -------------------------------------------------------------------------------------------------

const describe = (r: RouteSpec, secured: boolean): string =>
  [
    r.description ?? `${r.summary}.`,
    r.scope !== undefined ? `Needs the scope \`${r.scope}\` (a token's; on a server without tokens that requires scopes, \`X-Caller-Scopes\`).` : '',
    r.public === true && secured ? 'Open without a token.' : '',
    r.query !== undefined
      ? 'A query parameter it does not list, or a value that does not fit, is a 400 naming it (`invalidParams`).'
      : 'It takes no query parameter: any is a 400 naming it.',
  ]
    .filter((s) => s !== '')
    .join(' ');

const operation = (r: RouteSpec, secured: boolean): JsonObject => {
  const parameters: JsonValue[] = [
    ...Object.entries(r.params ?? {}).map(([name, p]) => ({ name, in: 'path', required: true, description: p.description, schema: p.schema })),
    ...Object.entries(r.query ?? {}).map(([name, q]) => ({
      name,
      in: 'query',
      required: false,
      description: q.description,
      schema: querySchema(q),
      ...(q.kind === 'list' ? { style: 'form', explode: false } : {}),
    })),
    ...(r.agentHeaders === true
      ? [
          {
            name: 'X-Agent-ID',
            in: 'header',
            required: false,
            description: 'the calling agent (usage history per agent)',
            schema: { type: 'string', maxLength: 128 },
          },
          { name: 'X-Project-ID', in: 'header', required: false, description: 'the calling project', schema: { type: 'string', maxLength: 128 } },
        ]
      : []),
    ...(r.scope !== undefined
      ? [
          {
            name: 'X-Caller-Scopes',
            in: 'header',
            required: false,
            description: `needs ${r.scope} when the server requires scopes`,
            schema: { type: 'string' },
          },
        ]
      : []),
  ];
  const responses: Record<string, JsonValue> = {};
  for (const [status, resp] of Object.entries(r.responses)) {
    if (Number(status) >= 400) continue;
    const content: JsonValue | undefined =
      resp.schema === 'text'
        ? { 'text/plain': { schema: { type: 'string' } } }
        : resp.schema === 'html'
          ? { 'text/html': { schema: { type: 'string' } } }
          : resp.schema === 'sse'
            ? { 'text/event-stream': { schema: { type: 'string' } } }
            : resp.schema !== undefined
              ? { 'application/json': { schema: resp.schema as JsonValue } }
              : undefined;
    responses[status] = { description: resp.description, ...(content !== undefined ? { content } : {}) };
  }
  for (const status of errorStatuses(r, secured)) responses[String(status)] = ref(status);
  return {
    operationId: r.operationId,
    summary: r.summary,
    description: describe(r, secured),
    tags: [r.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(r.body !== undefined
      ? { requestBody: { required: r.body.required, description: r.body.description, content: { 'application/json': { schema: r.body.schema as JsonValue } } } }
      : {}),
    responses,
    ...(r.public === true || !secured ? { security: [] } : {}),
  };
};

/** What each tag groups (a tag no route uses is left out). */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  service: 'the service itself: liveness, this document',
  bundles: "the catalog's bundles (under /tools)",
  tools: "the catalog's tools by bundle, slug and version, their invocation, list and search (under /tools)",
  registry: 'the tool registry: Tool JSON by id, discovery, invocation, usage (under /api)',
  events: "the catalog's events as server-sent events",
  approvals: "the calls waiting for a person's approval, and the decisions",
  experiments: 'the reports of the experiments (gramkit ab --out *.jsonl) in the directory the server was given (--experiments)',
};

export const openApiDocument = (routes: ReadonlyArray<RouteSpec>, options: { readonly version: string; readonly secured: boolean }): JsonObject => {
  const paths: Record<string, Record<string, JsonValue>> = {};
  for (const r of routes) {
    const p = openApiPath(r.path);
    paths[p] ??= {};
    (paths[p] as Record<string, JsonValue>)[r.method] = operation(r, options.secured);
  }
  for (const ops of Object.values(paths)) {
    const allow = [...Object.keys(ops).map((m) => m.toUpperCase()), ...(ops['get'] !== undefined ? ['HEAD'] : [])].join(', ');
    ops['description'] = `Answers ${allow}; any other method is a 405 (#/components/responses/MethodNotAllowed) whose Allow header lists these.`;
  }
  const used = new Set([405, ...routes.flatMap((r) => errorStatuses(r, options.secured))]);
  const tags = [...new Set(routes.map((r) => r.tag))].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'gramkit tool service',
      version: options.version,
      description:
        'The tool catalog (bundles and tools by slug and version, under /tools) and the tool registry (Tool JSON by id, under /api). ' +
        'Errors are RFC 9457 problem details with a stable code; see docs/service.md. The statuses every route shares are the responses of components.responses.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'the server that serves this document' }],
    tags,
    paths,
    components: {
      schemas: COMPONENTS as Readonly<Record<string, JsonValue>>,
      // those some operation refers to, and the 405 of every path
      responses: Object.fromEntries(
        Object.entries(SHARED).flatMap(([status, name]) => (used.has(Number(status)) ? [[name, sharedResponse(Number(status))]] : [])),
      ),
      ...(options.secured ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } : {}),
    },
    ...(options.secured ? { security: [{ bearer: [] }] } : {}),
  };
};
