/**
 * What a catalog store does, whichever the back-end (flat files, Redis): keep records, keep a
 * journal of which records changed so every process can follow the others, run writes one at a
 * time across processes, and keep usage.
 *
 * The catalog keeps every record in memory (lists and search need them) and syncs from the journal
 * before each request. A write runs `transact`: the store makes the body exclusive (files: a lock;
 * Redis: an optimistic transaction that runs the body again when another writer got in first),
 * the body syncs and decides from the latest state, and the store writes the records and the
 * journal entries atomically.
 */
import type { JsonObject } from '../../core/json-schema.js';
import type { UsageCount, UsageEntry } from '../records/records.js';

export type RecordKind = 'bundle' | 'tool';

/** A record to write (`record`) or delete (no `record`). */
export interface RecordWrite {
  readonly kind: RecordKind;
  readonly id: string;
  readonly record?: JsonObject;
  /**
   * A tool's view in the registry's own layout (seed 002's `Tool` JSON under its registry id),
   * written or removed (no `record`) with the record, atomically. Stores that keep no such layout
   * (flat files) ignore it.
   */
  readonly registry?: { readonly id: string; readonly record?: JsonObject };
  /**
   * What a tool record holds unique (its `<bundle, slug, version>` and registry id) and its bundle,
   * for stores that check uniqueness themselves (Redis): a write of another record holding either
   * is refused as a conflict; a deletion frees them.
   */
  readonly unique?: { readonly key: string; readonly registryId?: string; readonly bundleID: string };
}

/** A record as read back: its JSON, or `undefined` when it was deleted. */
export interface RecordRead {
  readonly kind: RecordKind;
  readonly id: string;
  readonly json: unknown;
}

export interface LoadedRecords {
  readonly records: ReadonlyArray<RecordRead>;
  /** The journal position the records are at least as new as. */
  readonly cursor: string;
  /** The store lacks the registry views of its tools (a store laid out by an older release): write them (`writeViews`). */
  readonly missingViews?: boolean;
}

export type JournalChanges =
  | { readonly reset: false; readonly changes: ReadonlyArray<RecordRead>; readonly cursor: string }
  /**
   * The journal was compacted or trimmed past the cursor: load everything again. `wiped`: the
   * store itself was emptied under this process (Redis `FLUSHALL`): what it held is gone.
   */
  | { readonly reset: true; readonly wiped?: boolean };

/** What a transaction body decided. */
export interface Decision<A> {
  readonly writes: ReadonlyArray<RecordWrite>;
  readonly result: A;
  /** The journal position the decision was made at (after the body's sync). */
  readonly basedOn: string;
  /**
   * The decision depends only on what its writes hold unique and on their bundles (new tools):
   * a store that checks those (Redis) may commit it after other writes since `basedOn`.
   */
  readonly keyed?: boolean;
}

export interface Committed<A> {
  readonly result: A;
  /** The journal position after the writes (absent when there were none, or when `behind`). */
  readonly cursor?: string;
  /** The writes landed after others this process has not synced yet (a `keyed` decision): sync to see them. */
  readonly behind?: boolean;
}

/** Usage to add: calls since the last flush and the latest call time. */
export interface UsageDelta {
  readonly toolID: string;
  readonly calls: number;
  readonly lastCalledAt: string;
}

export interface CatalogBackend {
  /** `files` or `redis`. */
  readonly kind: 'files' | 'redis';
  /** Where, for messages: the directory or the URL (without credentials). */
  readonly location: string;
  /** Every record, and the journal position they reflect. */
  readonly load: () => Promise<LoadedRecords>;
  /** The records changed since `cursor`. */
  readonly changesSince: (cursor: string) => Promise<JournalChanges>;
  /**
   * Whether a check made now, synchronously, finds nothing after `cursor` (the files' journal: one
   * `stat`). False means "ask `changesSince`" (a change, an error, or a store with no such check).
   */
  readonly unchangedSince?: (cursor: string) => boolean;
  /** Runs `body` exclusively across processes and writes what it decided (see the module comment). */
  readonly transact: <A>(body: () => Promise<Decision<A>>) => Promise<Committed<A>>;
  /** Adds usage and appends history entries (each list capped at `cap`, newest kept). */
  readonly recordUsage: (deltas: ReadonlyArray<UsageDelta>, entries: ReadonlyArray<UsageEntry>, cap: number) => Promise<void>;
  readonly readUsage: (toolIDs: ReadonlyArray<string>) => Promise<ReadonlyMap<string, UsageCount>>;
  /** Newest first; an agent's history, or the global one. */
  readonly readHistory: (agentId: string | undefined, limit: number) => Promise<ReadonlyArray<UsageEntry>>;
  /** Sends an event to the other processes on this store (Redis); a no-op for files. */
  readonly publish: (event: JsonObject) => Promise<void>;
  /** Receives the events other processes published; the function returned stops it. */
  readonly onPublished: (listener: (event: JsonObject) => void) => Promise<() => Promise<void>>;
  /**
   * The store itself checks a `keyed` decision (its tools' ids, `<bundle, slug, version>` and
   * registry ids are free, their bundles unchanged since `basedOn`) when it commits: such a
   * decision may be made on the state as it is, without a sync first (Redis). A store without it
   * (files) gets every decision made after a sync, under its lock.
   */
  readonly checksKeyed?: boolean;
  /** Writes registry views (`RecordWrite.registry`) apart from any record: the repair `missingViews` asks for. */
  readonly writeViews?: (views: ReadonlyArray<{ readonly id: string; readonly record: JsonObject }>) => Promise<void>;
  readonly close: () => Promise<void>;
}

/** Thrown by back-ends for I/O failures; the catalog turns it into `CATALOG_STORE_UNAVAILABLE`. */
export class StoreError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause !== undefined ? { cause } : undefined);
    this.name = 'StoreError';
  }
}
