/**
 * The catalog's state kept in step with its store: loaded once, then synced from the store's
 * journal before each operation (so a process sees what the others wrote), and written through the
 * store's transaction. Every change to a record, here or seen when syncing, is announced as a
 * `changed` event.
 *
 * Syncs never overlap: a call made while one runs waits for the next one, which starts after it
 * (a sync that started earlier could miss a write acknowledged in between).
 */
import { isLeft, isRight } from '../core/either.js';
import { callId } from '../core/call-id.js';
import { jsonEqual } from '../core/json-equal.js';
import type { JsonObject } from '../core/json-schema.js';
import type { Tool } from '../library/tool.js';
import { builtinSpecification, builtinSpecifications } from '../tools/builtin/specifications.js';
import type { CatalogBackend, RecordRead, RecordWrite } from './stores/backend.js';
import { StoreError } from './stores/backend.js';
import { BUILTIN_BUNDLE_ID, builtinBundle, builtinToolRecord } from './records/builtin-records.js';
import { decodeStoredBundle, encodeBundle } from './records/bundle-json.js';
import { CatalogState } from './catalog-state.js';
import { CatalogCodes } from './codes.js';
import { type CatalogEvent, type ChangeAction, type EventBus, eventBus } from './events.js';
import type { BundleRecord, ToolRecord } from './records/records.js';
import { type CatalogResult, failure, success } from './result.js';
import type { Decided } from './rules.js';
import { hasRegistryView, registryIdOf, seedRegistryTool } from './records/registry-json.js';
import { decodeStoredTool, encodeTool } from './records/tool-json.js';
import { builtinName } from '../tools/kinds/builtin.js';

/** A store failure as the catalog reports it. */
export const storeFailure = (e: unknown): CatalogResult<never> =>
  failure(CatalogCodes.STORE_UNAVAILABLE, e instanceof StoreError ? e.message : `the store failed: ${e instanceof Error ? e.message : String(e)}`);

/** Whether cursor `a` is at or past `b` (false when they cannot be compared). */
const cursorAtLeast = (a: string, b: string): boolean => {
  const pa = a.split(':');
  const pb = b.split(':');
  if (pa.length !== pb.length) return false;
  if (pa.length === 2) return pa[0] === pb[0] && Number(pa[1]) >= Number(pb[1]);
  return Number(a) >= Number(b);
};

/** What a tool record holds unique, for stores that check it (`RecordWrite.unique`). */
const uniqueOf = (t: ToolRecord): { readonly key: string; readonly registryId?: string; readonly bundleID: string } => ({
  key: `${t.bundleID} ${t.slug} ${t.version}`,
  ...(t.registryId !== undefined ? { registryId: t.registryId } : {}),
  bundleID: t.bundleID,
});

export class SyncedState {
  readonly state = new CatalogState();
  readonly bus: EventBus = eventBus();
  /** This process, in the events it publishes (so it ignores its own when they come back). */
  readonly origin = callId();
  private cursor = '0';
  private current: Promise<void> | undefined;
  private next: Promise<void> | undefined;
  private unsubscribeRemote: (() => Promise<void>) | undefined;
  /** The ids this process is writing (a sync that reads them back meanwhile announces them as its own). */
  private readonly own = new Set<string>();
  /** How often the store was found wiped under this process, and when last (see `wipes`). */
  private wiped: { count: number; lastAt?: string; restoredAt?: string } = { count: 0 };
  /** Told when the store was found wiped, after the state was emptied (e.g. to bootstrap again). */
  readonly wipeListeners = new Set<() => Promise<void> | void>();
  /** Told of every record change announced (old and new record), before the `changed` event. */
  readonly recordListeners = new Set<
    (kind: 'bundle' | 'tool', old: BundleRecord | ToolRecord | undefined, record: BundleRecord | ToolRecord | undefined) => void
  >();

  constructor(
    readonly backend: CatalogBackend,
    /** The built-in tools by name (their records come from the code). */
    private readonly builtins: ReadonlyMap<string, Tool>,
    private readonly now: () => number,
  ) {}

  private lastMs = Number.NaN;
  private lastIso = '';

  /** The clock as ISO 8601 (formatted once per millisecond). */
  nowIso(): string {
    const ms = this.now();
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.lastIso = new Date(ms).toISOString();
    }
    return this.lastIso;
  }

  // -----------------------------------------------------------------------------------------------
  // loading and syncing
  // -----------------------------------------------------------------------------------------------

  async load(): Promise<CatalogResult<void>> {
    try {
      const loaded = await this.backend.load();
      this.state.clear();
      this.addBuiltinRecords();
      this.state.bulk(() => this.applyReads(loaded.records, false, false));
      this.cursor = loaded.cursor;
      if (loaded.missingViews === true) await this.writeViews();
      this.unsubscribeRemote = await this.backend.onPublished((e) => {
        if (e['origin'] !== this.origin && typeof e['type'] === 'string' && e['type'] !== 'changed') this.bus.emit(e as unknown as CatalogEvent);
      });
      return success(undefined);
    } catch (e) {
      return storeFailure(e);
    }
  }

  /** Writes the registry view of every stored tool (a store laid out by an earlier release has none). */
  private async writeViews(): Promise<void> {
    const views = [...this.state.tools.values()].filter(hasRegistryView).map((t) => ({ id: registryIdOf(t), record: seedRegistryTool(t) }));
    await this.backend.writeViews?.(views);
  }

  /** Whether the store was found wiped under this process: how many times, when last, and when the catalog was bootstrapped again. */
  wipes(): { readonly count: number; readonly lastAt?: string; readonly restoredAt?: string } {
    return { ...this.wiped };
  }

  /** Sends an event to the other processes on the store (Redis), tagged with this process. */
  publish(event: CatalogEvent): void {
    if (this.backend.kind === 'redis') void this.backend.publish({ ...(event as unknown as JsonObject), origin: this.origin }).catch(() => undefined);
  }

  /**
   * Brings the state up to the store: resolves after a sync that started after this call. Calls
   * made while one runs share the next one.
   */
  sync(): Promise<void> {
    if (this.current === undefined) {
      this.current = this.syncOnce().finally(() => {
        this.current = undefined;
      });
      return this.current;
    }
    this.next ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.sync();
      });
    return this.next;
  }

  /**
   * `sync()`, or nothing at all when no sync runs and a check made now finds the store where this
   * state is (a request's common case: no promise, no turn of the event loop). The same promise as
   * `sync`: whoever calls it after another process acknowledged a write sees that write.
   */
  syncNow(): Promise<void> | undefined {
    if (this.current === undefined && this.backend.unchangedSince?.(this.cursor) === true) return undefined;
    return this.sync();
  }

  /** Runs `f` on the synced state (a store failure is `CATALOG_STORE_UNAVAILABLE`). */
  async synced<A>(f: () => CatalogResult<A> | Promise<CatalogResult<A>>): Promise<CatalogResult<A>> {
    try {
      await this.sync();
    } catch (e) {
      return storeFailure(e);
    }
    return f();
  }

  /** Runs a decision in the store's transaction on the latest state; applies and announces what it wrote. */
  async write<A>(decide: () => Decided<A>): Promise<CatalogResult<A>> {
    const mine: string[] = [];
    // a store that checks keyed decisions itself takes the first one on the state as it is (no
    // round trip): it refuses it if another process took its keys meanwhile, and the retry syncs
    let first = this.backend.checksKeyed === true;
    try {
      const committed = await this.backend.transact(async () => {
        let decided = first ? decide() : undefined;
        if (decided === undefined || !this.isKeyed(decided)) {
          await this.sync();
          decided = decide();
        }
        first = false;
        const writes: RecordWrite[] = [];
        if (isRight(decided)) {
          for (const b of decided.right.bundles) mine.push('deleted' in b ? b.deleted : b.bundleID);
          for (const t of decided.right.tools) mine.push('deleted' in t ? t.deleted : t.toolID);
          for (const id of mine) this.own.add(id);
          for (const b of decided.right.bundles)
            writes.push('deleted' in b ? { kind: 'bundle', id: b.deleted } : { kind: 'bundle', id: b.bundleID, record: encodeBundle(b) });
          for (const t of decided.right.tools) writes.push('deleted' in t ? this.toolDeletion(t.deleted) : this.toolWrite(t));
        }
        return { writes, result: decided, basedOn: this.cursor, ...(this.isKeyed(decided) ? { keyed: true } : {}) };
      });
      // written after others' writes this process has not seen: see them all, its own included (as its own)
      // (the write is done: a failing sync here does not make it a failure; the next one catches up)
      if (committed.behind === true) await this.sync().catch(() => undefined);
      const d = committed.result;
      if (isLeft(d)) return { ok: false, error: d.left };
      // a sync that ran since the commit may have applied these records already
      if (committed.cursor !== undefined && !cursorAtLeast(this.cursor, committed.cursor)) {
        // first: a sync the listeners start (the /mcp list's) must not read these records back
        this.cursor = committed.cursor;
        for (const b of d.right.bundles) {
          const id = 'deleted' in b ? b.deleted : b.bundleID;
          const record = 'deleted' in b ? undefined : b.bundleID === BUILTIN_BUNDLE_ID ? builtinBundle(b) : b;
          this.emitChange('bundle', id, this.state.setBundle(id, record), record, false);
        }
        const tools = d.right.tools;
        const apply = (): void => {
          for (const t of tools) {
            const id = 'deleted' in t ? t.deleted : t.toolID;
            const record = 'deleted' in t ? undefined : this.overlayBuiltin(t);
            this.emitChange('tool', id, this.state.setTool(id, record), record, false);
          }
        };
        // many at once (an import's batch) as a load applies them: indexes merged once, search filled later
        if (tools.length > 64) this.state.bulk(apply);
        else apply();
      }
      return success(d.right.value);
    } catch (e) {
      return storeFailure(e);
    } finally {
      for (const id of mine) this.own.delete(id);
    }
  }

  /** Whether a decision only creates tools (no bundle, no tool it knows): it rests on what they hold unique and on their bundles. */
  private isKeyed<A>(decided: Decided<A>): boolean {
    if (!isRight(decided) || decided.right.bundles.length > 0) return false;
    const tools = decided.right.tools;
    return tools.length > 0 && tools.every((t) => !('deleted' in t) && !this.state.tools.has(t.toolID));
  }

  /** A tool's record, with its registry view (seed 002's Tool JSON). */
  private toolWrite(t: ToolRecord): RecordWrite {
    const view = hasRegistryView(t) ? { registry: { id: registryIdOf(t), record: seedRegistryTool(t) } } : {};
    return { kind: 'tool', id: t.toolID, record: encodeTool(t), ...view, unique: uniqueOf(t) };
  }

  /** A tool's deletion, with its registry view's (the record as the decision saw it names it). */
  private toolDeletion(id: string): RecordWrite {
    const old = this.state.tools.get(id);
    if (old === undefined) return { kind: 'tool', id };
    return { kind: 'tool', id, ...(hasRegistryView(old) ? { registry: { id: registryIdOf(old) } } : {}), unique: uniqueOf(old) };
  }

  async close(): Promise<void> {
    await this.unsubscribeRemote?.().catch(() => undefined);
    await this.backend.close();
  }

  // -----------------------------------------------------------------------------------------------
  // records
  // -----------------------------------------------------------------------------------------------

  /** The built-in bundle and its tools as the code defines them (stored records then set only their `isEnabled`). */
  private addBuiltinRecords(): void {
    this.state.setBundle(BUILTIN_BUNDLE_ID, builtinBundle());
    for (const spec of builtinSpecifications()) {
      const t = this.builtins.get(spec.name);
      if (t !== undefined) {
        const record = builtinToolRecord(spec, t.annotations);
        this.state.setTool(record.toolID, record);
      }
    }
  }

  /** One sync from the journal (never two at once; see `sync`). */
  private async syncOnce(): Promise<void> {
    const changes = await this.backend.changesSince(this.cursor);
    if (changes.reset) {
      if (changes.wiped === true) {
        this.wiped = { count: this.wiped.count + 1, lastAt: this.nowIso() };
      }
      const loaded = await this.backend.load();
      const tools = new Map(this.state.tools);
      const bundles = new Map(this.state.bundles);
      this.state.clear();
      this.addBuiltinRecords();
      this.state.bulk(() => this.applyReads(loaded.records, false, true));
      for (const [id, old] of bundles) this.emitChange('bundle', id, old, this.state.bundles.get(id), true);
      for (const [id, old] of tools) this.emitChange('tool', id, old, this.state.tools.get(id), true);
      for (const [id, r] of this.state.tools) if (!tools.has(id)) this.emitChange('tool', id, undefined, r, true);
      for (const [id, r] of this.state.bundles) if (!bundles.has(id)) this.emitChange('bundle', id, undefined, r, true);
      this.cursor = loaded.cursor;
      if (changes.wiped === true) this.afterWipe();
      return;
    }
    if (changes.changes.length > 64) this.state.bulk(() => this.applyReads(changes.changes, true, true));
    else if (changes.changes.length > 0) this.applyReads(changes.changes, true, true);
    this.cursor = changes.cursor;
  }

  /** Tells the wipe listeners (outside this sync: they write, and a write syncs). */
  private afterWipe(): void {
    setImmediate(() => {
      void (async () => {
        for (const l of this.wipeListeners) await Promise.resolve(l()).catch(() => undefined);
        this.wiped = { ...this.wiped, restoredAt: this.nowIso() };
      })();
    });
  }

  /** Decodes records read from the store into the state (a record that does not decode is set aside as corrupt). */
  private applyReads(reads: ReadonlyArray<RecordRead>, emit: boolean, remote: boolean): void {
    for (const r of reads) {
      const key = `${r.kind} ${r.id}`;
      if (r.kind === 'bundle') {
        let record: BundleRecord | undefined;
        if (r.json !== undefined) {
          const d = decodeStoredBundle(r.json);
          if (isLeft(d)) {
            this.state.corrupt.set(key, d.left);
            continue;
          }
          record = r.id === BUILTIN_BUNDLE_ID ? builtinBundle(d.right) : d.right;
        } else if (r.id === BUILTIN_BUNDLE_ID) record = builtinBundle();
        this.state.corrupt.delete(key);
        const old = this.state.setBundle(r.id, record);
        if (emit) this.emitChange('bundle', r.id, old, record, remote && !this.own.has(r.id));
      } else {
        let record: ToolRecord | undefined;
        if (r.json !== undefined) {
          const d = decodeStoredTool(r.json);
          if (isLeft(d)) {
            this.state.corrupt.set(key, d.left);
            continue;
          }
          record = this.overlayBuiltin(d.right);
        }
        this.state.corrupt.delete(key);
        const old = this.state.setTool(r.id, record);
        if (emit) this.emitChange('tool', r.id, old, record, remote && !this.own.has(r.id));
      }
    }
  }

  /** A stored built-in tool: the code's record with the stored `isEnabled` (kept as stored when the code no longer has it). */
  private overlayBuiltin(t: ToolRecord): ToolRecord {
    if (!t.isBuiltIn) return t;
    const name = builtinName(t.impl);
    const spec = name !== undefined ? builtinSpecification(name) : undefined;
    const impl = name !== undefined ? this.builtins.get(name) : undefined;
    return spec !== undefined && impl !== undefined ? builtinToolRecord(spec, impl.annotations, t) : t;
  }

  private emitChange(
    kind: 'bundle' | 'tool',
    id: string,
    old: BundleRecord | ToolRecord | undefined,
    record: BundleRecord | ToolRecord | undefined,
    remote: boolean,
  ): void {
    if (old === undefined && record === undefined) return;
    // the same record read back (its fields in another order) is no change
    if (old !== undefined && record !== undefined && jsonEqual(old, record)) return;
    let action: ChangeAction;
    if (old === undefined) action = 'created';
    else if (record === undefined) action = 'deleted';
    else if (kind === 'bundle' && (record as BundleRecord).softDeletedAt !== null && (old as BundleRecord).softDeletedAt === null) action = 'deleted';
    else if (old.isEnabled !== record.isEnabled && jsonEqual({ ...old, isEnabled: record.isEnabled }, record))
      action = record.isEnabled ? 'enabled' : 'disabled';
    else action = 'updated';
    for (const l of this.recordListeners) l(kind, old, record);
    const bundleID = kind === 'tool' ? ((record ?? old) as ToolRecord).bundleID : undefined;
    this.bus.emit({ type: 'changed', id: callId(), at: this.nowIso(), kind, action, recordID: id, ...(bundleID !== undefined ? { bundleID } : {}), remote });
  }
}
