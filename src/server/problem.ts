/**
 * Errors as RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`,
 * `detail`, and gramkit's codes: `code`, the canonical code (`NOT_FOUND`, `PERMISSION_DENIED`, ...),
 * and `reason`, the precise one (a `SERVICE_…`, `CATALOG_…`, `POLICY_…` or `TOOL_…` constant,
 * which also names the `type`), with the diagnostics or details behind it as extension members.
 */
import type { CatalogError } from '../catalog/result.js';
import '../catalog/codes.js';
import { CANONICAL_CODES, type CanonicalCode, canonicalOf, codeInfo, httpStatusOf, registries } from '../core/codes.js';
import type { Diagnostic } from '../core/diagnostic.js';
import './codes.js';

export const PROBLEM_TYPE_BASE = 'https://gramkit.dev/problems/';

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The canonical code. */
  readonly code: CanonicalCode;
  /** The precise code. */
  readonly reason: string;
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

/** The statuses the registry (`http`) gives the codes of a layer. */
const statusesOf = (layer: string): Readonly<Record<string, number>> =>
  Object.freeze(
    Object.fromEntries(
      registries()
        .filter((r) => r.layer === layer)
        .flatMap((r) => r.codes.flatMap((c) => (c.http !== undefined ? [[c.code, c.http]] : []))),
    ),
  );

/** The HTTP status of each catalog code (from its registry entry). */
export const CATALOG_STATUS: Readonly<Record<string, number>> = statusesOf('catalog');

/** The HTTP status of each service code (from its registry entry). */
export const SERVICE_STATUS: Readonly<Record<string, number>> = statusesOf('server');

/** The members of a problem that extensions may not replace. */
const CORE = new Set(['type', 'title', 'status', 'detail', 'code', 'reason', 'instance']);

const diagnosticView = (d: Diagnostic): Readonly<Record<string, unknown>> => ({
  code: d.code,
  severity: d.severity,
  message: d.message,
  ...(d.hint !== undefined ? { hint: d.hint } : {}),
});

/** A problem from its precise code (`reason`): its status from the code's registry entry, else its canonical code's. */
export const problem = (reason: string, detail: string, extensions: Readonly<Record<string, unknown>> = {}): Problem => {
  const code = canonicalOf(reason);
  const status = httpStatusOf(reason) ?? CANONICAL_CODES[code].http;
  const extra = Object.fromEntries(Object.entries(extensions).filter(([k]) => !CORE.has(k)));
  // a code whose registry says retrying helps (the store is down) says so to the client
  const retryable = codeInfo(reason)?.retryable === true ? { retryable: true } : {};
  return {
    type: `${PROBLEM_TYPE_BASE}${reason.toLowerCase().replace(/_/g, '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    reason,
    ...retryable,
    ...extra,
  };
};

/** A catalog error as a problem: its diagnostics and details as extensions. */
export const catalogProblem = (e: CatalogError): Problem =>
  problem(e.reason, e.message, {
    ...(e.diagnostics !== undefined ? { diagnostics: e.diagnostics.map(diagnosticView) } : {}),
    ...(e.details !== undefined ? e.details : {}),
  });

export const warningsView = (ds: ReadonlyArray<Diagnostic>): ReadonlyArray<Readonly<Record<string, unknown>>> => ds.map(diagnosticView);

/** An answer as it goes on the wire: status, headers and body text (both of the server's paths write it; service.ts). */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A problem as an answer (`application/problem+json`, its status). */
export const problemAnswer = (p: Problem, headers: Readonly<Record<string, string>> = {}): Answer => ({
  status: p.status,
  headers: { 'content-type': 'application/problem+json; charset=utf-8', ...(p.status === 503 ? { 'retry-after': '1' } : {}), ...headers },
  body: JSON.stringify(p),
});

/** An answer as a web-standard response. */
export const answerResponse = (a: Answer): Response => new Response(a.body, { status: a.status, headers: a.headers });

/** A problem as a response (`application/problem+json`, its status). */
export const problemResponse = (p: Problem, headers: Readonly<Record<string, string>> = {}): Response => answerResponse(problemAnswer(p, headers));
