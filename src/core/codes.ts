/**
 * Error and diagnostic codes, in two tiers (the pattern of gRPC and Google's API error model):
 *
 * - **Canonical codes** (`CANONICAL_CODES`: `TIMEOUT`, `NOT_FOUND`, `INVALID_PATH`, ...): a small,
 *   fixed set, each with one meaning, whether retrying helps and an HTTP status. A failure's
 *   `error.code` is always one of them, on every surface (a client written to the design matches
 *   on these).
 * - **Precise codes** (`TOOL_TIMEOUT`, `BUILTIN_INVALID_PATH`, `CATALOG_TOOL_NOT_FOUND`): each layer
 *   defines its own in one registry (`<layer>/codes.ts`) with `defineCodes`, which gives typed
 *   constants (`ToolCodes.TIMEOUT` is `'TOOL_TIMEOUT'`) and records, for each code, its canonical
 *   code, what it means, whether retrying can help and what to do. A failure carries its precise
 *   code in `error.reason`. Every precise code starts with its layer's prefix (`GRAM_`, `SPEC_`,
 *   `TOOL_`, `NET_`, `POLICY_`, `HTTP_`, `COMMAND_`, `IMPL_`, `BUILTIN_`, `AGENT_`, `MCP_`,
 *   `ADAPTER_`, `CATALOG_`, `SERVICE_`, `PROJECT_`, `CLI_`), so one code never means two things. Diagnostics
 *   (`GRAM_`, `SPEC_`) are not failures of a result: they keep their precise code in `code`.
 *
 * docs/errors.md lists both tiers and the mapping; a test keeps it in step with the registries.
 * Code outside gramkit (a user's tool implementation) may use codes of its own: any SCREAMING_SNAKE
 * string, whose canonical code is `EXECUTION_ERROR` (or itself, when it is canonical).
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Whether retrying the same work can help: `true`, `false`, or `'sometimes'` (the error says, in `retryable`). */
export type Retry = boolean | 'sometimes';

/** What a canonical code means (the table of `CANONICAL_CODES`). */
export interface CanonicalSpec {
  readonly summary: string;
  readonly retryable: Retry;
  /** The HTTP status of a response that fails with it. */
  readonly http: number;
}

/**
 * The canonical codes: every failure's `error.code` is one of these. The design's codes
 * (`INVALID_PATH`, `FILE_NOT_FOUND`, `PERMISSION_DENIED`, `TIMEOUT`, `EXECUTION_ERROR`) and the few
 * the toolkit needs besides. A fixed set: a new precise code chooses one of them.
 */
export const CANONICAL_CODES = Object.freeze({
  INVALID_ARGUMENTS: { http: 400, retryable: false, summary: "the call's arguments (or the request) are not what the tool or the route accepts" },
  INVALID_PATH: { http: 400, retryable: false, summary: 'a path outside the workspace, absolute, malformed, or of the wrong kind (a directory for a file)' },
  INVALID_OUTPUT: { http: 500, retryable: false, summary: 'the tool returned something its contract forbids (not JSON data, not its output schema)' },
  INVALID_CONFIGURATION: {
    http: 500,
    retryable: false,
    summary: 'a definition is not usable: a specification, a tool, a library, an option, a configuration (found when loading, binding or checking)',
  },
  FILE_NOT_FOUND: { http: 404, retryable: false, summary: 'a file or directory does not exist' },
  NOT_FOUND: { http: 404, retryable: false, summary: 'something named does not exist: a tool, a bundle, a route, a program, an approval' },
  CONFLICT: {
    http: 409,
    retryable: false,
    summary: 'the call conflicts with what exists: a name or version taken, a file that exists, a directory not empty, an approval already decided',
  },
  FAILED_PRECONDITION: {
    http: 409,
    retryable: false,
    summary:
      'the system is not in the state the call needs (a tool disabled or not installed here, a sandbox missing, a secret not set): an operator must change it',
  },
  PERMISSION_DENIED: {
    http: 403,
    retryable: false,
    summary: 'the system, the operator or the service refused access (file permissions, a host not allowed, a missing scope, a read-only record)',
  },
  UNAUTHENTICATED: { http: 401, retryable: false, summary: 'the request carries no valid credentials' },
  DENIED: { http: 403, retryable: false, summary: 'a policy refused the call (a permission, the safety level, a rule, a person who did not approve)' },
  APPROVAL_REQUIRED: { http: 403, retryable: false, summary: 'the call needs the approval of a person, and no one can give it here' },
  RATE_LIMITED: { http: 429, retryable: true, summary: 'too many calls for a limit on their rate: wait, then call again' },
  LIMIT_EXCEEDED: {
    http: 413,
    retryable: false,
    summary: 'a limit of size or count was reached (a result, a response or an output too large; too many calls in a turn or steps in a run)',
  },
  TIMEOUT: { http: 504, retryable: true, summary: 'the work took longer than its time limit' },
  CANCELLED: { http: 499, retryable: false, summary: 'the caller cancelled the work (aborted it, or a stop condition ended it)' },
  UNAVAILABLE: {
    http: 503,
    retryable: true,
    summary: 'something the work depends on cannot be reached or failed for now: the network, the store, a model API, an MCP server',
  },
  EXECUTION_ERROR: {
    http: 500,
    retryable: 'sometimes',
    summary: "the tool's work failed: it threw, the program exited with a failure, the server it calls answered with an error",
  },
  INTERNAL: { http: 500, retryable: 'sometimes', summary: 'a bug, in gramkit or in code it was given' },
} as const satisfies Readonly<Record<string, CanonicalSpec>>);

/** A canonical code (`TIMEOUT`, `NOT_FOUND`, ...): the `code` of every failure. */
export type CanonicalCode = keyof typeof CANONICAL_CODES;

/** What a registry says about one code. */
export interface CodeSpec {
  /** Its canonical code: what a failure with it carries in `code` (the precise code goes in `reason`). */
  readonly canonical: CanonicalCode;
  /** What it means, in one line. */
  readonly summary: string;
  /** Whether retrying can help (default `false`). */
  readonly retryable?: Retry;
  /** What to do about it. */
  readonly hint: string;
  /** `error` (default), `warning` or `info`, for diagnostic codes that are not errors. */
  readonly severity?: 'error' | 'warning' | 'info';
  /** The HTTP status of a response that fails with it (the service's problems; a refused REST invoke). */
  readonly http?: number;
}

/** A registry entry of a registry whose codes share one canonical code (diagnostics). */
export type DiagnosticCodeSpec = Omit<CodeSpec, 'canonical'> & { readonly canonical?: CanonicalCode };

export interface CodeInfo {
  readonly code: string;
  /** Its canonical code. */
  readonly canonical: CanonicalCode;
  /** The layer that detects it (`gram`, `library`, `tools/http`, ...). */
  readonly layer: string;
  readonly summary: string;
  readonly retryable: Retry;
  readonly hint: string;
  readonly severity: 'error' | 'warning' | 'info';
  /** The HTTP status of a response that fails with it, when it has one. */
  readonly http?: number;
}

/** The constants of a registry: `{TIMEOUT: 'TOOL_TIMEOUT', ...}`. */
export type Codes<P extends string, T> = { readonly [K in keyof T & string]: `${P}_${K}` };

/** The union of the codes of a registry: `CodeOf<typeof ToolCodes>`. */
export type CodeOf<C> = C[keyof C];

/** One registry: its layer, its prefix and its codes in the order they were defined. */
export interface Registry {
  readonly layer: string;
  readonly prefix: string;
  readonly codes: ReadonlyArray<CodeInfo>;
}

// -------------------------------------------------------------------------------------------------
// state
// -------------------------------------------------------------------------------------------------

const byCode = new Map<string, CodeInfo>();
const defined: Registry[] = [];

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * Defines the codes of a layer: `defineCodes('library', 'TOOL', {TIMEOUT: {canonical: 'TIMEOUT',
 * summary, retryable, hint}})` gives `{TIMEOUT: 'TOOL_TIMEOUT'}` (frozen) and records what each
 * code means and its canonical code (each entry must choose one). A registry of diagnostics may
 * give one canonical code for all its entries instead (`{canonical: 'INVALID_CONFIGURATION'}`). A
 * layer may define several tables under longer prefixes (`SPEC_IMPORT_`); a code defined twice
 * throws when the module loads (a bug, caught by every test).
 */
export function defineCodes<const P extends string, const T extends Readonly<Record<string, CodeSpec>>>(layer: string, prefix: P, table: T): Codes<P, T>;
export function defineCodes<const P extends string, const T extends Readonly<Record<string, DiagnosticCodeSpec>>>(
  layer: string,
  prefix: P,
  table: T,
  defaults: { readonly canonical: CanonicalCode },
): Codes<P, T>;
export function defineCodes(
  layer: string,
  prefix: string,
  table: Readonly<Record<string, DiagnosticCodeSpec>>,
  defaults?: { readonly canonical: CanonicalCode },
): Readonly<Record<string, string>> {
  const constants: Record<string, string> = {};
  const infos: CodeInfo[] = [];
  for (const [key, spec] of Object.entries(table)) {
    const code = `${prefix}_${key}`;
    if (!/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(code)) throw new Error(`defineCodes: ${JSON.stringify(code)} is not a SCREAMING_SNAKE code`);
    if (byCode.has(code) || isCanonicalCode(code)) throw new Error(`defineCodes: ${code} is defined twice`);
    const canonical = spec.canonical ?? defaults?.canonical;
    if (canonical === undefined || !isCanonicalCode(canonical)) throw new Error(`defineCodes: ${code} has no canonical code`);
    const info: CodeInfo = {
      code,
      canonical,
      layer,
      summary: spec.summary,
      retryable: spec.retryable ?? false,
      hint: spec.hint,
      severity: spec.severity ?? 'error',
      ...(spec.http !== undefined ? { http: spec.http } : {}),
    };
    byCode.set(code, info);
    infos.push(info);
    constants[key] = code;
  }
  defined.push({ layer, prefix, codes: infos });
  return Object.freeze(constants);
}

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether a string is a canonical code. */
export const isCanonicalCode = (code: string): code is CanonicalCode => Object.prototype.hasOwnProperty.call(CANONICAL_CODES, code);

/**
 * The canonical code of a code: a registered precise code's (`TOOL_TIMEOUT` → `TIMEOUT`), a
 * canonical code's own, and `EXECUTION_ERROR` for any other (an implementation's own code).
 */
export const canonicalOf = (code: string): CanonicalCode => byCode.get(code)?.canonical ?? (isCanonicalCode(code) ? code : 'EXECUTION_ERROR');

/** What the registry of a code says about it; undefined for a code no loaded registry defines. */
export const codeInfo = (code: string): CodeInfo | undefined => byCode.get(code);

/** The registries loaded so far, in the order they were defined. */
export const registries = (): ReadonlyArray<Registry> => defined;

/**
 * The HTTP status its registry gives a precise code, or `undefined` (a refusal has one: `POLICY_DENIED`
 * 403, `TOOL_INVALID_ARGUMENTS` 400; a tool's own failure has none and is a 200 `{ok: false}`).
 */
export const httpStatusOf = (code: string): number | undefined => byCode.get(code)?.http;

/** Whether a code can be retried according to its registry (`'sometimes'` counts as no). */
export const retryableCode = (code: string): boolean => byCode.get(code)?.retryable === true;
