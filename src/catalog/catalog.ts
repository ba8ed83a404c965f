/**
 * The tool catalog: bundles and tools (keyed by `<bundle, slug, version>`) and the registry view
 * of the same tools (Tool JSON, keyed by registry id), over a store
 * (flat files or Redis), with search, usage and events. `openCatalog` loads the store; every
 * operation then syncs from the store's journal first (so it sees what other processes wrote) and
 * returns `{ok: true, value}` or `{ok: false, error: {code: CATALOG_…, message}}`, never rejecting.
 *
 * The parts: synced-state.ts (the records in memory, in step with the store), rules.ts (the
 * catalog's rules as pure decisions, run inside the store's transaction), listing.ts (lists, search
 * pages), implementation.ts and gate.ts (invocation through the library's pipeline, policies in
 * one place), usage-recorder.ts (usage off the response path).
 */
import { isLeft, left, right, isRight } from '../core/either.js';
import { callId } from '../core/call-id.js';
import { type Diagnostic, error, warning } from '../core/diagnostic.js';
import type { JsonObject } from '../core/json-schema.js';
import type { BoundTool } from '../library/bind.js';
import type { InvocationObserver } from '../library/events.js';
import { createInvoker, type Step } from '../library/invoker.js';
import { CallLock, serialise } from '../library/serial.js';
import { approvalRequirement } from '../policy/approvals.js';
import { gateStep } from '../policy/gate-step.js';
import type { ToolResult } from '../library/result.js';
import type { Tool } from '../library/tool.js';
import { emptyToolLibrary, listTools as libraryTools } from '../library/tool-library.js';
import type { ToolSpecification } from '../specification/tool-spec.js';
import { builtinTools } from '../tools/builtin/builtin-tools.js';
import { BUILTIN_TOOL_NAMES } from '../tools/builtin/specifications.js';
import { BUILTIN_BUNDLE_ID } from './records/builtin-records.js';
import { contentEnvironment } from './records/convert.js';
import { decodeBundleWrite, decodeEnabledPatch, decodeStoredBundle, encodeBundle } from './records/bundle-json.js';
import {
  type BundleList,
  type BundleQuery,
  type BundleView,
  type Catalog,
  type CatalogOptions,
  type DiscoveryReport,
  type ImportItem,
  type ImportReport,
  type InvokeOptions,
  REGISTRY_BUNDLE_ID,
  type SearchQuery,
  type ToolList,
  type ToolQuery,
  type ToolRef,
  type ToolView,
  type WriteOutcome,
} from './catalog-types.js';
import { CatalogCodes } from './codes.js';
import { type ContentEnvironment, contentSpecification, contentToGram } from './records/content.js';
import type { CatalogEvent } from './events.js';
import { isRegistryId, isUuidV7, parseId } from './records/ids.js';
import { type Availability, availability, type Implementations, materialize } from './records/implementation.js';
import { bundlePage, isLive, searchPage, toolPage } from './listing.js';
import { nucleusToolJson } from './records/nucleus.js';
import { type BundleRecord, NO_USAGE, type ToolRecord, type UsageCount, type UsageEntry } from './records/records.js';
import { decodeRegistryTool, encodeRegistryTool, hasRegistryView, registryIdOf, seedRegistryTool } from './records/registry-json.js';
import { type CatalogError, type CatalogResult, catalogCodes, failure, invalid, success } from './result.js';
import {
  type Decided,
  decideCreateTool,
  decideImportBundles,
  decideImportTools,
  decideDeleteBundle,
  decideDeleteTool,
  decidePatchBundle,
  decidePatchTool,
  decidePutBundle,
  decideReap,
} from './rules.js';
import { type NamingState, type ServedTool, servedOfSlug } from './served-names.js';
import { guardRequestWrite, type RequestPrograms } from './program-guard.js';
import { parseSlug, parseVersion } from './records/slug.js';
import { storeFailure, SyncedState } from './synced-state.js';
import { decodeToolJson, encodeTool, storedToolWrite, type ToolWrite } from './records/tool-json.js';
import { UsageRecorder } from './usage-recorder.js';
import { toolKind } from '../tools/kinds.js';

export * from './catalog-types.js';

const DAY = 24 * 60 * 60 * 1000;

/** The slugs of gramkit's built-in tools: served only from the built-in bundle. */
/** (From the names, not the specifications: parsing builtins.gram when the module loads cost every command importing it ≈ 50 ms.) */
const BUILTIN_SLUGS: ReadonlySet<string> = new Set(BUILTIN_TOOL_NAMES.map((name) => name.replace(/_/g, '-')));

/** Loads a catalog from its store. Fails with `CATALOG_STORE_UNAVAILABLE` when the store cannot be read. */
export const openCatalog = async (options: CatalogOptions): Promise<CatalogResult<Catalog>> => {
  const c = new CatalogImpl(options);
  const loaded = await c.store.load();
  return loaded.ok ? success(c.api()) : loaded;
};

class CatalogImpl {
  readonly store: SyncedState;
  private readonly usageRecorder: UsageRecorder;
  private readonly impls: Implementations;
  private readonly env: ContentEnvironment;
  private readonly now: () => number;
  private readonly builtins: ReadonlyMap<string, Tool>;
  private readonly bound = new Map<string, { readonly modifiedAt: string; readonly type: string; readonly bound: BoundTool }>();
  private closed = false;

  constructor(private readonly options: CatalogOptions) {
    this.now = options.now ?? Date.now;
    this.judge = gateStep({ policies: options.policies ?? {}, ...(options.approver !== undefined ? { approver: options.approver } : {}) });
    const builtins =
      options.builtins ??
      builtinTools({
        workspace: options.workspace,
        allowedHosts: options.allowHosts ?? [],
        ...(options.webSearch !== undefined ? { webSearch: options.webSearch } : {}),
      });
    this.builtins = new Map(builtins.map((t) => [t.name, t]));
    this.store = new SyncedState(options.store, this.builtins, this.now);
    this.usageRecorder = new UsageRecorder(options.store, {
      historyCap: options.historyCap ?? 1000,
      flushMs: options.usageFlushMs ?? 250,
      now: () => this.store.nowIso(),
    });
    this.impls = {
      workspace: options.workspace,
      builtins: this.builtins,
      functions: options.functions ?? emptyToolLibrary,
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
      ...(options.secretHosts !== undefined ? { secretHosts: options.secretHosts } : {}),
      ...(options.dispatcher !== undefined ? { dispatcher: options.dispatcher } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
      ...(options.allowHosts !== undefined ? { allowHosts: options.allowHosts } : {}),
    };
    const functions = this.impls.functions;
    this.env = contentEnvironment(this.builtins, functions);
  }

  private get state() {
    return this.store.state;
  }

  // -----------------------------------------------------------------------------------------------
  // views
  // -----------------------------------------------------------------------------------------------

  private bundleView(b: BundleRecord): BundleView {
    return { ...encodeBundle(b), toolCount: this.state.toolCount(b.bundleID) };
  }

  /** Each record's availability, decided once: records are replaced when they change, and the implementations are fixed at start. */
  private readonly availabilities = new WeakMap<ToolRecord, Availability>();

  private availabilityOf(t: ToolRecord): Availability {
    const known = this.availabilities.get(t);
    if (known !== undefined) return known;
    const a = availability(t, this.impls);
    this.availabilities.set(t, a);
    return a;
  }

  /** What a write says besides the record: the content's warnings, and why the tool cannot run here when it cannot. */
  private writeWarnings(t: ToolRecord, built: ReadonlyArray<Diagnostic>): ReadonlyArray<Diagnostic> {
    const a = this.availabilityOf(t);
    if (a.available) return built;
    return [
      ...built,
      warning(
        a.code ?? CatalogCodes.TOOL_UNAVAILABLE,
        `${t.slug} ${t.version} is stored but cannot run on this server: ${a.reason ?? 'its implementation is missing'}`,
      ),
    ];
  }

  private toolView(t: ToolRecord, usage: UsageCount): ToolView {
    const a = this.availabilityOf(t);
    return {
      ...encodeTool(t),
      bundleSlug: this.state.bundles.get(t.bundleID)?.slug ?? null,
      available: a.available,
      ...(a.reason !== undefined ? { unavailableReason: a.reason } : {}),
      callCount: usage.callCount,
      lastCalledAt: usage.lastCalledAt,
    };
  }

  private async toolViews(ts: ReadonlyArray<ToolRecord>): Promise<ReadonlyArray<ToolView>> {
    const usage = await this.usageRecorder.usageOf(ts.map((t) => t.toolID));
    return ts.map((t) => this.toolView(t, usage.get(t.toolID) ?? NO_USAGE));
  }

  private registryView(t: ToolRecord, usage: UsageCount): JsonObject {
    return encodeRegistryTool(t, { enabled: isLive(this.state, t), available: this.availabilityOf(t).available, usage });
  }

  // -----------------------------------------------------------------------------------------------
  // lookups
  // -----------------------------------------------------------------------------------------------

  private resolve(ref: ToolRef): CatalogResult<ToolRecord> {
    if ('id' in ref) {
      const lower = ref.id.toLowerCase();
      const t = isUuidV7(lower) ? this.state.tools.get(lower) : this.state.toolByRegistryId(ref.id);
      return t !== undefined ? success(t) : failure(CatalogCodes.TOOL_NOT_FOUND, `there is no tool ${JSON.stringify(ref.id)}`);
    }
    const id = parseId(ref.bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const slug = parseSlug(ref.slug);
    const version = parseVersion(ref.version);
    if (isLeft(slug) || isLeft(version)) return invalid([...(isLeft(slug) ? slug.left : []), ...(isLeft(version) ? version.left : [])]);
    if (!this.state.bundles.has(id.right)) return failure(CatalogCodes.BUNDLE_NOT_FOUND, `there is no bundle ${id.right}`);
    const t = this.state.toolByKey(id.right, ref.slug, ref.version);
    return t !== undefined ? success(t) : failure(CatalogCodes.TOOL_NOT_FOUND, `bundle ${id.right} has no tool ${ref.slug} version ${ref.version}`);
  }

  private bundleOf(bundleID: string): CatalogResult<BundleRecord> {
    const id = parseId(bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const b = this.state.bundles.get(id.right);
    return b !== undefined ? success(b) : failure(CatalogCodes.BUNDLE_NOT_FOUND, `there is no bundle ${id.right}`);
  }

  // -----------------------------------------------------------------------------------------------
  // bundles
  // -----------------------------------------------------------------------------------------------

  putBundle = async (bundleID: string, body: unknown): Promise<CatalogResult<{ readonly bundle: BundleView; readonly created: boolean }>> => {
    const id = parseId(bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const w = decodeBundleWrite(body);
    if (isLeft(w)) return invalid(w.left);
    const r = await this.store.write(() => decidePutBundle(this.state, id.right, w.right, this.store.nowIso()));
    return r.ok ? success({ bundle: this.bundleView(r.value.bundle), created: r.value.created }) : r;
  };

  /**
   * Bundles of an export, exactly as exported (id, switch, deletion, timestamps), in one
   * transaction (`gramkit catalog import`); a bundle whose id is stored already counts as existing.
   */
  importBundles = async (bodies: ReadonlyArray<unknown>): Promise<CatalogResult<ImportReport>> => {
    const decoded: BundleRecord[] = [];
    const refused: Array<{ readonly index: number; readonly error: CatalogError }> = [];
    const at: number[] = [];
    bodies.forEach((body, index) => {
      const b = decodeStoredBundle(body);
      if (isLeft(b)) {
        refused.push({ index, error: { ...catalogCodes(CatalogCodes.INVALID_RECORD), message: b.left.map((d) => d.message).join('; ') } });
        return;
      }
      decoded.push(b.right);
      at.push(index);
    });
    const r = await this.store.write(() => decideImportBundles(this.state, decoded));
    if (!r.ok) return r;
    for (const e of r.value.refused) refused.push({ index: at[e.index] as number, error: e.error });
    return success({ created: r.value.created.length, existing: r.value.existing, refused: refused.sort((a, b) => a.index - b.index) });
  };

  patchBundle = async (bundleID: string, body: unknown): Promise<CatalogResult<BundleView>> => {
    const id = parseId(bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const enabled = decodeEnabledPatch(body);
    if (isLeft(enabled)) return invalid(enabled.left);
    const r = await this.store.write(() => decidePatchBundle(this.state, id.right, enabled.right));
    return r.ok ? success(this.bundleView(r.value)) : r;
  };

  deleteBundle = async (bundleID: string): Promise<CatalogResult<BundleView>> => {
    const id = parseId(bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const r = await this.store.write(() => decideDeleteBundle(this.state, id.right, this.store.nowIso()));
    return r.ok ? success(this.bundleView(r.value)) : r;
  };

  getBundle = (bundleID: string): Promise<CatalogResult<BundleView>> =>
    this.store.synced(() => {
      const b = this.bundleOf(bundleID);
      return b.ok ? success(this.bundleView(b.value)) : b;
    });

  findBundle = (ref: string): Promise<CatalogResult<BundleView>> =>
    this.store.synced(() => {
      const lower = ref.toLowerCase();
      const b = isUuidV7(lower) ? this.state.bundles.get(lower) : this.state.bundleBySlug(ref);
      return b !== undefined ? success(this.bundleView(b)) : failure(CatalogCodes.BUNDLE_NOT_FOUND, `there is no bundle ${JSON.stringify(ref)}`);
    });

  listBundles = (query: BundleQuery = {}): Promise<CatalogResult<BundleList>> =>
    this.store.synced(() => {
      const p = bundlePage(this.state, query);
      return p.ok
        ? success({
            bundles: p.value.items.map((b) => this.bundleView(b)),
            ...(p.value.nextPageToken !== undefined ? { nextPageToken: p.value.nextPageToken } : {}),
          })
        : p;
    });

  // -----------------------------------------------------------------------------------------------
  // tools
  // -----------------------------------------------------------------------------------------------

  putTool = async (
    bundleID: string,
    slug: string,
    version: string,
    body: unknown,
    options: { readonly keepIdentity?: boolean; readonly programs?: RequestPrograms } = {},
  ): Promise<CatalogResult<WriteOutcome<ToolView>>> => {
    const id = parseId(bundleID, 'bundleID');
    if (isLeft(id)) return invalid(id.left);
    const key = [parseSlug(slug), parseVersion(version)].flatMap((e) => (isLeft(e) ? e.left : []));
    if (key.length > 0) return invalid(key);
    const decoded = decodeToolJson(body, this.env, { slug, version });
    if (isLeft(decoded)) return invalid(decoded.left);
    const w = options.programs === undefined ? decoded : guardRequestWrite(decoded.right, options.programs, this.impls);
    if (isLeft(w)) return { ok: false, error: w.left };
    // a route names the tool: ids and timestamps in the body (from a GET) are not written
    const { toolID: _toolID, bundleID: _bundleID, createdAt: _createdAt, modifiedAt: _modifiedAt, ...anonymous } = w.right;
    const write = options.keepIdentity === true ? w.right : anonymous;
    const r = await this.store.write(() => decideCreateTool(this.state, id.right, write, this.store.nowIso(), this.now()));
    if (!r.ok) return r;
    this.announceCreated(r.value, false);
    return success({ value: this.toolView(r.value, NO_USAGE), warnings: this.writeWarnings(r.value, w.right.built.warnings) });
  };

  /**
   * What `putTool` would say of a body, without writing it (the admin page's editor checks as the
   * user types): the errors that would refuse it and the warnings of the write. `slug` and
   * `version`, when given, are checked as the route's.
   */
  checkTool = (
    body: unknown,
    options: { readonly slug?: string; readonly version?: string; readonly programs?: RequestPrograms } = {},
  ): ReadonlyArray<Diagnostic> => {
    const key = [
      ...(options.slug !== undefined ? [parseSlug(options.slug)] : []),
      ...(options.version !== undefined ? [parseVersion(options.version)] : []),
    ].flatMap((e) => (isLeft(e) ? e.left : []));
    const decoded = decodeToolJson(body, this.env, {
      ...(options.slug !== undefined ? { slug: options.slug } : {}),
      ...(options.version !== undefined ? { version: options.version } : {}),
    });
    if (isLeft(decoded)) return [...key, ...decoded.left];
    const w = options.programs === undefined ? decoded : guardRequestWrite(decoded.right, options.programs, this.impls);
    if (isLeft(w)) return [...key, error(w.left.code, w.left.message)];
    return [...key, ...w.right.built.warnings];
  };

  /**
   * Tools of an export, with their ids and timestamps, in one transaction (the store writes them
   * together: `gramkit catalog import`). Each is decided as `putTool` with `keepIdentity` decides one.
   */
  importTools = async (items: ReadonlyArray<ImportItem>): Promise<CatalogResult<ImportReport>> => {
    const decoded: Array<{ readonly bundleID: string; readonly write: ToolWrite }> = [];
    const refused: Array<{ readonly index: number; readonly error: CatalogError }> = [];
    const at: number[] = [];
    items.forEach((item, index) => {
      const id = parseId(item.bundleID, 'bundleID');
      const key = [parseSlug(item.slug), parseVersion(item.version)].flatMap((e) => (isLeft(e) ? e.left : []));
      const w =
        isLeft(id) || key.length > 0
          ? undefined
          : 'record' in item
            ? storedToolWrite(item.record, this.env)
            : decodeToolJson(item.body, this.env, { slug: item.slug, version: item.version });
      if (isLeft(id) || key.length > 0 || w === undefined || isLeft(w)) {
        const problems = isLeft(id) ? id.left : key.length > 0 ? key : w !== undefined && isLeft(w) ? w.left : [];
        refused.push({ index, error: { ...catalogCodes(CatalogCodes.INVALID_RECORD), message: problems.map((d) => d.message).join('; ') } });
        return;
      }
      decoded.push({ bundleID: id.right, write: w.right });
      at.push(index);
    });
    const r = await this.store.write(() => decideImportTools(this.state, decoded, this.store.nowIso(), this.now()));
    if (!r.ok) return r;
    for (const e of r.value.refused) refused.push({ index: at[e.index] as number, error: e.error });
    return success({ created: r.value.created.length, existing: r.value.existing, refused: refused.sort((a, b) => a.index - b.index) });
  };

  private announceCreated(t: ToolRecord, discovered: boolean): void {
    const base = { id: callId(), at: this.store.nowIso(), toolID: t.toolID, tool: registryIdOf(t) };
    const event: CatalogEvent = discovered ? { type: 'discovered', ...base } : { type: 'created', ...base, createdBy: t.createdBy };
    this.store.bus.emit(event);
    this.store.publish(event);
  }

  patchTool = async (ref: ToolRef, body: unknown): Promise<CatalogResult<ToolView>> => {
    const enabled = decodeEnabledPatch(body);
    if (isLeft(enabled)) return invalid(enabled.left);
    const r = await this.store.write(() => {
      const t = this.resolve(ref);
      return t.ok ? decidePatchTool(this.state, t.value, enabled.right) : left(t.error);
    });
    return r.ok ? success((await this.toolViews([r.value]))[0] as ToolView) : r;
  };

  deleteTool = async (ref: ToolRef): Promise<CatalogResult<ToolView>> => {
    const r = await this.store.write(() => {
      const t = this.resolve(ref);
      return t.ok ? decideDeleteTool(t.value) : left(t.error);
    });
    if (r.ok) this.bound.delete(r.value.toolID);
    return r.ok ? success(this.toolView(r.value, NO_USAGE)) : r;
  };

  getTool = (ref: ToolRef): Promise<CatalogResult<ToolView>> =>
    this.store.synced(async () => {
      const t = this.resolve(ref);
      return t.ok ? success((await this.toolViews([t.value]))[0] as ToolView) : t;
    });

  toolGram = (ref: ToolRef): Promise<CatalogResult<string>> =>
    this.store.synced(() => {
      const t = this.resolve(ref);
      return t.ok ? success(contentToGram(t.value)) : t;
    });

  listTools = (query: ToolQuery = {}): Promise<CatalogResult<ToolList>> =>
    this.store.synced(async () => {
      const p = toolPage(this.state, query);
      if (!p.ok) return p;
      return success({ tools: await this.toolViews(p.value.items), ...(p.value.nextPageToken !== undefined ? { nextPageToken: p.value.nextPageToken } : {}) });
    });

  searchTools = (query: SearchQuery): Promise<CatalogResult<ToolList>> =>
    this.store.synced(async () => {
      const p = searchPage(this.state, query);
      if (!p.ok) return p;
      const views = await this.toolViews(p.value.items.map((i) => i.record));
      return success({
        tools: views.map((v, i) => ({ ...v, match: p.value.items[i]?.match ?? 'fuzzy' })),
        ...(p.value.nextPageToken !== undefined ? { nextPageToken: p.value.nextPageToken } : {}),
      });
    });

  // -----------------------------------------------------------------------------------------------
  // invocation
  // -----------------------------------------------------------------------------------------------

  /** The record bound to its implementation (cached until the record changes). */
  private boundFor(t: ToolRecord): CatalogResult<BoundTool> {
    const cached = this.bound.get(t.toolID);
    if (cached !== undefined && cached.modifiedAt === t.modifiedAt && cached.type === t.type) return success(cached.bound);
    const m = materialize(t, this.impls);
    if (isLeft(m)) return { ok: false, error: m.left };
    this.bound.set(t.toolID, { modifiedAt: t.modifiedAt, type: t.type, bound: m.right });
    return success(m.right);
  }

  /** Why a tool cannot run now (disabled, in a disabled or deleted bundle), or nothing. */
  private refusal(t: ToolRecord): CatalogError | undefined {
    const b = this.state.bundles.get(t.bundleID);
    if (b === undefined) return { ...catalogCodes(CatalogCodes.BUNDLE_NOT_FOUND), message: `the bundle of tool ${t.toolID} does not exist` };
    if (b.softDeletedAt !== null)
      return { ...catalogCodes(CatalogCodes.BUNDLE_DELETED), message: `tool ${t.slug} cannot be invoked: its bundle "${b.slug}" was deleted` };
    if (!b.isEnabled) return { ...catalogCodes(CatalogCodes.BUNDLE_DISABLED), message: `tool ${t.slug} cannot be invoked: its bundle "${b.slug}" is disabled` };
    if (!t.isEnabled)
      return {
        ...catalogCodes(CatalogCodes.TOOL_DISABLED),
        message: `tool ${t.slug} ${t.version} (${t.toolID}) is disabled`,
        details: { hint: 'PATCH it with {"isEnabled": true}' },
      };
    return undefined;
  }

  /** The record bound to its implementation, on the state as it is (no sync). */
  boundNow = (ref: ToolRef): CatalogResult<BoundTool> => {
    const t = this.resolve(ref);
    if (!t.ok) return t;
    const why = this.refusal(t.value);
    return why !== undefined ? { ok: false, error: why } : this.boundFor(t.value);
  };

  boundTool = (ref: ToolRef): Promise<CatalogResult<BoundTool>> => this.store.synced(() => this.boundNow(ref));

  /** What the naming rule reads of the state (served-names.ts). */
  private readonly naming: NamingState = {
    toolsWithSlug: (slug) => this.state.toolsWithSlug(slug),
    bundleSlug: (id) => this.state.bundles.get(id)?.slug,
    servable: (t) => isLive(this.state, t) && this.availabilityOf(t).available,
    builtinBundleID: BUILTIN_BUNDLE_ID,
    builtinSlugs: BUILTIN_SLUGS,
  };

  /** The served tools of these slugs (after a sync); every slug when none are given. */
  servedTools = async (slugs?: Iterable<string>): Promise<ReadonlyArray<ServedTool>> => {
    await this.store.sync().catch(() => undefined);
    return this.servedNow(slugs);
  };

  /** The served tools of these slugs on the state as it is (no sync); every slug when none are given. */
  servedNow = (slugs?: Iterable<string>): ReadonlyArray<ServedTool> => [...(slugs ?? this.state.slugs())].flatMap((slug) => servedOfSlug(this.naming, slug));

  /** Calls `listener` with the slugs whose served tools may have changed, after each change to a record. */
  onServedChange = (listener: (slugs: ReadonlySet<string>) => void): (() => void) => {
    const touched = (kind: 'bundle' | 'tool', old: BundleRecord | ToolRecord | undefined, record: BundleRecord | ToolRecord | undefined): void => {
      const slugs = new Set<string>();
      if (kind === 'tool') for (const t of [old, record]) if (t !== undefined) slugs.add((t as ToolRecord).slug);
      if (kind === 'bundle') for (const t of this.state.toolsOf(((record ?? old) as BundleRecord).bundleID)) slugs.add(t.slug);
      if (slugs.size > 0) listener(slugs);
    };
    this.store.recordListeners.add(touched);
    return () => void this.store.recordListeners.delete(touched);
  };

  specifications = async (): Promise<ReadonlyArray<{ readonly name: string; readonly record: ToolRecord; readonly spec: ToolSpecification }>> => {
    const out: Array<{ readonly name: string; readonly record: ToolRecord; readonly spec: ToolSpecification }> = [];
    for (const { name, record } of await this.servedTools()) {
      const s = contentSpecification(record);
      if (isRight(s)) out.push({ name, record, spec: s.right.name === name ? s.right : { ...s.right, name } });
    }
    return out;
  };

  invokeTool = (ref: ToolRef, args: unknown, options: InvokeOptions = {}): Promise<CatalogResult<ToolResult>> => {
    try {
      // the store as it is now: most often unchanged, found so without a promise
      const syncing = this.store.syncNow();
      if (syncing === undefined) return this.invokeSynced(ref, args, options);
      return syncing.then(
        () => this.invokeSynced(ref, args, options),
        (e: unknown) => storeFailure(e),
      );
    } catch (e) {
      return Promise.reject(e);
    }
  };

  /** `invokeTool` on the state as it is (synced). */
  private invokeSynced(ref: ToolRef, args: unknown, options: InvokeOptions): Promise<CatalogResult<ToolResult>> {
    const t = this.resolve(ref);
    if (!t.ok) return Promise.resolve(t);
    const record = t.value;
    const why = this.refusal(record);
    if (why !== undefined) return Promise.resolve({ ok: false, error: why });
    const b = this.boundFor(record);
    if (!b.ok) return Promise.resolve(b);
    const bound = b.value;
    const validators = bound.validators();
    if (isLeft(validators))
      return Promise.resolve(failure(CatalogCodes.TOOL_UNAVAILABLE, `tool ${record.slug}: its schema does not compile: ${validators.left.message}`));
    const context = {
      ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
      ...(options.projectId !== undefined ? { projectId: options.projectId } : {}),
    };
    // policies run under the name rules know: a built-in's own (its path and command rules apply)
    const kind = toolKind(record.type);
    const policyName = kind.policyName?.(record.impl) ?? record.slug;
    // the caller's signal (a client that went away) cancels what may wait: not the quick in-process
    // built-ins, which then take invoke's plain path (the signal is not even built for them)
    const cancellable = kind.quick?.(record.impl) !== true;
    const signal = cancellable ? options.signal : undefined;
    // the one invoker: arguments validated once, the caller's steps (scopes), calls that change
    // state one at a time and each judged when it starts, the gate, then the tool; usage after
    const t0 = performance.now();
    // a caller's own approver (the service's queue naming the caller, an MCP client's elicitation),
    // for a call that may need one: a call whose approval is 'auto' never asks (nor is it built)
    const policies = this.options.policies ?? {};
    const approver = approvalRequirement(policies.approvals, policyName, bound.tool.annotations) === 'auto' ? undefined : options.approver;
    const judge = approver === undefined ? this.judge : gateStep({ policies, approver });
    const invoker = createInvoker([...(options.steps ?? []), this.serial, judge, this.recordUsage(record, options, t0)]);
    // one literal of every field, an absent one undefined (invoke reads a spread-made object several times slower)
    // events (and the approval a call waits for, then) carry the call's id; made only for them
    const observer = this.store.bus.listenerCount() > 0 || this.store.backend.kind === 'redis' ? this.observer(record, options) : undefined;
    return invoker(bound, args, {
      name: policyName,
      callId: observer !== undefined ? callId() : undefined,
      context,
      signal,
      // the record's timeout bounds the caller's too
      timeoutMs: options.timeoutMs !== undefined ? Math.min(options.timeoutMs, record.limits?.timeoutMs ?? options.timeoutMs) : undefined,
      onProgress: options.onProgress,
      observer,
    }).then(success);
  }

  /** Calls that change state run alone across every surface of this catalog (REST, `/mcp`). */
  private readonly serial: Step = serialise(new CallLock());

  /** The policy gate of this catalog (`ALLOWED_TOOL_PERMS`, the rules, the approver of `serve --yes`). */
  private readonly judge: Step;

  /** Usage and history: every call the tool ran (a refusal before it runs is not usage). */
  private recordUsage(record: ToolRecord, options: InvokeOptions, t0: number): Step {
    // the caller's ids only: reading `options.signal` would build one (a getter)
    const { agentId, projectId } = options;
    return (call, next) =>
      next(call).then((result) => {
        this.usageRecorder.record(record, result, performance.now() - t0, agentId, projectId);
        return result;
      });
  }

  /** Library events as catalog events, with the tool's ids and the caller's agent and project. */
  private observer(t: ToolRecord, options: InvokeOptions): InvocationObserver {
    const base = (call: string) => ({
      at: this.store.nowIso(),
      callId: call,
      toolID: t.toolID,
      tool: registryIdOf(t),
      ...(options.agentId !== undefined ? { agentId: options.agentId } : {}),
      ...(options.projectId !== undefined ? { projectId: options.projectId } : {}),
    });
    const send = (e: CatalogEvent): void => {
      this.store.bus.emit(e);
      this.store.publish(e);
    };
    return {
      invoked: (e) => send({ ...base(e.callId), id: callId(), type: 'invoked', args: e.args }),
      result: (e) => send({ ...base(e.callId), id: callId(), type: 'result', value: e.value, durationMs: e.durationMs }),
      failed: (e) => send({ ...base(e.callId), id: callId(), type: 'failed', error: e.error, durationMs: e.durationMs }),
    };
  }

  usage = async (query: { readonly agentId?: string; readonly limit?: number }): Promise<CatalogResult<ReadonlyArray<UsageEntry>>> => {
    try {
      return success(await this.usageRecorder.history(query.agentId, query.limit ?? 50));
    } catch (e) {
      return storeFailure(e);
    }
  };

  // -----------------------------------------------------------------------------------------------
  // the registry
  // -----------------------------------------------------------------------------------------------

  /** The registry bundle, created in the same transaction when missing. */
  private registryBundle(): Decided<BundleRecord> {
    const b = this.state.bundles.get(REGISTRY_BUNDLE_ID);
    if (b !== undefined) return right({ bundles: [], tools: [], value: b });
    const slug = this.state.bundleBySlug('registry') === undefined ? 'registry' : 'registry-tools';
    const d = decidePutBundle(
      this.state,
      REGISTRY_BUNDLE_ID,
      { slug, displayName: 'Registry', description: 'Tools registered through the registry API (/api/v1/tools)', isEnabled: true },
      this.store.nowIso(),
    );
    return isLeft(d) ? d : right({ ...d.right, value: d.right.value.bundle });
  }

  registerTool = async (
    body: unknown,
    options: { readonly discovered?: boolean; readonly programs?: RequestPrograms } = {},
  ): Promise<CatalogResult<WriteOutcome<JsonObject>>> => {
    const decoded = decodeRegistryTool(body, this.env);
    if (isLeft(decoded)) return invalid(decoded.left);
    const w = options.programs === undefined ? decoded : guardRequestWrite(decoded.right, options.programs, this.impls);
    if (isLeft(w)) return { ok: false, error: w.left };
    const r = await this.store.write(() => {
      const bundle = this.registryBundle();
      if (isLeft(bundle)) return bundle;
      const created = decideCreateTool(this.state, REGISTRY_BUNDLE_ID, w.right, this.store.nowIso(), this.now(), bundle.right.value);
      return isLeft(created) ? created : right({ bundles: bundle.right.bundles, tools: created.right.tools, value: created.right.value });
    });
    if (!r.ok) return r;
    this.announceCreated(r.value, options.discovered === true);
    return success({ value: this.registryView(r.value, NO_USAGE), warnings: this.writeWarnings(r.value, w.right.built.warnings) });
  };

  registryTools = (query: { readonly createdBy?: 'system' | 'agent' } = {}): Promise<CatalogResult<ReadonlyArray<JsonObject>>> =>
    this.store.synced(async () => {
      const ts = [...this.state.tools.values()]
        .filter((t) => query.createdBy === undefined || t.createdBy === query.createdBy)
        .sort((a, b) => (a.toolID < b.toolID ? -1 : 1));
      const usage = await this.usageRecorder.usageOf(ts.map((t) => t.toolID));
      return success(ts.map((t) => this.registryView(t, usage.get(t.toolID) ?? NO_USAGE)));
    });

  registryTool = (id: string): Promise<CatalogResult<JsonObject>> =>
    this.store.synced(async () => {
      const t = this.resolve({ id });
      if (!t.ok) return t;
      const usage = await this.usageRecorder.usageOf([t.value.toolID]);
      return success(this.registryView(t.value, usage.get(t.value.toolID) ?? NO_USAGE));
    });

  registryViews = (query: { readonly createdBy?: 'system' | 'agent' } = {}): Promise<CatalogResult<ReadonlyArray<JsonObject>>> =>
    this.store.synced(() =>
      success(
        [...this.state.tools.values()]
          .filter((t) => hasRegistryView(t) && (query.createdBy === undefined || t.createdBy === query.createdBy))
          .map((t) => seedRegistryTool(t))
          .sort((a, b) => ((a['id'] as string) < (b['id'] as string) ? -1 : 1)),
      ),
    );

  deleteRegistryTool = async (id: string): Promise<CatalogResult<JsonObject>> => {
    const r = await this.store.write(() => {
      const t = this.resolve({ id });
      return t.ok ? decideDeleteTool(t.value, { agentOnly: true }) : left(t.error);
    });
    if (r.ok) this.bound.delete(r.value.toolID);
    return r.ok ? success(this.registryView(r.value, NO_USAGE)) : r;
  };

  /** Registers the Tool JSON documents whose id is not registered yet. */
  private async registerMissing(docs: ReadonlyArray<unknown>): Promise<CatalogResult<DiscoveryReport>> {
    const discovered: string[] = [];
    const existing: string[] = [];
    const skipped: Array<{ id: string; reason: string }> = [];
    for (const doc of docs) {
      const id = typeof doc === 'object' && doc !== null && typeof (doc as { id?: unknown }).id === 'string' ? (doc as { id: string }).id : '?';
      await this.store.sync().catch(() => undefined);
      if (this.state.toolByRegistryId(id) !== undefined) {
        existing.push(id);
        continue;
      }
      const r = await this.registerTool(doc, { discovered: true });
      if (r.ok) discovered.push(id);
      else if (r.error.reason === CatalogCodes.CONFLICT) existing.push(id);
      else if (r.error.reason === CatalogCodes.STORE_UNAVAILABLE) return r;
      else skipped.push({ id, reason: `${r.error.reason}: ${r.error.message}` });
    }
    return success({ discovered, existing, skipped });
  }

  discover = async (options: { readonly usable?: (builtin: string) => boolean } = {}): Promise<CatalogResult<DiscoveryReport>> => {
    const nucleus = nucleusToolJson((b) => this.builtins.has(b) && (options.usable?.(b) ?? true));
    const functions = libraryTools(this.impls.functions)
      .filter((t) => isRegistryId(t.name))
      .map((t) => ({ id: t.name, name: t.name, description: t.description, type: 'function', impl: { function: t.name }, created_by: 'system' }));
    return this.registerMissing([...nucleus, ...functions]);
  };

  bootstrap = async (doc: unknown): Promise<CatalogResult<DiscoveryReport>> => {
    const list = Array.isArray(doc)
      ? doc
      : typeof doc === 'object' && doc !== null && Array.isArray((doc as { tools?: unknown }).tools)
        ? (doc as { tools: unknown[] }).tools
        : undefined;
    if (list === undefined) return failure(CatalogCodes.INVALID_BOOTSTRAP, 'a bootstrap file holds an array of Tool JSON documents, or {"tools": [...]}');
    return this.registerMissing(list);
  };

  // -----------------------------------------------------------------------------------------------
  // maintenance
  // -----------------------------------------------------------------------------------------------

  sync = (): Promise<CatalogResult<void>> => this.store.synced(() => success(undefined));

  reap = (): Promise<CatalogResult<ReadonlyArray<string>>> => this.store.write(() => decideReap(this.state, this.now(), this.options.reapAfterMs ?? 2 * DAY));

  problems = (): ReadonlyArray<{ readonly record: string; readonly diagnostics: ReadonlyArray<Diagnostic> }> =>
    [...this.state.corrupt].map(([record, diagnostics]) => ({ record, diagnostics }));

  close = async (): Promise<void> => {
    if (this.closed) return;
    this.closed = true;
    await this.usageRecorder.close();
    await this.store.close();
  };

  api(): Catalog {
    return {
      store: { kind: this.store.backend.kind, location: this.store.backend.location },
      putBundle: this.putBundle,
      importBundles: this.importBundles,
      patchBundle: this.patchBundle,
      deleteBundle: this.deleteBundle,
      getBundle: this.getBundle,
      listBundles: this.listBundles,
      findBundle: this.findBundle,
      putTool: this.putTool,
      checkTool: this.checkTool,
      importTools: this.importTools,
      patchTool: this.patchTool,
      deleteTool: this.deleteTool,
      getTool: this.getTool,
      toolGram: this.toolGram,
      listTools: this.listTools,
      searchTools: this.searchTools,
      invokeTool: this.invokeTool,
      specifications: this.specifications,
      servedTools: this.servedTools,
      servedNow: this.servedNow,
      onServedChange: this.onServedChange,
      boundTool: this.boundTool,
      boundNow: this.boundNow,
      registerTool: this.registerTool,
      registryTools: this.registryTools,
      registryTool: this.registryTool,
      deleteRegistryTool: this.deleteRegistryTool,
      registryViews: this.registryViews,
      wipes: () => this.store.wipes(),
      onWiped: (listener) => {
        this.store.wipeListeners.add(listener);
        return () => void this.store.wipeListeners.delete(listener);
      },
      discover: this.discover,
      bootstrap: this.bootstrap,
      usage: this.usage,
      subscribe: (listener) => this.store.bus.subscribe(listener),
      sync: this.sync,
      reap: this.reap,
      indexInBackground: () => this.store.state.indexInBackground(),
      flush: () => this.usageRecorder.flush(),
      problems: this.problems,
      close: this.close,
    };
  }
}
