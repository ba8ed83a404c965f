/**
 * `gramkit/server`: the tool service. `createService({catalog})` is a web-standard handler
 * (`fetch(request) → Response`) for the catalog's REST API (`/tools`) and the registry's
 * (`/api/v1`), `/healthz`, `/openapi.json` and the events stream, with problem+json errors;
 * `startServer` listens on a socket. Extra handlers (MCP, an admin page) mount with `mounts`.
 */
export type { Service, ServiceOptions, Mount, FetchHandler } from '../server/service.js';
export { createService } from '../server/service.js';
export type { ListenOptions, RunningServer } from '../server/serve.js';
export { startServer, isLoopbackHost, DEFAULT_HOST, DEFAULT_PORT } from '../server/serve.js';
export { ServiceCodes, Scopes } from '../server/codes.js';
export type { Credential } from '../server/caller.js';
export { ALL_SCOPES, MIN_TOKEN_LENGTH, parseTokens } from '../server/caller.js';
export type { ServiceCode, Scope } from '../server/codes.js';
export type { Problem } from '../server/problem.js';
export { CATALOG_STATUS, SERVICE_STATUS } from '../server/problem.js';
export type { RouteSpec, Method, QueryParameter, QueryKind, PathParameter, Reply, RequestContext } from '../server/route.js';
export type { CatalogToolSource, McpMount, McpMountError } from '../server/mcp-source.js';
export { catalogToolSource, catalogMcpMount } from '../server/mcp-source.js';
export { adminPage } from '../server/admin-page.js';
