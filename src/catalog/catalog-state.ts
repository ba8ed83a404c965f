/**
 * The catalog in memory: every record, the indexes the rules and the routes need (a tool by
 * `<bundle, slug, version>` and by registry id, tools per bundle, ids in order for keyset pages),
 * and the search index. The duplicate check and the read paths use these same maps, so a `<slug,
 * version>` that blocks a write is always one a read can find.
 *
 * Mutable, owned by one `Catalog`; everything it hands out is a frozen record.
 */
import type { Diagnostic } from '../core/diagnostic.js';
import type { BundleRecord, ToolRecord } from './records/records.js';
import { SearchIndex } from './search-index.js';
import { SortedKeys } from './sorted-keys.js';

export const toolKey = (bundleID: string, slug: string, version: string): string => `${bundleID}\u0000${slug}\u0000${version}`;

export class CatalogState {
  readonly bundles = new Map<string, BundleRecord>();
  readonly tools = new Map<string, ToolRecord>();
  private readonly byKey = new Map<string, string>();
  private readonly byRegistryId = new Map<string, string>();
  private readonly perBundle = new Map<string, Set<string>>();
  private readonly perSlug = new Map<string, Set<string>>();
  private readonly bundleIds = new SortedKeys();
  private readonly toolIds = new SortedKeys();
  readonly search = new SearchIndex();
  /** Stored records that do not decode, by `<kind> <id>` (skipped, never rewritten). */
  readonly corrupt = new Map<string, ReadonlyArray<Diagnostic>>();

  clear(): void {
    this.bundles.clear();
    this.tools.clear();
    this.byKey.clear();
    this.byRegistryId.clear();
    this.perBundle.clear();
    this.perSlug.clear();
    this.bundleIds.clear();
    this.toolIds.clear();
    this.search.clear();
    this.corrupt.clear();
  }

  // -----------------------------------------------------------------------------------------------
  // reads
  // -----------------------------------------------------------------------------------------------

  toolByKey(bundleID: string, slug: string, version: string): ToolRecord | undefined {
    const id = this.byKey.get(toolKey(bundleID, slug, version));
    return id === undefined ? undefined : this.tools.get(id);
  }

  toolByRegistryId(registryId: string): ToolRecord | undefined {
    const id = this.byRegistryId.get(registryId);
    return id === undefined ? undefined : this.tools.get(id);
  }

  toolsOf(bundleID: string): ReadonlyArray<ToolRecord> {
    return [...(this.perBundle.get(bundleID) ?? [])].map((id) => this.tools.get(id) as ToolRecord);
  }

  /** Every slug some tool has. */
  slugs(): Iterable<string> {
    return this.perSlug.keys();
  }

  /** Every tool with that slug, in any bundle, live or not. */
  toolsWithSlug(slug: string): ReadonlyArray<ToolRecord> {
    return [...(this.perSlug.get(slug) ?? [])].map((id) => this.tools.get(id) as ToolRecord);
  }

  toolCount(bundleID: string): number {
    return this.perBundle.get(bundleID)?.size ?? 0;
  }

  /** The live (not soft-deleted) bundle with that slug. */
  bundleBySlug(slug: string): BundleRecord | undefined {
    for (const b of this.bundles.values()) if (b.slug === slug && b.softDeletedAt === null) return b;
    return undefined;
  }

  bundleIdsAfter(after: string | undefined): Iterable<string> {
    return this.bundleIds.after(after);
  }

  toolIdsAfter(after: string | undefined): Iterable<string> {
    return this.toolIds.after(after);
  }

  // -----------------------------------------------------------------------------------------------
  // writes
  // -----------------------------------------------------------------------------------------------

  /**
   * Runs `f` (many records set at once: a load, an import's batch) with the sorted indexes merged
   * once, at the end, and the search index left to fill later: by the first search (which indexes
   * what is left first), or a slice at a time between other work once `indexInBackground` was
   * called (`gramkit serve`, once it listens). A start-up, or a one-shot command that never
   * searches, does not pay for it.
   */
  bulk<A>(f: () => A): A {
    this.bundleIds.defer();
    this.toolIds.defer();
    try {
      return this.search.bulk(f);
    } finally {
      this.bundleIds.settle();
      this.toolIds.settle();
      if (this.background) this.indexSoon();
    }
  }

  private background = false;
  /** From now on, what a load leaves to index is indexed in the background (now, and after each later load). */
  indexInBackground(): void {
    this.background = true;
    this.indexSoon();
  }

  private indexing = false;
  /** Runs the search index's `catchUp`, 2,000 documents a turn of the event loop (a process may end meanwhile: `unref`). */
  private indexSoon(): void {
    if (this.indexing) return;
    this.indexing = true;
    const slice = (): void => {
      if (this.search.catchUp(2000) > 0) setImmediate(slice).unref();
      else this.indexing = false;
    };
    setImmediate(slice).unref();
  }

  /** Sets (or removes) a bundle; returns the previous record. */
  setBundle(id: string, record: BundleRecord | undefined): BundleRecord | undefined {
    const old = this.bundles.get(id);
    if (record === undefined) {
      if (old !== undefined) this.bundleIds.remove(id);
      this.bundles.delete(id);
    } else {
      if (old === undefined) this.bundleIds.add(id);
      this.bundles.set(id, record);
    }
    return old;
  }

  /** Sets (or removes) a tool and its index entries; returns the previous record. */
  setTool(id: string, record: ToolRecord | undefined): ToolRecord | undefined {
    const old = this.tools.get(id);
    if (old !== undefined) {
      const key = toolKey(old.bundleID, old.slug, old.version);
      if (this.byKey.get(key) === id) this.byKey.delete(key);
      if (old.registryId !== undefined && this.byRegistryId.get(old.registryId) === id) this.byRegistryId.delete(old.registryId);
      this.perBundle.get(old.bundleID)?.delete(id);
      const same = this.perSlug.get(old.slug);
      same?.delete(id);
      if (same?.size === 0) this.perSlug.delete(old.slug);
    }
    if (record === undefined) {
      if (old !== undefined) this.toolIds.remove(id);
      this.tools.delete(id);
      this.search.remove(id);
      return old;
    }
    if (old === undefined) this.toolIds.add(id);
    this.tools.set(id, record);
    this.byKey.set(toolKey(record.bundleID, record.slug, record.version), id);
    if (record.registryId !== undefined) this.byRegistryId.set(record.registryId, id);
    let set = this.perBundle.get(record.bundleID);
    if (set === undefined) {
      set = new Set();
      this.perBundle.set(record.bundleID, set);
    }
    set.add(id);
    let same = this.perSlug.get(record.slug);
    if (same === undefined) {
      same = new Set();
      this.perSlug.set(record.slug, same);
    }
    same.add(id);
    this.search.put({
      id,
      slug: record.slug,
      displayName: record.displayName,
      description: record.description,
      tags: record.tags,
      modifiedAt: Date.parse(record.modifiedAt) || 0,
    });
    return old;
  }
}
