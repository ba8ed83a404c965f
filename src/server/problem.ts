/**
 * Errors as RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`,
 * `detail`, and gramkit's `code` (a stable `SERVICE_…` or `CATALOG_…` constant), with the
 * diagnostics or details behind it as extension members.
 */
import type { CatalogError } from '../catalog/result.js';
import { CatalogCodes } from '../catalog/codes.js';
import { codeInfo } from '../core/codes.js';
import type { Diagnostic } from '../core/diagnostic.js';
import { ServiceCodes } from './codes.js';

export const PROBLEM_TYPE_BASE = 'https://gramkit.dev/problems/';

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly [extension: string]: unknown;
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The HTTP status of each catalog code. */
export const CATALOG_STATUS: Readonly<Record<string, number>> = {
  [CatalogCodes.INVALID_SLUG]: 400,
  [CatalogCodes.INVALID_VERSION]: 400,
  [CatalogCodes.INVALID_ID]: 400,
  [CatalogCodes.INVALID_REGISTRY_ID]: 400,
  [CatalogCodes.INVALID_RECORD]: 400,
  [CatalogCodes.INVALID_SCHEMA]: 400,
  [CatalogCodes.INVALID_IMPL]: 400,
  [CatalogCodes.INVALID_GRAM]: 400,
  [CatalogCodes.UNKNOWN_BUILTIN]: 400,
  [CatalogCodes.EXEC_IMAGE_UNSUPPORTED]: 400,
  [CatalogCodes.KEY_MISMATCH]: 400,
  [CatalogCodes.PATCH_ONLY_ENABLED]: 400,
  [CatalogCodes.INVALID_PAGE_TOKEN]: 400,
  [CatalogCodes.INVALID_BOOTSTRAP]: 400,
  [CatalogCodes.INVALID_ARGUMENTS]: 400,
  [CatalogCodes.CONFLICT]: 409,
  [CatalogCodes.BUNDLE_NOT_FOUND]: 404,
  [CatalogCodes.TOOL_NOT_FOUND]: 404,
  [CatalogCodes.BUNDLE_DISABLED]: 409,
  [CatalogCodes.BUNDLE_DELETED]: 409,
  [CatalogCodes.TOOL_DISABLED]: 409,
  [CatalogCodes.TOOL_UNAVAILABLE]: 409,
  [CatalogCodes.BUILTIN_READ_ONLY]: 403,
  [CatalogCodes.NOT_AGENT_CREATED]: 403,
  [CatalogCodes.HOST_NOT_ALLOWED]: 403,
  [CatalogCodes.POLICY_DENIED]: 403,
  [CatalogCodes.APPROVAL_REQUIRED]: 403,
  [CatalogCodes.PROGRAM_REFUSED]: 403,
  [CatalogCodes.STORE_UNAVAILABLE]: 503,
  [CatalogCodes.STORE_CORRUPT]: 500,
};

/** The HTTP status of each service code. */
export const SERVICE_STATUS: Readonly<Record<string, number>> = {
  [ServiceCodes.NOT_FOUND]: 404,
  [ServiceCodes.METHOD_NOT_ALLOWED]: 405,
  [ServiceCodes.MALFORMED_JSON]: 400,
  [ServiceCodes.UNSUPPORTED_MEDIA_TYPE]: 415,
  [ServiceCodes.BODY_TOO_LARGE]: 413,
  [ServiceCodes.INVALID_REQUEST]: 400,
  [ServiceCodes.UNAUTHORIZED]: 401,
  [ServiceCodes.FORBIDDEN_HOST]: 403,
  [ServiceCodes.CROSS_ORIGIN]: 403,
  [ServiceCodes.MISSING_SCOPE]: 403,
  [ServiceCodes.APPROVAL_NOT_FOUND]: 404,
  [ServiceCodes.APPROVAL_ENDED]: 409,
  [ServiceCodes.INTERNAL]: 500,
};

/** The members of a problem that extensions may not replace. */
const CORE = new Set(['type', 'title', 'status', 'detail', 'code', 'instance']);

const diagnosticView = (d: Diagnostic): Readonly<Record<string, unknown>> => ({ code: d.code, severity: d.severity, message: d.message, ...(d.hint !== undefined ? { hint: d.hint } : {}) });

export const problem = (code: string, detail: string, extensions: Readonly<Record<string, unknown>> = {}): Problem => {
  const status = SERVICE_STATUS[code] ?? CATALOG_STATUS[code] ?? 500;
  const extra = Object.fromEntries(Object.entries(extensions).filter(([k]) => !CORE.has(k)));
  // a code whose registry says retrying helps (the store is down) says so to the client
  const retryable = codeInfo(code)?.retryable === true ? { retryable: true } : {};
  return { type: `${PROBLEM_TYPE_BASE}${code.toLowerCase().replace(/_/g, '-')}`, title: TITLES[status] ?? 'Error', status, detail, code, ...retryable, ...extra };
};

/** A catalog error as a problem: its diagnostics and details as extensions. */
export const catalogProblem = (e: CatalogError): Problem =>
  problem(e.code, e.message, {
    ...(e.diagnostics !== undefined ? { diagnostics: e.diagnostics.map(diagnosticView) } : {}),
    ...(e.details !== undefined ? e.details : {}),
  });

export const warningsView = (ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Readonly<Record<string, unknown>>> => ds.map(diagnosticView);

/** A problem as a response (`application/problem+json`, its status). */
export const problemResponse = (p: Problem, headers: Readonly<Record<string, string>> = {}): Response =>
  new Response(JSON.stringify(p), { status: p.status, headers: { 'content-type': 'application/problem+json; charset=utf-8', ...(p.status === 503 ? { 'retry-after': '1' } : {}), ...headers } });
