/**
 * Options of the built-in tools: the workspace, the web allowlist, the search backend, the
 * sandbox and the limits. `resolveBuiltinOptions` fills the defaults once.
 */
import * as path from 'node:path';
import type { RuleEngine } from '../../policy/rules.js';
import { defaultRuleEngine } from '../../policy/default-rules.js';
import type { WebSearchBackend } from './web-search-backend.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/**
 * How `run_code` and `shell` run programs.
 * - `bwrap` (the default): inside a bubblewrap sandbox (no network, only the workspace writable,
 *   system directories read-only, nothing else of the host visible). When bubblewrap is missing or
 *   cannot create its namespaces, the tools fail with `SANDBOX_UNAVAILABLE`: nothing runs outside.
 * - `none`: directly on the host, in the workspace, with a clean environment, resource limits, a
 *   timeout and process-group kill, but **no isolation** (network and the whole file system are
 *   reachable). An explicit opt-in for machines without bubblewrap.
 */
export type SandboxMode = 'bwrap' | 'none';

export interface SandboxOptions {
  readonly mode?: SandboxMode;
  /** The bubblewrap program. Default: the first of /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap. */
  readonly bwrapPath?: string;
  /** Let sandboxed programs use the network (default false: a network namespace with no interface but loopback). */
  readonly network?: boolean;
  /** More host directories to show read-only inside the sandbox (absolute paths), e.g. a toolchain. */
  readonly readOnlyPaths?: ReadonlyArray<string>;
}

export interface BuiltinLimits {
  /** Largest file `read_file` returns, in bytes (default 1 MiB). */
  readonly readMaxBytes?: number;
  /** Largest content `write_file` accepts, in bytes once decoded (default 10 MiB). */
  readonly writeMaxBytes?: number;
  /** Most entries `list_directory` returns (default 10,000; beyond, `truncated` is true). */
  readonly listMaxEntries?: number;
  /** Default timeout of `run_code`, in seconds (default 60). */
  readonly runCodeTimeoutSeconds?: number;
  /** Largest timeout a `run_code` call may ask for, in seconds (default 600). */
  readonly runCodeMaxTimeoutSeconds?: number;
  /** Default timeout of `shell`, in seconds (default 30). */
  readonly shellTimeoutSeconds?: number;
  /** Largest timeout a `shell` call may ask for, in seconds (default 300). */
  readonly shellMaxTimeoutSeconds?: number;
  /** CPU time of a program, in seconds (`RLIMIT_CPU`; default: its timeout). */
  readonly cpuSeconds?: number;
  /** Address space of each process, in bytes (`RLIMIT_AS`; default 2 GiB). */
  readonly memoryBytes?: number;
  /** Largest file a program may write, in bytes (`RLIMIT_FSIZE`; default 256 MiB). */
  readonly fileSizeBytes?: number;
  /** Processes of the user (`RLIMIT_NPROC`; default 512; not enforced by Linux when the host user is root). */
  readonly maxProcesses?: number;
  /** stdout and stderr of a program together, in bytes (default 1 MiB; beyond, the program is killed and the result `truncated`). */
  readonly outputMaxBytes?: number;
  /** Largest `web_fetch` response body, in bytes (default 5 MiB). */
  readonly fetchMaxBytes?: number;
  /** Default and largest `web_fetch` timeout, in seconds (default 30). */
  readonly fetchTimeoutSeconds?: number;
  /** Redirects `web_fetch` follows (default 5), each checked against the allowlist. */
  readonly fetchMaxRedirects?: number;
  /** Time a `text_search` pattern may run, in milliseconds (default 2,000). */
  readonly searchTimeoutMs?: number;
  /** Bytes of text `text_search` reads (default 20 MiB over all files). */
  readonly searchMaxBytes?: number;
  /** Most matches `text_search` returns (default 1,000; beyond, `truncated` is true). */
  readonly searchMaxMatches?: number;
  /** Largest JSON text `json_parse` reads, in bytes (default 10 MiB). */
  readonly jsonMaxBytes?: number;
  /** Largest `json_parse` result once pretty-printed, in characters (default 4 MiB; beyond, `BUILTIN_TOO_LARGE`). */
  readonly jsonMaxOutputBytes?: number;
}

export interface BuiltinOptions {
  /** The workspace root: every path of every tool is confined to it. Relative: from the current directory. */
  readonly workspace: string;
  /** Hosts `web_fetch` may reach (exact names, `*.example.com`, or `host:port`). Default: none. */
  readonly allowedHosts?: ReadonlyArray<string>;
  /** The `web_search` backend. Without one, `web_search` fails with `NOT_CONFIGURED`. */
  readonly webSearch?: WebSearchBackend;
  readonly sandbox?: SandboxOptions;
  /** Interpreters for `run_code` (default: /usr/bin/python3 or /usr/local/bin/python3, /bin/bash). */
  readonly interpreters?: { readonly python?: string; readonly bash?: string };
  /**
   * Rules `shell` (and bash `run_code`) check before running, in addition to any policy evaluated
   * by the caller (default: `defaultRuleEngine`). Pass `emptyRuleEngine` to turn the check off.
   */
  readonly rules?: RuleEngine;
  readonly limits?: BuiltinLimits;
}

export interface ResolvedBuiltinOptions {
  readonly workspace: string;
  readonly allowedHosts: ReadonlyArray<string>;
  readonly webSearch: WebSearchBackend | undefined;
  readonly sandbox: Required<Omit<SandboxOptions, 'bwrapPath'>> & { readonly bwrapPath: string | undefined };
  readonly interpreters: { readonly python: string | undefined; readonly bash: string | undefined };
  readonly rules: RuleEngine;
  readonly limits: Required<Omit<BuiltinLimits, 'cpuSeconds'>> & { readonly cpuSeconds: number | undefined };
}

export const DEFAULT_LIMITS: ResolvedBuiltinOptions['limits'] = {
  readMaxBytes: 1024 * 1024,
  writeMaxBytes: 10 * 1024 * 1024,
  listMaxEntries: 10_000,
  runCodeTimeoutSeconds: 60,
  runCodeMaxTimeoutSeconds: 600,
  shellTimeoutSeconds: 30,
  shellMaxTimeoutSeconds: 300,
  cpuSeconds: undefined,
  memoryBytes: 2 * 1024 * 1024 * 1024,
  fileSizeBytes: 256 * 1024 * 1024,
  maxProcesses: 512,
  outputMaxBytes: 1024 * 1024,
  fetchMaxBytes: 5 * 1024 * 1024,
  fetchTimeoutSeconds: 30,
  fetchMaxRedirects: 5,
  searchTimeoutMs: 2000,
  searchMaxBytes: 20 * 1024 * 1024,
  searchMaxMatches: 1000,
  jsonMaxBytes: 10 * 1024 * 1024,
  jsonMaxOutputBytes: 4 * 1024 * 1024,
};

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

export const resolveBuiltinOptions = (options: BuiltinOptions): ResolvedBuiltinOptions => ({
  workspace: path.resolve(options.workspace),
  allowedHosts: options.allowedHosts ?? [],
  webSearch: options.webSearch,
  sandbox: {
    mode: options.sandbox?.mode ?? 'bwrap',
    bwrapPath: options.sandbox?.bwrapPath,
    network: options.sandbox?.network ?? false,
    readOnlyPaths: options.sandbox?.readOnlyPaths ?? [],
  },
  interpreters: { python: options.interpreters?.python, bash: options.interpreters?.bash },
  rules: options.rules ?? defaultRuleEngine,
  limits: { ...DEFAULT_LIMITS, ...definedOnly(options.limits ?? {}) },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
