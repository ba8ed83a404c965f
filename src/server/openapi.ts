/**
 * The OpenAPI 3.1 document of the service, made from the route table: the same schemas validate
 * the requests, so what the document says is what the server accepts.
 */
import type { JsonObject, JsonValue } from '../core/json-schema.js';
import type { RouteSpec } from './route.js';
import { COMPONENTS } from './schemas.js';

const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)/g, '{$1}');

const querySchema = (q: NonNullable<RouteSpec['query']>[string]): JsonObject => {
  switch (q.kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer', ...(q.minimum !== undefined ? { minimum: q.minimum } : {}), ...(q.maximum !== undefined ? { maximum: q.maximum } : {}) };
    case 'list':
      return { type: 'array', items: { type: 'string' } };
    default:
      return { type: 'string', ...(q.maxLength !== undefined ? { maxLength: q.maxLength } : {}) };
  }
};

const operation = (r: RouteSpec, secured: boolean): JsonObject => {
  const parameters: JsonValue[] = [
    ...Object.entries(r.params ?? {}).map(([name, p]) => ({ name, in: 'path', required: true, description: p.description, schema: p.schema })),
    ...Object.entries(r.query ?? {}).map(([name, q]) => ({ name, in: 'query', required: false, description: q.description, schema: querySchema(q), ...(q.kind === 'list' ? { style: 'form', explode: false } : {}) })),
    ...(r.agentHeaders === true
      ? [
          { name: 'X-Agent-ID', in: 'header', required: false, description: 'the calling agent (usage history per agent)', schema: { type: 'string', maxLength: 128 } },
          { name: 'X-Project-ID', in: 'header', required: false, description: 'the calling project', schema: { type: 'string', maxLength: 128 } },
        ]
      : []),
    ...(r.scope !== undefined ? [{ name: 'X-Caller-Scopes', in: 'header', required: false, description: `needs ${r.scope} when the server requires scopes`, schema: { type: 'string' } }] : []),
  ];
  const responses: Record<string, JsonValue> = {};
  for (const [status, resp] of Object.entries(r.responses)) {
    const isProblem = Number(status) >= 400;
    const content: JsonValue | undefined =
      resp.schema === 'text'
        ? { 'text/plain': { schema: { type: 'string' } } }
        : resp.schema === 'sse'
          ? { 'text/event-stream': { schema: { type: 'string' } } }
          : resp.schema !== undefined
            ? { [isProblem ? 'application/problem+json' : 'application/json']: { schema: resp.schema as JsonValue } }
            : undefined;
    responses[status] = { description: resp.description, ...(content !== undefined ? { content } : {}) };
  }
  return {
    operationId: r.operationId,
    summary: r.summary,
    tags: [r.tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(r.body !== undefined ? { requestBody: { required: r.body.required, description: r.body.description, content: { 'application/json': { schema: r.body.schema as JsonValue } } } } : {}),
    responses,
    ...(r.public === true || !secured ? { security: [] } : {}),
  };
};

export const openApiDocument = (routes: ReadonlyArray<RouteSpec>, options: { readonly version: string; readonly secured: boolean }): JsonObject => {
  const paths: Record<string, Record<string, JsonValue>> = {};
  for (const r of routes) {
    const p = openApiPath(r.path);
    paths[p] ??= {};
    (paths[p] as Record<string, JsonValue>)[r.method] = operation(r, options.secured);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'gramkit tool service',
      version: options.version,
      description: 'The tool catalog (bundles and tools by slug and version, under /tools) and the tool registry (Tool JSON by id, under /api/v1). Errors are RFC 9457 problem details with a stable code; see docs/service.md.',
    },
    paths,
    components: {
      schemas: COMPONENTS as Readonly<Record<string, JsonValue>>,
      ...(options.secured ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } : {}),
    },
    ...(options.secured ? { security: [{ bearer: [] }] } : {}),
  };
};
