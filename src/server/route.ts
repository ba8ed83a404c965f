/**
 * A route of the service as data: method, path, what it accepts (path parameters, query
 * parameters, headers, body, each with a JSON Schema), what it answers, the scope it needs, and its
 * handler. The same schemas validate requests and make the OpenAPI document, so the document
 * cannot drift from what the server accepts.
 */
import type { Catalog } from '../catalog/catalog.js';
import type { RequestPrograms } from '../catalog/program-guard.js';
import type { JsonObject, JsonSchema } from '../core/json-schema.js';
import type { ApprovalQueue } from '../policy/approval-queue.js';
import type { Scope } from './codes.js';
import type { Problem } from './problem.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type QueryKind = 'string' | 'boolean' | 'integer' | 'list';

export interface QueryParameter {
  readonly kind: QueryKind;
  readonly description: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  /** A string's (or each item of a list's) pattern, e.g. a UUID's. */
  readonly pattern?: string;
  /** The values a string (or each item of a list) may take. */
  readonly enum?: ReadonlyArray<string>;
}

export interface PathParameter {
  readonly description: string;
  readonly schema: JsonObject;
}

export interface RouteResponse {
  readonly description: string;
  /** The body's schema (JSON), or `text` for text/plain, `html` for a page (text/html), or `sse` for an event stream. */
  readonly schema?: JsonSchema | 'text' | 'html' | 'sse';
}

/** What a handler gets: the request, parsed and validated. */
export interface RequestContext {
  readonly catalog: Catalog;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string | boolean | number | ReadonlyArray<string> | undefined>>;
  readonly body: unknown;
  readonly agentId?: string;
  readonly projectId?: string;
  /** What tools that run programs the request may register (`refuse` unless the server allows sandboxed ones). */
  readonly programs: RequestPrograms;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /** The service's queue of calls waiting for approval, when it has one. */
  readonly approvals?: ApprovalQueue;
}

/** A handler's answer: JSON with a status, text, or a problem; or a ready `Response` (streams). */
export type Reply =
  | { readonly kind: 'json'; readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly kind: 'text'; readonly status: number; readonly body: string; readonly contentType: string }
  | { readonly kind: 'problem'; readonly problem: Problem }
  | { readonly kind: 'response'; readonly response: Response };

export interface RouteSpec {
  readonly method: Method;
  /** Hono's form: `/tools/bundles/:bundleID`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  /** More than the summary says (the document adds the scope, the queries and the errors every route shares). */
  readonly description?: string;
  readonly tag: string;
  /** The scope `X-Caller-Scopes` must hold when the server requires scopes. */
  readonly scope?: Scope;
  /** Open to everyone, even when the server has a token (`/healthz`). */
  readonly public?: boolean;
  readonly params?: Readonly<Record<string, PathParameter>>;
  readonly query?: Readonly<Record<string, QueryParameter>>;
  /** Invocations read `X-Agent-ID` and `X-Project-ID` (who calls, for the usage history and events). */
  readonly agentHeaders?: boolean;
  readonly body?: { readonly schema: JsonSchema; readonly required: boolean; readonly description: string };
  readonly responses: Readonly<Record<number, RouteResponse>>;
  readonly handler: (ctx: RequestContext) => Promise<Reply>;
}

export const json = (status: number, body: unknown, headers?: Readonly<Record<string, string>>): Reply => ({
  kind: 'json',
  status,
  body,
  ...(headers !== undefined ? { headers } : {}),
});
