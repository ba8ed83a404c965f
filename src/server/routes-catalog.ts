/**
 * The catalog routes, relative to `/tools`: bundles, tools by `<bundle, slug,
 * version>`, invocation, the global list and search. Lists answer `{bundles|tools, nextPageToken}`.
 * Three additions the admin page needs: `GET /tools/bundles/{bundleID}`, a tool's gram
 * (`GET …/version/{v}/gram`), and a check of a tool without writing it (`POST /tools/tools/check`).
 */
import type { InvokeOptions } from '../catalog/catalog-types.js';
import { newId } from '../catalog/records/ids.js';
import type { CatalogResult } from '../catalog/result.js';
import { queueApprover } from '../policy/approval-queue.js';
import type { Approver } from '../policy/approvals.js';
import { httpStatusOf } from '../core/codes.js';
import { isRecord } from '../core/json.js';
import type { Diagnostic } from '../core/diagnostic.js';
import { lineIndex, positionAt } from '../core/span.js';
import type { ToolResult } from '../library/result.js';
import { Scopes, ServiceCodes } from './codes.js';
import { catalogProblem, problem, warningsView } from './problem.js';
import { json, type PathParameter, type QueryParameter, type Reply, type RequestContext, type RouteSpec } from './route.js';
import { BundleWriteSchema, EnabledPatchSchema, InvokeSchema, refTo, SLUG_PATTERN, ToolWriteSchema, UUID_PATTERN, VERSION_PATTERN } from './schemas.js';

export const reply = <A>(r: CatalogResult<A>, status: number, view: (a: A) => unknown = (a) => a): Reply =>
  r.ok ? json(status, view(r.value)) : { kind: 'problem', problem: catalogProblem(r.error) };

const problemRef = { description: 'problem details (application/problem+json)', schema: refTo('Problem') };
const errors = { 400: problemRef, 404: problemRef, 409: problemRef, 503: problemRef };
/** What a read of one record may answer (a read conflicts with nothing). */
const readErrors = { 400: problemRef, 404: problemRef, 503: problemRef };

const bundleParam: Readonly<Record<string, PathParameter>> = {
  bundleID: { description: 'the bundle id (UUIDv7)', schema: { type: 'string', pattern: UUID_PATTERN } },
};
const toolParams: Readonly<Record<string, PathParameter>> = {
  ...bundleParam,
  toolSlug: { description: 'the tool slug (Unicode letters, digits, "-", single "_" inside)', schema: { type: 'string', pattern: SLUG_PATTERN } },
  v: { description: 'the version (a slug\'s runes plus ".")', schema: { type: 'string', pattern: VERSION_PATTERN } },
};

const page = (size: string): Readonly<Record<string, QueryParameter>> => ({
  [size]: { kind: 'integer', minimum: 1, maximum: 1000, description: 'results per page (default 50, at most 1000)' },
  pageToken: { kind: 'string', maxLength: 1024, description: "from the previous page's nextPageToken" },
});

const includeDisabled: QueryParameter = { kind: 'boolean', description: 'also disabled tools, and tools of disabled or deleted bundles' };

/** A tool created in the path's bundle: 201 with `{tool, warnings}`, or the catalog's problem (409 for a taken `<slug, version>`). */
const createTool = async (c: RequestContext, slug: string, version: string): Promise<Reply> => {
  const r = await c.catalog.putTool(c.params['bundleID'] as string, slug, version, c.body, { programs: c.programs });
  return reply(r, 201, (w) => ({ tool: w.value, warnings: warningsView(w.warnings) }));
};

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
    query: {
      bundleIDs: { kind: 'list', pattern: UUID_PATTERN, description: 'only these bundles (comma-separated or repeated; each a bundle id)' },
      includeDisabled: { kind: 'boolean', description: 'also disabled and soft-deleted bundles' },
      ...page('pageSize'),
    },
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
    responses: { 200: { description: 'the bundle', schema: refTo('Bundle') }, ...readErrors },
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
    // a PUT of an unknown id creates it: no 404
    responses: {
      200: { description: 'replaced', schema: refTo('Bundle') },
      201: { description: 'created', schema: refTo('Bundle') },
      400: problemRef,
      403: problemRef,
      409: problemRef,
      503: problemRef,
    },
    handler: async (c) => {
      const r = await c.catalog.putBundle(c.params['bundleID'] as string, c.body);
      return r.ok ? json(r.value.created ? 201 : 200, r.value.bundle) : reply(r, 200);
    },
  },
  {
    method: 'post',
    path: '/tools/bundles',
    operationId: 'createBundle',
    summary: "Create a bundle; the server assigns its id (a UUIDv7), as PUT /tools/bundles/{bundleID} does with the client's",
    tag: 'bundles',
    scope: Scopes.WRITE,
    body: { schema: BundleWriteSchema, required: true, description: '{slug, displayName, isEnabled, description}' },
    responses: { 201: { description: 'created', schema: refTo('Bundle') }, 400: problemRef, 403: problemRef, 409: problemRef, 503: problemRef },
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
    responses: { 200: { description: 'the tool', schema: refTo('Tool') }, ...readErrors },
    handler: async (c) => reply(await c.catalog.getTool(toolRef(c)), 200),
  },
  {
    method: 'get',
    path: `${TOOL}/gram`,
    operationId: 'getToolGram',
    summary: 'A tool in gram: its specification and implementation',
    tag: 'tools',
    scope: Scopes.READ,
    params: toolParams,
    responses: { 200: { description: 'gram text', schema: 'text' }, ...readErrors },
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
    handler: (c) => createTool(c, c.params['toolSlug'] as string, c.params['v'] as string),
  },
  {
    method: 'post',
    path: '/tools/bundles/:bundleID/tools',
    operationId: 'createTool',
    summary: 'Create a tool named by its body\'s slug and version (default "1"); the server assigns its toolID, as PUT …/tools/{toolSlug}/version/{v} does',
    tag: 'tools',
    scope: Scopes.WRITE,
    params: bundleParam,
    body: {
      schema: ToolWriteSchema,
      required: true,
      description: 'tool.json fields with slug (and version), or {"slug", "gram": "[slug:Tool {…} | signature]"}',
    },
    responses: { 201: { description: 'created', schema: refTo('ToolWritten') }, ...errors, 403: problemRef },
    handler: async (c) => {
      const body = isRecord(c.body) ? c.body : {};
      const slug = body['slug'];
      const version = body['version'] ?? '1';
      if (typeof slug !== 'string' || typeof version !== 'string')
        return invalidRequest('the body names the tool: "slug" (a string), and "version" (a string, default "1")');
      return createTool(c, slug, version);
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
      return c.catalog.invokeTool(toolRef(c), args, invokeOptions(c)).then(invokeReply);
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
      bundleIDs: { kind: 'list', pattern: UUID_PATTERN, description: 'tools of these bundles (each a bundle id)' },
      includeDisabled,
      createdBy: { kind: 'string', enum: ['system', 'agent'], description: 'system or agent' },
      ...page('recommendedPageSize'),
    },
    responses: { 200: { description: 'a page of tools', schema: refTo('ToolList') }, 400: problemRef },
    handler: async (c) => {
      const createdBy = c.query['createdBy'] as 'system' | 'agent' | undefined;
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
    method: 'post',
    path: '/tools/tools/check',
    operationId: 'checkTool',
    summary: "Check a tool as PUT …/version/{v} would write it, without writing it: its errors and warnings, placed in the gram text (the admin page's editor)",
    tag: 'tools',
    scope: Scopes.READ,
    query: {
      slug: { kind: 'string', maxLength: 256, description: "the slug the tool would be written under (checked as the route's)" },
      version: { kind: 'string', maxLength: 256, description: 'the version it would be written under' },
    },
    body: { schema: ToolWriteSchema, required: true, description: 'tool.json fields, or {"gram": "[slug:Tool {…} | signature]"}' },
    responses: { 200: { description: '{ok, diagnostics}', schema: refTo('CheckResult') }, 400: problemRef },
    handler: async (c) => {
      const ds = c.catalog.checkTool(c.body, {
        ...(c.query['slug'] !== undefined ? { slug: c.query['slug'] as string } : {}),
        ...(c.query['version'] !== undefined ? { version: c.query['version'] as string } : {}),
        programs: c.programs,
      });
      const gram = isRecord(c.body) && typeof c.body['gram'] === 'string' ? c.body['gram'] : undefined;
      const index = gram !== undefined ? lineIndex(gram) : undefined;
      const placed = (d: Diagnostic) => {
        if (d.span === undefined || index === undefined || gram === undefined) return {};
        const at = positionAt(index, Math.min(d.span.start, gram.length));
        return { start: d.span.start, end: d.span.end, line: at.line, column: at.column };
      };
      return json(200, {
        ok: !ds.some((d) => d.severity === 'error'),
        diagnostics: ds.map((d) => ({
          code: d.code,
          severity: d.severity,
          message: d.message,
          ...(d.hint !== undefined ? { hint: d.hint } : {}),
          ...placed(d),
        })),
      });
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

/**
 * The catalog's options of a request's call: the caller's ids, its signal (made on first use), and,
 * with the service's approval queue, an approver naming the caller. A class, not a literal with a
 * getter: see RouteContext (service.ts), the same cost per request.
 */
class RequestInvokeOptions implements InvokeOptions {
  readonly agentId: string | undefined;
  readonly projectId: string | undefined;
  private made: Approver | undefined;

  constructor(private readonly c: RequestContext) {
    this.agentId = c.agentId;
    this.projectId = c.projectId;
  }

  get signal(): AbortSignal {
    return this.c.signal;
  }

  /** A call that needs approval waits in the queue, naming its caller, until the client goes away (made when asked for). */
  get approver(): Approver | undefined {
    const c = this.c;
    if (this.made === undefined && c.approvals !== undefined) {
      const caller = {
        via: 'rest' as const,
        ...(c.agentId !== undefined ? { agentId: c.agentId } : {}),
        ...(c.projectId !== undefined ? { projectId: c.projectId } : {}),
      };
      this.made = queueApprover(c.approvals, caller, () => c.signal);
    }
    return this.made;
  }
}

export const invokeOptions = (c: RequestContext): InvokeOptions => new RequestInvokeOptions(c);

/** A request that is not what the route takes (its query or its body), with what to change. */
const invalidRequest = (detail: string): Reply => ({ kind: 'problem', problem: problem(ServiceCodes.INVALID_REQUEST, detail) });
