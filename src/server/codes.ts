/**
 * Stable codes of the service layer (`SERVICE_` prefix): problems with a request before it
 * reaches the catalog. Every problem+json body carries one of these or a `CATALOG_…` code;
 * docs/service.md lists each with its HTTP status.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

export const ServiceCodes = defineCodes('server', 'SERVICE', {
  NOT_FOUND: { canonical: 'NOT_FOUND', http: 404, summary: 'no route has that path', hint: 'see /openapi.json for the routes' },
  METHOD_NOT_ALLOWED: {
    canonical: 'NOT_FOUND',
    http: 405,
    summary: 'the path exists, not with that method (the `Allow` header lists the methods)',
    hint: 'use one of the methods in the Allow header',
  },
  MALFORMED_JSON: { canonical: 'INVALID_ARGUMENTS', http: 400, summary: 'the body is not JSON', hint: 'send valid JSON (the message gives the position)' },
  UNSUPPORTED_MEDIA_TYPE: {
    canonical: 'INVALID_ARGUMENTS',
    http: 415,
    summary: 'a body that is not `application/json`',
    hint: 'send Content-Type: application/json',
  },
  BODY_TOO_LARGE: {
    canonical: 'LIMIT_EXCEEDED',
    http: 413,
    summary: 'the body is larger than the server accepts',
    hint: 'send a smaller body, or start the server with a larger --max-body',
  },
  INVALID_REQUEST: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: "the body, a query parameter, a path parameter or a header does not fit the route's schema",
    hint: 'fix the part the message names (issues lists every problem)',
  },
  UNAUTHORIZED: {
    canonical: 'UNAUTHENTICATED',
    http: 401,
    summary: 'the server has tokens and the request carries none of them (`Authorization: Bearer <token>`)',
    hint: 'send Authorization: Bearer <token>: the token gramkit serve printed and saved at start, or one of its --token-file',
  },
  CROSS_ORIGIN: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'a state-changing request without a token from a page of another origin (cross-site request forgery)',
    hint: "call from a program (no Origin header) or from the server's own pages, or send the token",
  },
  FORBIDDEN_HOST: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: 'the `Host` header names another server (DNS rebinding protection of a local server)',
    hint: 'call the server by the address it listens on, localhost or 127.0.0.1',
  },
  MISSING_SCOPE: {
    canonical: 'PERMISSION_DENIED',
    http: 403,
    summary: "the caller's token (or, on a server without tokens, its `X-Caller-Scopes`) lacks the scope the route needs",
    hint: 'use a token that grants the scope the message names (docs/security.md: tokens files)',
  },
  APPROVAL_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    http: 404,
    summary: 'no call waits for approval under that id (this server never had it, or it ended long ago)',
    hint: 'list the calls waiting with GET /api/v1/approvals',
  },
  APPROVAL_ENDED: {
    canonical: 'CONFLICT',
    http: 409,
    summary: 'the approval already ended: decided, expired, or cancelled by its caller (`outcome` says which)',
    hint: 'nothing to do: the call has its answer; list the calls still waiting with GET /api/v1/approvals',
  },
  EXPERIMENT_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    http: 404,
    summary:
      "no experiment of that name in the server's --experiments directory (a name is a results file's, `NAME.jsonl`, a regular file in the directory itself)",
    hint: 'list the experiments with GET /api/v1/experiments',
  },
  EXPERIMENT_UNFINISHED: {
    canonical: 'CONFLICT',
    http: 409,
    summary: 'the experiment has no report yet: it is still running, or it stopped before its last run (`runs` and `total` say how far it got)',
    hint: 'wait for gramkit ab to finish, or continue it with gramkit ab … --out FILE --resume',
  },
  INTERNAL: {
    canonical: 'INTERNAL',
    http: 500,
    summary: 'a bug: the request could not be answered (reported, never expected)',
    retryable: 'sometimes',
    hint: 'report it as a bug, with the request',
  },
});

export type ServiceCode = CodeOf<typeof ServiceCodes>;

/** The scopes a token grants, and the one each kind of route needs. */
export const Scopes = {
  READ: 'read_registry',
  INVOKE: 'invoke_tool',
  WRITE: 'write_registry',
  /** To see the calls waiting for approval and decide them. */
  APPROVE: 'approve_tool',
} as const;

export type Scope = (typeof Scopes)[keyof typeof Scopes];
