/**
 * Stable codes of the service layer (`SERVICE_` prefix): problems with a request before it
 * reaches the catalog. Every problem+json body carries one of these or a `CATALOG_…` code;
 * docs/service.md lists each with its HTTP status.
 */
export const ServiceCodes = {
  /** No route has that path. */
  NOT_FOUND: 'SERVICE_NOT_FOUND',
  /** The path exists, not with that method (the `Allow` header lists the methods). */
  METHOD_NOT_ALLOWED: 'SERVICE_METHOD_NOT_ALLOWED',
  /** The body is not JSON. */
  MALFORMED_JSON: 'SERVICE_MALFORMED_JSON',
  /** A body that is not `application/json`. */
  UNSUPPORTED_MEDIA_TYPE: 'SERVICE_UNSUPPORTED_MEDIA_TYPE',
  /** The body is larger than the server accepts. */
  BODY_TOO_LARGE: 'SERVICE_BODY_TOO_LARGE',
  /** The body, a query parameter, a path parameter or a header does not fit the route's schema. */
  INVALID_REQUEST: 'SERVICE_INVALID_REQUEST',
  /** The server has a token and the request does not carry it (`Authorization: Bearer <token>`). */
  UNAUTHORIZED: 'SERVICE_UNAUTHORIZED',
  /** The `Host` header names another server (DNS rebinding protection of a local server). */
  FORBIDDEN_HOST: 'SERVICE_FORBIDDEN_HOST',
  /** The server requires scopes and `X-Caller-Scopes` lacks the route's. */
  MISSING_SCOPE: 'SERVICE_MISSING_SCOPE',
  /** A bug: the request could not be answered (reported, never expected). */
  INTERNAL: 'SERVICE_INTERNAL',
} as const;

export type ServiceCode = (typeof ServiceCodes)[keyof typeof ServiceCodes];

/** The scopes of seed 002's `X-Caller-Scopes`, and the one writes need. */
export const Scopes = {
  READ: 'read_registry',
  INVOKE: 'invoke_tool',
  WRITE: 'write_registry',
} as const;

export type Scope = (typeof Scopes)[keyof typeof Scopes];
