/**
 * Error and diagnostic codes: each layer defines its codes in one registry (`<layer>/codes.ts`)
 * with `defineCodes`, which gives typed constants (`ToolCodes.TIMEOUT` is `'TOOL_TIMEOUT'`) and
 * records, for each code, what it means, whether retrying can help and what to do. Every code
 * starts with its layer's prefix (`GRAM_`, `SPEC_`, `TOOL_`, `NET_`, `POLICY_`, `HTTP_`,
 * `COMMAND_`, `IMPL_`, `BUILTIN_`, `AGENT_`, `MCP_`, `ADAPTER_`, `CLI_`), so one code never means two things.
 * docs/errors.md lists every registered code; a test keeps the two in step.
 *
 * Code outside gramkit (a user's tool implementation) may use codes of its own: any SCREAMING_SNAKE
 * string. `codeInfo` knows only registered ones.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** Whether retrying the same work can help: `true`, `false`, or `'sometimes'` (the error says, in `retryable`). */
export type Retry = boolean | 'sometimes';

/** What a registry says about one code. */
export interface CodeSpec {
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

export interface CodeInfo {
  readonly code: string;
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
 * Defines the codes of a layer: `defineCodes('library', 'TOOL', {TIMEOUT: {summary, retryable,
 * hint}})` gives `{TIMEOUT: 'TOOL_TIMEOUT'}` (frozen) and records what each code means. A layer
 * may define several tables under longer prefixes (`SPEC_IMPORT_`); a code defined twice throws
 * when the module loads (a bug, caught by every test).
 */
export const defineCodes = <const P extends string, const T extends Readonly<Record<string, CodeSpec>>>(layer: string, prefix: P, table: T): Codes<P, T> => {
  const constants: Record<string, string> = {};
  const infos: CodeInfo[] = [];
  for (const [key, spec] of Object.entries(table)) {
    const code = `${prefix}_${key}`;
    if (!/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(code)) throw new Error(`defineCodes: ${JSON.stringify(code)} is not a SCREAMING_SNAKE code`);
    if (byCode.has(code)) throw new Error(`defineCodes: ${code} is defined twice`);
    const info: CodeInfo = {
      code,
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
  return Object.freeze(constants) as Codes<P, T>;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** What the registry of a code says about it; undefined for a code no loaded registry defines. */
export const codeInfo = (code: string): CodeInfo | undefined => byCode.get(code);

/** The registries loaded so far, in the order they were defined. */
export const registries = (): ReadonlyArray<Registry> => defined;

/** The HTTP status its registry gives a code, or `undefined`. */
export const httpStatusOf = (code: string): number | undefined => byCode.get(code)?.http;

/** Whether a code can be retried according to its registry (`'sometimes'` counts as no). */
export const retryableCode = (code: string): boolean => byCode.get(code)?.retryable === true;
