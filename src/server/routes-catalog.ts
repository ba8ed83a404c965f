/**
 * The catalog routes, relative to `/tools`: bundles, tools by `<bundle, slug,
 * version>`, invocation, the global list and search. Lists answer `{bundles|tools, nextPageToken}`.
 * Two additions the admin page needs: `GET /tools/bundles/{bundleID}` and a tool's gram
 * (`GET …/version/{v}/gram`).
 */
import type { InvokeOptions } from '../catalog/catalog-types.js';
import { newId } from '../catalog/ids.js';
import type { CatalogResult } from '../catalog/result.js';
import { queueApprover } from '../policy/approval-queue.js';
import { httpStatusOf } from '../core/codes.js';
import { isRecord } from '../core/json.js';
import type { ToolResult } from '../library/result.js';
import { Scopes, ServiceCodes } from './codes.js';
import { catalogProblem, problem, warningsView } from './problem.js';
import { json, type PathParameter, type QueryParameter, type Reply, type RequestContext, type RouteSpec } from './route.js';
import { BundleWriteSchema, EnabledPatchSchema, InvokeSchema, refTo, SLUG_PATTERN, ToolWriteSchema, UUID_PATTERN, VERSION_PATTERN } from './schemas.js';

export const reply = <A>(r: CatalogResult<A>, status: number, view: (a: A) => unknown = (a) => a): Reply => (r.ok ? json(status, view(r.value)) : { kind: 'problem', problem: catalogProblem(r.error) });

const problemRef = { description: 'problem details (application/problem+json)', schema: refTo('Problem') };
const errors = { 400: problemRef, 404: problemRef, 409: problemRef, 503: problemRef };

const bundleParam: Readonly<Record<string, PathParameter>> = { bundleID: { description: 'the bundle id (UUIDv7)', schema: { type: 'string', pattern: UUID_PATTERN } } };
const toolParams: Readonly<Record<string, PathParameter>> = {
  ...bundleParam,
  toolSlug: { description: 'the tool slug (Unicode letters, digits, "-")', schema: { type: 'string', pattern: SLUG_PATTERN } },
  v: { description: 'the version (a slug\'s runes plus ".")', schema: { type: 'string', pattern: VERSION_PATTERN } },
};

const page = (size: string): Readonly<Record<string, QueryParameter>> => ({
  [size]: { kind: 'integer', minimum: 1, maximum: 1000, description: 'results per page (default 50, at most 1000)' },
  pageToken: { kind: 'string', maxLength: 1024, description: 'from the previous page\'s nextPageToken' },
});

const includeDisabled: QueryParameter = { kind: 'boolean', description: 'also disabled tools, and tools of disabled or deleted bundles' };

const toolRef = (c: RequestContext) => ({ bundleID: c.params['bundleID'] as string, slug: c.params['toolSlug'] as string, version: c.params['v'] as string });
const TOOL = '/tools/bundles/:bundleID/tools/:toolSlug/version/:v';

export const catalogRoutes: ReadonlyArray<RouteSpec> = [
  {
    method: 'get',
    path: '/tools/bundles',
    operationId: 'listBundles',
    summary: 'List bundles (enabled, live ones unless includeDisabled)',
    tag: 'bundles',
    scope: Scopes.READ,
    query: { bundleIDs: { kind: 'list', description: 'only these bundles (comma-separated or repeated)' }, includeDisabled: { kind: 'boolean', description: 'also disabled and soft-deleted bundles' }, ...page('pageSize') },
    responses: { 200: { description: 'a page of bundles', schema: refTo('BundleList') }, 400: problemRef },
    handler: async (c) =>
      reply(
        await c.catalog.listBundles({
          ...(c.query['bundleIDs'] !== undefined ? { bundleIDs: c.query['bundleIDs'] as ReadonlyArray<string> } : {}),
          ...(c.query['includeDisabled'] !== undefined ? { includeDisabled: c.query['includeDisabled'] as boolean } : {}),
          ...(c.query['pageSize'] !== undefined ? { pageSize: c.query['pageSize'] as number } : {}),
          ...(c.query['pageToken'] !== undefined ? { pageToken: c.query['pageToken'] as string } : {}),
        }),
        200,
      ),
  },
  {
    method: 'get',
    path: '/tools/bundles/:bundleID',
    operationId: 'getBundle',
    summary: 'One bundle',
    tag: 'bundles',
    scope: Scopes.READ,
    params: bundleParam,
    responses: { 200: { description: 'the bundle', schema: refTo('Bundle') }, ...errors },
    handler: async (c) => reply(await c.catalog.getBundle(c.params['bundleID'] as string), 200),
  },
  {
    method: 'put',
    path: '/tools/bundles/:bundleID',
    operationId: 'putBundle',
    summary: 'Create or replace a bundle (a soft-deleted one is restored)',
    tag: 'bundles',
    scope: Scopes.WRITE,
    params: bundleParam,
    body: { schema: BundleWriteSchema, required: true, description: '{slug, displayName, isEnabled, description}' },
    responses: { 200: { description: 'replaced', schema: refTo('Bundle') }, 201: { description: 'created', schema: refTo('Bundle') }, ...errors, 403: problemRef },
    handler: async (c) => {
      const r = await c.catalog.putBundle(c.params['bundleID'] as string, c.body);
      return r.ok ? json(r.value.created ? 201 : 200, r.value.bundle) : reply(r, 200);
    },
  },
  {
    method: 'post',
    path: '/tools/bundles',
    operationId: 'createBundle',
    summary: 'Create a bundle; the server assigns its id (a UUIDv7), as PUT /tools/bundles/{bundleID} does with the client\'s',
    tag: 'bundles',
    scope: Scopes.WRITE,
    body: { schema: BundleWriteSchema, required: true, description: '{slug, displayName, isEnabled, description}' },
    responses: { 201: { description: 'created', schema: refTo('Bundle') }, ...errors, 403: problemRef },
    handler: async (c) => {
      const r = await c.catalog.putBundle(newId(), c.body);
      return reply(r, 201, (w) => w.bundle);
    },
  },
  {
    method: 'patch',
    path: '/tools/bundles/:bundleID',
    operationId: 'patchBundle',
    summary: 'Enable or disable a bundle ({isEnabled} only)',
    tag: 'bundles',
    scope: Scopes.WRITE,
    params: bundleParam,
    body: { schema: EnabledPatchSchema, required: true, description: '{isEnabled}' },
    responses: { 200: { description: 'the bundle', schema: refTo('Bundle') }, ...errors },
    handler: async (c) => reply(await c.catalog.patchBundle(c.params['bundleID'] as string, c.body), 200),
  },
  {
    method: 'delete',
    path: '/tools/bundles/:bundleID',
    operationId: 'deleteBundle',
    summary: 'Soft-delete a bundle (reaped 2 days later if it holds no tool)',
    tag: 'bundles',
    scope: Scopes.WRITE,
    params: bundleParam,
    responses: { 200: { description: 'the bundle, with softDeletedAt', schema: refTo('Bundle') }, ...errors, 403: problemRef },
    handler: async (c) => reply(await c.catalog.deleteBundle(c.params['bundleID'] as string), 200),
  },
  {
    method: 'get',
    path: TOOL,
    operationId: 'getTool',
    summary: 'One tool (disabled ones too)',
    tag: 'tools',
    scope: Scopes.READ,
    params: toolParams,
    responses: { 200: { description: 'the tool', schema: refTo('Tool') }, ...errors },
    handler: async (c) => reply(await c.catalog.getTool(toolRef(c)), 200),
  },
  {
    method: 'get',
    path: `${TOOL}/gram`,
    operationId: 'getToolGram',
    summary: "A tool in gram: its specification and implementation",
    tag: 'tools',
    scope: Scopes.READ,
    params: toolParams,
    responses: { 200: { description: 'gram text', schema: 'text' }, ...errors },
    handler: async (c) => {
      const r = await c.catalog.toolGram(toolRef(c));
      return r.ok ? { kind: 'text', status: 200, body: `${r.value}\n`, contentType: 'text/plain; charset=utf-8' } : reply(r, 200);
    },
  },
  {
    method: 'put',
    path: TOOL,
    operationId: 'putTool',
    summary: 'Create a tool; a second PUT of the same <slug, version> is a conflict and leaves the tool unchanged',
    tag: 'tools',
    scope: Scopes.WRITE,
    params: toolParams,
    body: { schema: ToolWriteSchema, required: true, description: 'tool.json fields, or {"gram": "[slug:Tool {…} | signature]"}' },
    responses: { 201: { description: 'created', schema: refTo('ToolWritten') }, ...errors, 403: problemRef },
    handler: async (c) => {
      const r = await c.catalog.putTool(c.params['bundleID'] as string, c.params['toolSlug'] as string, c.params['v'] as string, c.body, { programs: c.programs });
      return reply(r, 201, (w) => ({ tool: w.value, warnings: warningsView(w.warnings) }));
    },
  },
  {
    method: 'patch',
    path: TOOL,
    operationId: 'patchTool',
    summary: 'Enable or disable a tool ({isEnabled} only)',
    tag: 'tools',
    scope: Scopes.WRITE,
    params: toolParams,
    body: { schema: EnabledPatchSchema, required: true, description: '{isEnabled}' },
    responses: { 200: { description: 'the tool', schema: refTo('Tool') }, ...errors },
    handler: async (c) => reply(await c.catalog.patchTool(toolRef(c), c.body), 200),
  },
  {
    method: 'delete',
    path: TOOL,
    operationId: 'deleteTool',
    summary: 'Delete a tool (hard delete)',
    tag: 'tools',
    scope: Scopes.WRITE,
    params: toolParams,
    responses: { 200: { description: 'the deleted tool', schema: refTo('Tool') }, ...errors, 403: problemRef },
    handler: async (c) => reply(await c.catalog.deleteTool(toolRef(c)), 200),
  },
  {
    method: 'post',
    path: `${TOOL}/invoke`,
    operationId: 'invokeTool',
    summary: 'Invoke a tool with {args}: {ok: true, value} or {ok: false, error}',
    tag: 'tools',
    scope: Scopes.INVOKE,
    params: toolParams,
    agentHeaders: true,
    body: { schema: InvokeSchema, required: false, description: '{args}' },
    responses: { 200: { description: 'the tool ran', schema: refTo('ToolResult') }, ...errors, 403: problemRef },
    handler: async (c) => {
      const args = (c.body as { args?: unknown } | undefined)?.args ?? {};
      return invokeReply(await c.catalog.invokeTool(toolRef(c), args, invokeOptions(c)));
    },
  },
  {
    method: 'get',
    path: '/tools/tools',
    operationId: 'listTools',
    summary: 'Every tool, in creation order (enabled ones in live bundles unless includeDisabled)',
    tag: 'tools',
    scope: Scopes.READ,
    query: {
      tags: { kind: 'list', description: 'tools with every one of these tags' },
      bundleIDs: { kind: 'list', description: 'tools of these bundles' },
      includeDisabled,
      createdBy: { kind: 'string', description: 'system or agent' },
      ...page('recommendedPageSize'),
    },
    responses: { 200: { description: 'a page of tools', schema: refTo('ToolList') }, 400: problemRef },
    handler: async (c) => {
      const createdBy = c.query['createdBy'];
      if (createdBy !== undefined && createdBy !== 'system' && createdBy !== 'agent') return invalidQuery('createdBy must be system or agent');
      return reply(
        await c.catalog.listTools({
          ...(c.query['tags'] !== undefined ? { tags: c.query['tags'] as ReadonlyArray<string> } : {}),
          ...(c.query['bundleIDs'] !== undefined ? { bundleIDs: c.query['bundleIDs'] as ReadonlyArray<string> } : {}),
          ...(c.query['includeDisabled'] !== undefined ? { includeDisabled: c.query['includeDisabled'] as boolean } : {}),
          ...(createdBy !== undefined ? { createdBy } : {}),
          ...(c.query['recommendedPageSize'] !== undefined ? { pageSize: c.query['recommendedPageSize'] as number } : {}),
          ...(c.query['pageToken'] !== undefined ? { pageToken: c.query['pageToken'] as string } : {}),
        }),
        200,
      );
    },
  },
  {
    method: 'get',
    path: '/tools/tools/search',
    operationId: 'searchTools',
    summary: 'Search slug, display name, description and tags: prefix > whole word > fuzzy > recency',
    tag: 'tools',
    scope: Scopes.READ,
    query: { q: { kind: 'string', maxLength: 256, description: 'the query (empty: every tool, newest first)' }, includeDisabled, ...page('pageSize') },
    responses: { 200: { description: 'a page of tools, best first', schema: refTo('ToolList') }, 400: problemRef },
    handler: async (c) =>
      reply(
        await c.catalog.searchTools({
          q: (c.query['q'] as string | undefined) ?? '',
          ...(c.query['includeDisabled'] !== undefined ? { includeDisabled: c.query['includeDisabled'] as boolean } : {}),
          ...(c.query['pageSize'] !== undefined ? { pageSize: c.query['pageSize'] as number } : {}),
          ...(c.query['pageToken'] !== undefined ? { pageToken: c.query['pageToken'] as string } : {}),
        }),
        200,
      ),
  },
];

/** The caller's agent and project, and its signal (read only by tools that can be cancelled). */
/**
 * The answer to an invoke: the tool's result (200, `{ok: true, value}` or `{ok: false, error}`),
 * or, for a failure whose code's registry entry has an HTTP status (a policy's refusal: 403,
 * arguments that do not validate: 400), a problem with that status.
 */
export const invokeReply = (r: CatalogResult<ToolResult>): Reply => {
  if (!r.ok || r.value.ok) return reply(r, 200);
  const e = r.value.error;
  if (httpStatusOf(e.reason) === undefined) return json(200, r.value);
  return { kind: 'problem', problem: problem(e.reason, e.message, { ...(isRecord(e.details) ? e.details : {}), retryable: e.retryable }) };
};

export const invokeOptions = (c: RequestContext): InvokeOptions => ({
  get signal() {
    return c.signal;
  },
  ...(c.agentId !== undefined ? { agentId: c.agentId } : {}),
  ...(c.projectId !== undefined ? { projectId: c.projectId } : {}),
  // a call that needs approval waits in the queue, naming its caller, until the client goes away
  ...(c.approvals !== undefined ? { approver: queueApprover(c.approvals, { via: 'rest', ...(c.agentId !== undefined ? { agentId: c.agentId } : {}), ...(c.projectId !== undefined ? { projectId: c.projectId } : {}) }, () => c.signal) } : {}),
});

const invalidQuery = (detail: string): Reply => ({ kind: 'problem', problem: problem(ServiceCodes.INVALID_REQUEST, detail) });
