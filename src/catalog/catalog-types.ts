/**
 * The catalog's public types: its options, queries, views and operations (`Catalog`), apart from
 * the implementation (catalog.ts) so the modules behind it can share them.
 */
import type { Step } from '../library/invoker.js';
import type { Diagnostic } from '../core/diagnostic.js';
import type { JsonObject } from '../core/json-schema.js';
import type { SecretProvider } from '../core/redact.js';
import type { SecretHosts } from '../tools/http/http-tool.js';
import type { WebSearchBackend } from '../tools/builtin/web-search-backend.js';
import type { BoundTool } from '../library/bind.js';
import type { ToolResult } from '../library/result.js';
import type { ProgressReporter, Tool } from '../library/tool.js';
import type { ToolLibrary } from '../library/tool-library.js';
import type { HttpDispatcher } from '../net/dispatcher.js';
import type { Approver } from '../policy/approvals.js';
import type { Policies } from '../policy/evaluate.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import type { CatalogBackend } from './stores/backend.js';
import type { CatalogListener } from './events.js';
import { fixedId } from './records/ids.js';
import type { ServedTool } from './served-names.js';
import type { RequestPrograms } from './program-guard.js';
import type { ToolRecord, UsageEntry } from './records/records.js';
import type { CatalogError, CatalogResult } from './result.js';

export interface CatalogOptions {
  readonly store: CatalogBackend;
  /** The directory built-in and command tools are confined to. */
  readonly workspace: string;
  /** Libraries loaded at start (`--library`): what `function` tools resolve to. */
  readonly functions?: ToolLibrary;
  /** The built-in tools (default: gramkit's, confined to `workspace`, `web_fetch` limited to `allowHosts`, `web_search` asking `webSearch`). */
  readonly builtins?: ReadonlyArray<Tool>;
  /** The backend of the default built-ins' `web_search` (without one it answers `BUILTIN_NOT_CONFIGURED`). */
  readonly webSearch?: WebSearchBackend;
  readonly secrets?: SecretProvider;
  /**
   * The hosts each secret is for (`gramkit serve --secret NAME@host,host`): a call sends it to
   * those hosts only. A secret bound to none serves only the operator's own tools: an HTTP tool a
   * request registers that names it is refused (`CATALOG_SECRET_REFUSED`).
   */
  readonly secretHosts?: SecretHosts;
  readonly dispatcher?: HttpDispatcher;
  /** The environment command tools pass their listed variables from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Hosts outbound tools may reach (HTTP tools' lists must be inside it); absent: each tool's own list. */
  readonly allowHosts?: ReadonlyArray<string>;
  /** Policies applied before each call (permissions from `ALLOWED_TOOL_PERMS`, rules). */
  readonly policies?: Policies;
  /** Answers calls that need approval; without one they are refused. */
  readonly approver?: Approver;
  /** The clock (tests move it). */
  readonly now?: () => number;
  /** Entries kept in each usage history (default 1000). */
  readonly historyCap?: number;
  /** How often usage is written to the store (default 250 ms). */
  readonly usageFlushMs?: number;
  /** How long a soft-deleted empty bundle is kept (default 2 days). */
  readonly reapAfterMs?: number;
}

export interface Page {
  readonly pageSize?: number;
  readonly pageToken?: string;
}

export interface BundleQuery extends Page {
  readonly bundleIDs?: ReadonlyArray<string>;
  readonly includeDisabled?: boolean;
}

export interface ToolQuery extends Page {
  readonly tags?: ReadonlyArray<string>;
  readonly bundleIDs?: ReadonlyArray<string>;
  readonly includeDisabled?: boolean;
  /** Only tools created by `system` or by an `agent`. */
  readonly createdBy?: 'system' | 'agent';
}

export interface SearchQuery extends Page {
  readonly q: string;
  readonly includeDisabled?: boolean;
}

export type BundleView = JsonObject;
export type ToolView = JsonObject;

export interface BundleList {
  readonly bundles: ReadonlyArray<BundleView>;
  readonly nextPageToken?: string;
}

export interface ToolList {
  readonly tools: ReadonlyArray<ToolView>;
  readonly nextPageToken?: string;
}

/** A tool named by its catalog key `<bundleID, slug, version>` or by an id (a registry id or a toolID). */
export type ToolRef = { readonly bundleID: string; readonly slug: string; readonly version: string } | { readonly id: string };

export interface InvokeOptions {
  readonly agentId?: string;
  readonly projectId?: string;
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  /** Told of the tool's progress reports (an MCP client's progress token). */
  readonly onProgress?: ProgressReporter;
  /** Answers this call's approval instead of the catalog's approver (an MCP client asked through elicitation). */
  readonly approver?: Approver;
  /** Steps of the caller's surface, run first (the service's scope check). */
  readonly steps?: ReadonlyArray<Step>;
}

export interface WriteOutcome<A> {
  readonly value: A;
  /** What changed on the way (keywords dropped from a schema, inferred types). */
  readonly warnings: ReadonlyArray<Diagnostic>;
}

export interface DiscoveryReport {
  readonly discovered: ReadonlyArray<string>;
  readonly existing: ReadonlyArray<string>;
  readonly skipped: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
}

export interface Catalog {
  /** `files` or `redis`, and where. */
  readonly store: { readonly kind: 'files' | 'redis'; readonly location: string };
  // bundles
  readonly putBundle: (bundleID: string, body: unknown) => Promise<CatalogResult<{ readonly bundle: BundleView; readonly created: boolean }>>;
  /** Bundles of an export, exactly as exported (id, switch, deletion, timestamps) in one transaction; a bundle whose id is stored already counts as existing. */
  readonly importBundles: (bodies: ReadonlyArray<unknown>) => Promise<CatalogResult<ImportReport>>;
  readonly patchBundle: (bundleID: string, body: unknown) => Promise<CatalogResult<BundleView>>;
  readonly deleteBundle: (bundleID: string) => Promise<CatalogResult<BundleView>>;
  readonly getBundle: (bundleID: string) => Promise<CatalogResult<BundleView>>;
  readonly listBundles: (query?: BundleQuery) => Promise<CatalogResult<BundleList>>;
  /** The bundle with that id or (live) slug. */
  readonly findBundle: (ref: string) => Promise<CatalogResult<BundleView>>;
  // tools
  /** Creates a tool. `keepIdentity`: keep the body's toolID and timestamps (imports). `programs`: the write comes from a request (program-guard.ts). */
  readonly putTool: (
    bundleID: string,
    slug: string,
    version: string,
    body: unknown,
    options?: { readonly keepIdentity?: boolean; readonly programs?: RequestPrograms },
  ) => Promise<CatalogResult<WriteOutcome<ToolView>>>;
  /** What `putTool` would say of a body, without writing it: the errors that would refuse it and the write's warnings. */
  readonly checkTool: (
    body: unknown,
    options?: { readonly slug?: string; readonly version?: string; readonly programs?: RequestPrograms },
  ) => ReadonlyArray<Diagnostic>;
  /**
   * Tools of an export (ids and timestamps kept) in one transaction; a tool whose id is stored already counts as existing.
   * Each item gives its tool as a `body` (decoded as `putTool` decodes one) or as the `record` `decodeStoredTool` decoded
   * (an export's own form: not decoded again; its content is checked as a write's).
   */
  readonly importTools: (items: ReadonlyArray<ImportItem>) => Promise<CatalogResult<ImportReport>>;
  readonly patchTool: (ref: ToolRef, body: unknown) => Promise<CatalogResult<ToolView>>;
  readonly deleteTool: (ref: ToolRef) => Promise<CatalogResult<ToolView>>;
  readonly getTool: (ref: ToolRef) => Promise<CatalogResult<ToolView>>;
  /** A tool in gram: `[slug:Tool {description, version, …, http: {…}} | signature]`. */
  readonly toolGram: (ref: ToolRef) => Promise<CatalogResult<string>>;
  readonly listTools: (query?: ToolQuery) => Promise<CatalogResult<ToolList>>;
  readonly searchTools: (query: SearchQuery) => Promise<CatalogResult<ToolList>>;
  /** Runs a tool: `{ok, value}` or `{ok: false, error}` from the tool; a refusal before it runs is a catalog error. */
  readonly invokeTool: (ref: ToolRef, args: unknown, options?: InvokeOptions) => Promise<CatalogResult<ToolResult>>;
  /** The served tools as specifications (named by `servedTools`' rule), for agents. */
  readonly specifications: () => Promise<ReadonlyArray<{ readonly name: string; readonly record: ToolRecord; readonly spec: ToolSpecification }>>;
  /**
   * The enabled, available tools as `/mcp` and `run --catalog` serve them, each bundle's newest
   * version of a slug under one name: the slug for the bundle that owns it (the built-in bundle
   * for built-in names, else the bundle of its oldest record), `<bundle>__<slug>` for the others
   * (served-names.ts), after a sync. Only these slugs when given.
   */
  readonly servedTools: (slugs?: Iterable<string>) => Promise<ReadonlyArray<ServedTool>>;
  /**
   * `servedTools` on the state as it is, at once (no store round trip): the `/mcp` list, which
   * binds the slugs of the changes it was told of when it is next read (`tools()` is synchronous).
   */
  readonly servedNow: (slugs?: Iterable<string>) => ReadonlyArray<ServedTool>;
  /** Calls `listener` with the slugs whose served tools may have changed, after each change to a record. */
  readonly onServedChange: (listener: (slugs: ReadonlySet<string>) => void) => () => void;
  /**
   * The tool a record's implementation makes, bound to its specification (for `gramkit run --catalog`),
   * after a sync (cached until the record changes).
   */
  readonly boundTool: (ref: ToolRef) => Promise<CatalogResult<BoundTool>>;
  /** `boundTool` on the state as it is, at once (the `/mcp` list binding what `servedNow` gave it: no store round trip per tool). */
  readonly boundNow: (ref: ToolRef) => CatalogResult<BoundTool>;
  // the registry (Tool JSON under /api/v1)
  readonly registerTool: (
    body: unknown,
    options?: { readonly discovered?: boolean; readonly programs?: RequestPrograms },
  ) => Promise<CatalogResult<WriteOutcome<JsonObject>>>;
  readonly registryTools: (query?: { readonly createdBy?: 'system' | 'agent' }) => Promise<CatalogResult<ReadonlyArray<JsonObject>>>;
  readonly registryTool: (id: string) => Promise<CatalogResult<JsonObject>>;
  readonly deleteRegistryTool: (id: string) => Promise<CatalogResult<JsonObject>>;
  /**
   * Every stored tool but gramkit's built-ins as seed 002's Tool JSON, by id: what a Redis store
   * holds at `tool:<id>` for each id of `tools:registry`, and what `GET /api/tools` (the seed's
   * Monitor) lists.
   */
  readonly registryViews: (query?: { readonly createdBy?: 'system' | 'agent' }) => Promise<CatalogResult<ReadonlyArray<JsonObject>>>;
  /** Registers the built-in nucleus and the loaded libraries' functions that are not registered yet. */
  readonly discover: (options?: { readonly usable?: (builtin: string) => boolean }) => Promise<CatalogResult<DiscoveryReport>>;
  /** Registers each Tool JSON of a bootstrap document that is not registered yet (`{tools: […]}` or an array). */
  readonly bootstrap: (doc: unknown) => Promise<CatalogResult<DiscoveryReport>>;
  readonly usage: (query: { readonly agentId?: string; readonly limit?: number }) => Promise<CatalogResult<ReadonlyArray<UsageEntry>>>;
  // events and maintenance
  readonly subscribe: (listener: CatalogListener) => () => void;
  /** Picks up what other processes wrote (and emits their changes). */
  readonly sync: () => Promise<CatalogResult<void>>;
  /** Removes soft-deleted bundles older than the grace period that hold no tool. */
  readonly reap: () => Promise<CatalogResult<ReadonlyArray<string>>>;
  /** Writes pending usage to the store. */
  readonly flush: () => Promise<void>;
  /**
   * Fills the search index that a load (an open, a large sync, an import's batch) leaves to fill,
   * a slice at a time between other work, now and after every later load. Without it, the first
   * search fills it (a search always sees every tool). `gramkit serve` calls it once it listens.
   */
  readonly indexInBackground: () => void;
  /** Whether the store was found wiped (emptied under this process: Redis `FLUSHALL`): how often, when last, when restored. */
  readonly wipes: () => StoreWipes;
  /** Calls `listener` after the store was found wiped and the catalog emptied (`gramkit serve` bootstraps again). */
  readonly onWiped: (listener: () => Promise<void> | void) => () => void;
  /** Stored records that do not decode (skipped, never rewritten). */
  readonly problems: () => ReadonlyArray<{ readonly record: string; readonly diagnostics: ReadonlyArray<Diagnostic> }>;
  readonly close: () => Promise<void>;
}

/** What `Catalog.wipes` says. */
export interface StoreWipes {
  readonly count: number;
  readonly lastAt?: string;
  /** When the wipe listeners (the bootstrap) finished after the last wipe. */
  readonly restoredAt?: string;
}

/** A tool `importTools` writes: its key, and the tool as a body to decode or as a decoded stored record. */
export type ImportItem = { readonly bundleID: string; readonly slug: string; readonly version: string } & (
  | { readonly body: unknown }
  | { readonly record: ToolRecord }
);

/** What `importTools` (`importBundles`) did: records created, records already there, and each refusal by the item's index. */
export interface ImportReport {
  readonly created: number;
  readonly existing: number;
  readonly refused: ReadonlyArray<{ readonly index: number; readonly error: CatalogError }>;
}

/** The bundle of the tools registered through the registry API, `/api/v1/tools` (the same id in every process). */
export const REGISTRY_BUNDLE_ID = fixedId('bundle:registry');
