/**
 * The registry routes: `GET|POST /api/v1/tools` (Tool JSON, the map form of
 * schemas included), discovery, invocation by id (the body is the parameters), deletion of
 * agent-created tools, and usage history. `{id}` is a registry id (`tool_http_get`) or a toolID;
 * `usage` and `discover` are routes, not ids.
 */
import { Scopes } from './codes.js';
import { warningsView } from './problem.js';
import { json, type RouteSpec } from './route.js';
import { invokeOptions, invokeReply, reply } from './routes-catalog.js';
import { ParametersSchema, refTo, RegistryToolWriteSchema } from './schemas.js';

const problemRef = { description: 'problem details (application/problem+json)', schema: refTo('Problem') };
const idParam = { id: { description: 'a registry id (tool_http_get) or a toolID', schema: { type: 'string', minLength: 1, maxLength: 64 } } };

/** Recent invocations, newest first: an agent's (`agent_id`) or everyone's. */
const usageRoute = (path: string, operationId: string, summary: string): RouteSpec => ({
  method: 'get',
  path,
  operationId,
  summary,
  tag: 'registry',
  scope: Scopes.READ,
  query: {
    agent_id: { kind: 'string', maxLength: 128, description: 'the X-Agent-ID of the calls' },
    limit: { kind: 'integer', minimum: 1, maximum: 1000, description: 'most entries (default 50)' },
  },
  responses: {
    200: { description: '{usage: [...]}', schema: { type: 'object', properties: { usage: { type: 'array', items: refTo('UsageEntry') } } } },
    400: problemRef,
  },
  handler: async (c) => {
    const agentId = c.query['agent_id'] as string | undefined;
    const r = await c.catalog.usage({
      ...(agentId !== undefined ? { agentId } : {}),
      ...(c.query['limit'] !== undefined ? { limit: c.query['limit'] as number } : {}),
    });
    return reply(r, 200, (usage) => ({ ...(agentId !== undefined ? { agent_id: agentId } : {}), usage }));
  },
});

export const registryRoutes = (options: { readonly usable?: (builtin: string) => boolean }): ReadonlyArray<RouteSpec> => [
  {
    method: 'get',
    path: '/api/v1/tools',
    operationId: 'registryList',
    summary: 'Every registered tool as Tool JSON',
    tag: 'registry',
    scope: Scopes.READ,
    query: { created_by: { kind: 'string', enum: ['system', 'agent'], description: "system or agent (the admin page's filter of agent-created tools)" } },
    responses: {
      200: { description: '{tools: [...]}', schema: { type: 'object', properties: { tools: { type: 'array', items: refTo('RegistryTool') } } } },
      400: problemRef,
    },
    handler: async (c) => {
      const by = c.query['created_by'] as 'system' | 'agent' | undefined;
      return reply(await c.catalog.registryTools(by !== undefined ? { createdBy: by } : {}), 200, (tools) => ({ tools }));
    },
  },
  {
    method: 'post',
    path: '/api/v1/tools',
    operationId: 'registryRegister',
    summary: 'Register a tool (Tool JSON; created_by defaults to system)',
    tag: 'registry',
    scope: Scopes.WRITE,
    body: { schema: RegistryToolWriteSchema, required: true, description: 'Tool JSON' },
    responses: { 201: { description: 'the registered tool', schema: refTo('RegistryTool') }, 400: problemRef, 409: problemRef, 503: problemRef },
    handler: async (c) =>
      reply(await c.catalog.registerTool(c.body, { programs: c.programs }), 201, (w) => ({
        ...w.value,
        ...(w.warnings.length > 0 ? { warnings: warningsView(w.warnings) } : {}),
      })),
  },
  {
    method: 'post',
    path: '/api/v1/tools/discover',
    operationId: 'registryDiscover',
    summary: 'Register the built-in nucleus and the functions of the loaded libraries (those not registered yet)',
    tag: 'registry',
    scope: Scopes.WRITE,
    responses: { 200: { description: 'what was registered', schema: refTo('Discovery') }, 503: problemRef },
    handler: async (c) => reply(await c.catalog.discover(options.usable !== undefined ? { usable: options.usable } : {}), 200),
  },
  usageRoute('/api/v1/tools/usage', 'registryUsage', "Recent invocations, newest first: an agent's (agent_id) or everyone's"),
  {
    method: 'get',
    path: '/api/v1/tools/:id',
    operationId: 'registryGet',
    summary: 'One registered tool',
    tag: 'registry',
    scope: Scopes.READ,
    params: idParam,
    responses: { 200: { description: 'the tool', schema: refTo('RegistryTool') }, 404: problemRef },
    handler: async (c) => reply(await c.catalog.registryTool(c.params['id'] as string), 200),
  },
  {
    method: 'post',
    path: '/api/v1/tools/:id/invoke',
    operationId: 'registryInvoke',
    summary: 'Invoke a tool; the body is the parameters',
    tag: 'registry',
    scope: Scopes.INVOKE,
    params: idParam,
    agentHeaders: true,
    body: { schema: ParametersSchema, required: false, description: 'the parameters' },
    responses: { 200: { description: 'the tool ran', schema: refTo('ToolResult') }, 400: problemRef, 403: problemRef, 404: problemRef, 409: problemRef },
    handler: (c) => c.catalog.invokeTool({ id: c.params['id'] as string }, c.body ?? {}, invokeOptions(c)).then(invokeReply),
  },
  {
    method: 'delete',
    path: '/api/v1/tools/:id',
    operationId: 'registryDelete',
    summary: 'Delete a tool created by an agent (created_by: agent)',
    tag: 'registry',
    scope: Scopes.WRITE,
    params: idParam,
    responses: { 200: { description: 'the deleted tool', schema: refTo('RegistryTool') }, 403: problemRef, 404: problemRef },
    handler: async (c) => reply(await c.catalog.deleteRegistryTool(c.params['id'] as string), 200),
  },
];

/** `created_by`, the Monitor's filter of agent-created tools. */
const createdByQuery = {
  created_by: {
    kind: 'string' as const,
    enum: ['system', 'agent'],
    description: "system or agent (agent: only the tools agents created, the Monitor's filter)",
  },
};

/**
 * Seed 002's Monitor routes: `GET /api/tools` lists the tools as Redis holds them for a Monitor
 * (`tool:<id>` of each id in `tools:registry`: seed 002's Tool JSON, its fields only), and
 * `GET /api/tools/usage` the recent invocations.
 */
export const monitorRoutes = (): ReadonlyArray<RouteSpec> => [
  {
    method: 'get',
    path: '/api/tools',
    operationId: 'monitorTools',
    summary: "The tools as seed 002's Monitor lists them (Tool JSON, the seed's fields only); created_by=agent: the agent-created ones",
    tag: 'registry',
    scope: Scopes.READ,
    query: createdByQuery,
    responses: {
      200: { description: '{tools: [...]}, by id', schema: { type: 'object', properties: { tools: { type: 'array', items: refTo('SeedTool') } } } },
      400: problemRef,
      503: problemRef,
    },
    handler: async (c) => {
      const by = c.query['created_by'];
      return reply(await c.catalog.registryViews(by === 'system' || by === 'agent' ? { createdBy: by } : {}), 200, (tools) => ({ tools }));
    },
  },
  usageRoute('/api/tools/usage', 'monitorUsage', "Recent invocations, newest first (seed 002's Monitor; the same as /api/v1/tools/usage)"),
];

export const healthRoute = (version: string): RouteSpec => ({
  method: 'get',
  path: '/healthz',
  operationId: 'health',
  summary: 'Liveness, and whether the store answers (and whether it was found wiped: wiped)',
  tag: 'service',
  public: true,
  responses: { 200: { description: 'ok', schema: refTo('Health') }, 503: problemRef },
  handler: async (c) => {
    const r = await c.catalog.sync();
    if (!r.ok) return reply(r, 200);
    const w = c.catalog.wipes();
    return json(200, {
      status: 'ok',
      store: c.catalog.store.kind,
      version,
      ...(w.count > 0 ? { wiped: { count: w.count, lastAt: w.lastAt ?? null, restoredAt: w.restoredAt ?? null } } : {}),
    });
  },
});
