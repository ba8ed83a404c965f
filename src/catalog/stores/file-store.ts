/**
 * The flat-file store (the catalog offline, nothing but a directory): one JSON file per record, in
 * a directory that several processes may serve at once.
 *
 * ```
 * DIR/lock                      the lock file (open-file-description locks, see file-lock.ts)
 * DIR/journal                   one line per changed record: "<kind> <id>\n", appended under the lock
 * DIR/intent                    the records a write is changing, while it is in flight
 * DIR/snapshot                  every record on one line, at a journal position (snapshot.ts)
 * DIR/bundles/<xx>/<id>.json    bundle records (<xx>: the id's last two hex digits, record-files.ts)
 * DIR/tools/<xx>/<id>.json      tool records
 * DIR/usage.json                {toolID: {callCount, lastCalledAt}}
 * DIR/history/global.jsonl, DIR/history/agents/<sha256 of the agent id>.jsonl (an agent's file
 *                               expires 30 days after its last call, as the Redis store's key does,
 *                               and at most 10,000 are kept: the oldest go first)
 * DIR/tmp/                      temporary files of atomic writes (swept under the lock)
 * ```
 *
 * A write, holding the lock (only calls that touch the page cache, made synchronously): (1) the
 * intent file (written in place), (2) each record written to a temporary file and renamed into
 * place, (3) the journal lines appended, (4) the intent cleared. Then, the lock released (so
 * concurrent writers, in this process or others, flush together): (5) each record's file and its
 * directory flushed; only then is it acknowledged. A record that replaces an existing file is
 * flushed before its rename (a crash of the machine never empties a good record); a new record the
 * machine lost before its flush was never acknowledged, and an empty record file reads as absent.
 * The intent and the journal need only outlive a killed process (the page cache keeps them), since
 * after a crash of the machine every process loads the records again. Whoever takes the lock next
 * and finds an intent (its writer died) sweeps `tmp/`, ends a partial journal line and journals
 * those records again, so no process misses a record that reached the disk. The lock covers what
 * must be decided together (the `<slug, version>` a write may take, the journal's order), never the
 * wait for the disk.
 *
 * A reader follows the journal from its position (`<inode>:<offset>`): a journal line exists only
 * once its record is in place. Each request checks that nothing follows its position with a
 * one-byte read on the journal it keeps open (`unchangedSince`); a compaction marks the journal it
 * replaces, and the path is looked up at least every RESTAT_MS (a journal replaced from outside). Opening reads the snapshot and the journal's tail after it (the
 * records it names), not every file. Holding the lock, each write appends its records to the
 * snapshot when it is current (so the tail stays empty); when it is not, a snapshot is taken again
 * in the background once the tail passes a sixteenth of the catalog (so the work per write stays
 * the same at any size, and the tail an open reads stays short). When the journal passes 4 MB it is replaced by an empty one (new
 * inode) together with a snapshot at its start: readers then reload from that snapshot.
 */
import { closeSync, constants, ftruncateSync, fstatSync, mkdirSync, readFileSync, readSync, renameSync, statSync, writeSync } from 'node:fs';
import { type FileHandle, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject } from '../../core/json-schema.js';
import {
  APPEND,
  flushFiles,
  openRegular,
  openRegularSync,
  placeFile,
  READ_APPEND,
  removeFile,
  sweepTemp,
  syncDirectory,
  syncFileSystem,
  tempPath,
  writeFileAtomic,
} from './atomic-write.js';
import {
  type CatalogBackend,
  type Committed,
  type Decision,
  type JournalChanges,
  type LoadedRecords,
  type RecordKind,
  type RecordRead,
  StoreError,
  type UsageDelta,
} from './backend.js';
import { fileLock } from './file-lock.js';
import { agentHistoryName } from '../records/ids.js';
import { listRecordIds, makeRecordDirectories, migrateFlatRecords, RECORD_KINDS, recordPath as pathOf, SAFE_ID, shardDirectory } from './record-files.js';
import type { UsageCount, UsageEntry } from '../records/records.js';
import { prepareSnapshot, readSnapshot, snapshotAppend, snapshotCursor, writeSnapshot } from './snapshot.js';

/**
 * The journal is compacted past this size, or past twice the catalog's own lines when that is more
 * (so a compaction, which rewrites the snapshot, comes once per catalog's worth of writes at any size).
 */
const JOURNAL_LIMIT = 4 * 1024 * 1024;
/** How often a reader looks the journal's path up at least (a journal deleted or replaced from outside gramkit is found within it). */
const RESTAT_MS = 100;
/** The bytes of one journal line ("tool <uuid>\n"). */
const LINE_BYTES = 42;
/** A write of this many records or more (an import's batch) is flushed with one `syncfs` (`syncFileSystem`), not a flush per file. */
const BULK_WRITE = 256;

export interface FileStoreOptions {
  /** Flush every write to disk (default true; tests of speed only may turn it off). */
  readonly durable?: boolean;
  /** Agents' usage histories kept at most (default 10,000; the least recently used go first). */
  readonly maxAgentHistories?: number;
  /** An agent's usage history expires this long after its last call (default 30 days, the Redis store's TTL). */
  readonly agentHistoryTtlMs?: number;
  /**
   * Snapshots (see the module comment): taken once the catalog holds this many records, or the
   * journal this many lines past the last one (default 1,000; smaller catalogs open as fast
   * without one).
   */
  readonly snapshotEvery?: number;
  /** The journal is replaced by an empty one past this size (default 4 MB; tests make it small to replace it often). */
  readonly journalLimitBytes?: number;
}

const MAX_AGENT_HISTORIES = 10_000;
const AGENT_HISTORY_TTL_MS = 30 * 24 * 3600 * 1000;
/** Expired histories are looked for at most this often (a new agent over the cap sweeps at once). */
const SWEEP_EVERY_MS = 3600 * 1000;

/**
 * Where the last `count` non-empty lines of `text` start, or `undefined` when it has no more
 * non-empty lines than that (nothing to trim).
 */
const tailStart = (text: string, count: number): number | undefined => {
  let seen = 0;
  let start: number | undefined;
  let end = text.length;
  while (end > 0) {
    const nl = text.lastIndexOf('\n', end - 1);
    if (nl + 1 < end) {
      if (seen === count) return start;
      seen++;
      start = nl + 1;
    }
    end = nl;
  }
  return undefined;
};

type Position = { readonly ino: number; readonly size: number };
const parseCursor = (cursor: string): Position => {
  const [ino, size] = cursor.split(':').map(Number) as [number, number];
  return { ino, size };
};
const keyOf = (kind: RecordKind, id: string): string => `${kind} ${id}`;
const splitKey = (key: string): { readonly kind: RecordKind; readonly id: string } => {
  const at = key.indexOf(' ');
  return { kind: key.slice(0, at) as RecordKind, id: key.slice(at + 1) };
};

/** Opens (creating it if needed) a catalog directory. Throws `StoreError` when it cannot. */
export const openFileStore = (dir: string, options: FileStoreOptions = {}): CatalogBackend => {
  const durable = options.durable !== false;
  const snapshotEvery = Math.max(1, options.snapshotEvery ?? 1000);
  const journalLimit = options.journalLimitBytes ?? JOURNAL_LIMIT;
  const paths = {
    lock: join(dir, 'lock'),
    journal: join(dir, 'journal'),
    intent: join(dir, 'intent'),
    snapshot: join(dir, 'snapshot'),
    tmp: join(dir, 'tmp'),
    usage: join(dir, 'usage.json'),
    history: join(dir, 'history'),
  };
  try {
    for (const d of [dir, paths.tmp, paths.history, join(paths.history, 'agents')]) mkdirSync(d, { recursive: true });
    makeRecordDirectories(dir);
  } catch (e) {
    throw new StoreError(`cannot create the catalog directory ${dir}: ${(e as Error).message}`, e);
  }
  const lock = fileLock(paths.lock);
  const recordPath = (kind: RecordKind, id: string): string => pathOf(dir, kind, id);

  /**
   * A stored file's text: opened without following a link and without blocking (a FIFO planted in
   * the directory would hang every request), and refused unless it is a regular file.
   */
  const readRegular = async (path: string): Promise<string> => {
    const h = await openRegular(path, constants.O_RDONLY);
    try {
      return await h.readFile('utf8');
    } finally {
      await h.close();
    }
  };

  const readRegularSync = (path: string): string => {
    const fd = openRegularSync(path, constants.O_RDONLY);
    try {
      return readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  };

  // ------------------------------------------------------------------------------------------------
  // reading
  // ------------------------------------------------------------------------------------------------

  /** A record's JSON from its file's text (`read` throws as `readFile` does). */
  const recordOf = (kind: RecordKind, id: string, read: () => string): unknown => {
    try {
      const text = read();
      // a new record the machine lost before it was flushed (never acknowledged)
      if (text === '') return undefined;
      return JSON.parse(text) as unknown;
    } catch (e) {
      return unreadable(kind, id, e);
    }
  };
  const unreadable = (kind: RecordKind, id: string, e: unknown): unknown => {
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT') return undefined;
    // a link (O_NOFOLLOW: ELOOP) or a FIFO, device or directory: reported as corrupt, never read
    if (code === 'ELOOP' || code === 'ENOTREG')
      return { __corrupt: `${recordPath(kind, id)} is not a regular file (a link, a FIFO or a device); records are regular files` };
    // a file that does not parse is reported by the catalog as corrupt, not thrown
    if (e instanceof SyntaxError) return { __corrupt: e.message };
    throw new StoreError(`cannot read ${recordPath(kind, id)}: ${(e as Error).message}`, e);
  };
  const readRecord = async (kind: RecordKind, id: string): Promise<unknown> => {
    let text: string;
    try {
      text = await readRegular(recordPath(kind, id));
    } catch (e) {
      return unreadable(kind, id, e);
    }
    return recordOf(kind, id, () => text);
  };
  /** The same, synchronously: a few records (a writer's sync holding the lock) read from the page cache without a round trip through the thread pool, where flushes wait. */
  const readRecordSync = (kind: RecordKind, id: string): unknown => recordOf(kind, id, () => readRegularSync(recordPath(kind, id)));

  /** Reads records 256 at a time (a cold read of many files is bound by the file system). */
  const readRecords = async (keys: Iterable<string>): Promise<ReadonlyArray<RecordRead>> => {
    const all = [...keys];
    if (all.length <= 32) return all.map(splitKey).map((k) => ({ kind: k.kind, id: k.id, json: readRecordSync(k.kind, k.id) }));
    const out: RecordRead[] = [];
    for (let i = 0; i < all.length; i += 256) {
      const batch = all.slice(i, i + 256).map(splitKey);
      const jsons = await Promise.all(batch.map((k) => readRecord(k.kind, k.id)));
      batch.forEach((k, j) => out.push({ kind: k.kind, id: k.id, json: jsons[j] }));
    }
    return out;
  };

  const journalPosition = async (): Promise<Position> => {
    try {
      // synchronous on purpose: every request syncs, and a stat takes microseconds, less than a
      // round trip through the thread pool
      const s = statSync(paths.journal);
      return { ino: s.ino, size: s.size };
    } catch (e) {
      if ((e as { code?: string }).code !== 'ENOENT') throw e;
      const h = await openRegular(paths.journal, APPEND);
      await h.close();
      const s = await stat(paths.journal);
      return { ino: s.ino, size: s.size };
    }
  };

  /** The records the journal names after `cursor` (each once), or `undefined` when the journal was replaced since. */
  const journalSince = async (cursor: string): Promise<{ readonly keys: ReadonlySet<string>; readonly cursor: string } | undefined> => {
    const from = parseCursor(cursor);
    const at = await journalPosition();
    if (at.ino !== from.ino || at.size < from.size) return undefined;
    if (at.size === from.size) return { keys: new Set(), cursor };
    // synchronously: the tail a request or a writer reads is a few lines in the page cache
    let text: string;
    const fd = openRegularSync(paths.journal, constants.O_RDONLY);
    try {
      const buf = Buffer.alloc(at.size - from.size);
      const bytesRead = readSync(fd, buf, 0, buf.length, from.size);
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      closeSync(fd);
    }
    const end = text.lastIndexOf('\n') + 1;
    const keys = new Set<string>();
    for (const line of text.slice(0, end).split('\n')) {
      const [kind, id] = line.split(' ');
      if ((kind === 'bundle' || kind === 'tool') && id !== undefined && SAFE_ID.test(id)) keys.add(keyOf(kind, id));
    }
    return { keys, cursor: `${from.ino}:${from.size + Buffer.byteLength(text.slice(0, end))}` };
  };

  // every request syncs: the position of the last cursor seen, and the answer "nothing since", made once per cursor
  let seen: { readonly cursor: string; readonly at: Position } | undefined;
  let nothingSince: { readonly cursor: string; readonly answer: Promise<JournalChanges> } | undefined;

  /** The journal as `seen` names it, open for the one-byte read of `unchangedSince`. */
  let watched: { readonly fd: number; readonly ino: number } | undefined;
  /** When the journal's path was last looked up (`Date.now()`). */
  let lookedUpAt = Number.NEGATIVE_INFINITY;
  const probe = Buffer.alloc(1);

  /** The journal at its path, as `stat` finds it now, matched against `at`: true when unchanged. */
  const journalAt = (at: Position): boolean => {
    const s = statSync(paths.journal, { throwIfNoEntry: false });
    if (s === undefined || s.ino !== at.ino || s.size !== at.size) return false;
    lookedUpAt = Date.now();
    if (watched?.ino !== s.ino) {
      if (watched !== undefined) closeSync(watched.fd);
      watched = undefined;
      const fd = openRegularSync(paths.journal, constants.O_RDONLY);
      if (fstatSync(fd).ino === s.ino) watched = { fd, ino: s.ino };
      else closeSync(fd);
    }
    return true;
  };

  /**
   * Whether the journal is where `cursor` left it, checked now (so a request after another process
   * acknowledged a write still sees it). Most often one read of one byte past the cursor on the
   * journal kept open: nothing there, nothing changed. A write appends there, and a compaction,
   * which replaces the journal, marks the old one after its rename (`compactJournal`); a journal
   * deleted or replaced from outside gramkit (or by a writer killed between its rename and its mark)
   * is found by the path's `stat`, made at least every RESTAT_MS. Any error is "no" (the slow path
   * says why, as a StoreError).
   */
  const unchangedSince = (cursor: string): boolean => {
    try {
      if (seen?.cursor !== cursor) seen = { cursor, at: parseCursor(cursor) };
      const at = seen.at;
      if (watched === undefined || watched.ino !== at.ino || Date.now() - lookedUpAt >= RESTAT_MS) return journalAt(at);
      return readSync(watched.fd, probe, 0, 1, at.size) === 0;
    } catch {
      return false;
    }
  };

  /** The changes after `cursor`; a journal that has not moved is one `stat` and one shared, resolved answer. */
  const changesSince = (cursor: string): Promise<JournalChanges> => {
    if (!unchangedSince(cursor)) return changesAfter(cursor);
    if (nothingSince?.cursor !== cursor) nothingSince = { cursor, answer: Promise.resolve(Object.freeze({ reset: false, changes: [], cursor })) };
    return nothingSince.answer;
  };

  const changesAfter = async (cursor: string): Promise<JournalChanges> => {
    let since: Awaited<ReturnType<typeof journalSince>>;
    try {
      since = await journalSince(cursor);
    } catch (e) {
      throw new StoreError(`cannot read the journal of ${dir}: ${(e as Error).message}`, e);
    }
    if (since === undefined) return { reset: true };
    return { reset: false, changes: await readRecords(since.keys), cursor: since.cursor };
  };

  /** Every record, from the files themselves; and the journal position taken before (they are at least as new). */
  const readEveryRecord = async (): Promise<{ readonly records: ReadonlyArray<RecordRead>; readonly cursor: string }> => {
    const at = await journalPosition();
    const keys: string[] = [];
    for (const kind of RECORD_KINDS) for (const id of await listRecordIds(dir, kind)) keys.push(keyOf(kind, id));
    const records = (await readRecords(keys)).filter((r) => r.json !== undefined);
    return { records, cursor: `${at.ino}:${at.size}` };
  };

  /** The records as JSON texts on one line (what a snapshot holds). */
  const linesOf = (records: ReadonlyArray<RecordRead>): Map<string, string> => new Map(records.map((r) => [keyOf(r.kind, r.id), JSON.stringify(r.json)]));

  /**
   * Every record as one-line texts and the position they reflect: the snapshot and the journal's
   * tail read on top (its records replaced), or, when there is no usable snapshot, every file.
   */
  const current = async (): Promise<{ readonly lines: Map<string, string>; readonly cursor: string; readonly tail: number; readonly full: boolean }> => {
    const snap = await readSnapshot(paths.snapshot);
    const since = snap === undefined ? undefined : await journalSince(snap.cursor);
    if (snap === undefined || since === undefined) {
      const all = await readEveryRecord();
      return { lines: linesOf(all.records), cursor: all.cursor, tail: all.records.length, full: true };
    }
    for (const r of await readRecords(since.keys)) {
      const key = keyOf(r.kind, r.id);
      if (r.json === undefined) snap.lines.delete(key);
      else snap.lines.set(key, JSON.stringify(r.json));
    }
    return { lines: snap.lines, cursor: since.cursor, tail: since.keys.size, full: false };
  };

  /** Where the last snapshot this process knows of stands (its journal offset), and the catalog's size then. */
  let snapshotAt: { readonly ino: number; readonly size: number; readonly records: number } | undefined;
  let checkpointing: Promise<void> | undefined;

  /** Takes a snapshot now (from the previous one and the journal's tail). */
  const checkpoint = async (): Promise<void> => {
    const now = await current();
    await placeSnapshot(now.cursor, now.lines);
  };

  /**
   * Writes a snapshot beside the current one, then, holding the lock (so it cannot replace a newer
   * one written meanwhile, or one taken with a new journal), puts it in place, or drops it when it
   * is older than what is there.
   */
  const placeSnapshot = async (cursor: string, lines: ReadonlyMap<string, string>): Promise<void> => {
    const tmp = await prepareSnapshot(paths.tmp, cursor, lines);
    const mine = parseCursor(cursor);
    await lock.run(async () => {
      const there = snapshotCursor(paths.snapshot);
      const theirs = there === undefined ? undefined : parseCursor(there);
      const journal = await journalPosition();
      const newer = journal.ino !== mine.ino || (theirs !== undefined && theirs.ino === mine.ino && theirs.size >= mine.size);
      if (newer) await removeFile(tmp, { syncDir: false });
      else {
        renameSync(tmp, paths.snapshot);
        snapshotAt = { ...mine, records: lines.size };
      }
    });
  };

  /** Whether the journal at `at` is far enough past the last snapshot to take another. */
  const dueForSnapshot = (at: Position): boolean => {
    const base = snapshotAt;
    if (base === undefined || base.ino !== at.ino) return at.size / LINE_BYTES >= snapshotEvery;
    return (at.size - base.size) / LINE_BYTES >= Math.max(snapshotEvery, base.records / 16);
  };

  /** A snapshot taken in the background (one at a time); a failure only leaves the older one in use. */
  const checkpointSoon = (): void => {
    checkpointing ??= checkpoint()
      .catch(() => undefined)
      .finally(() => {
        checkpointing = undefined;
      });
  };

  let migrated = false;
  /** Whether this process holds the lock in a write (a load then is a writer's sync). */
  let holding = false;

  const load = async (): Promise<LoadedRecords> => {
    try {
      // once, at the first load (never from a writer's sync, which holds the lock already)
      if (!migrated && !holding) {
        await lock.run(() => migrateFlatRecords(dir, durable));
        migrated = true;
      }
      const snap = await readSnapshot(paths.snapshot);
      if (snap !== undefined) {
        const loaded = await fromSnapshot(snap.cursor, snap.lines);
        if (loaded !== undefined) return loaded;
      }
      const all = await readEveryRecord();
      if (all.records.length >= snapshotEvery) {
        const lines = linesOf(all.records);
        checkpointing ??= placeSnapshot(all.cursor, lines)
          .catch(() => undefined)
          .finally(() => {
            checkpointing = undefined;
          });
      }
      return all;
    } catch (e) {
      throw e instanceof StoreError ? e : new StoreError(`cannot load the catalog at ${dir}: ${(e as Error).message}`, e);
    }
  };

  /** The records from a snapshot and the journal's tail after it; `undefined` when the snapshot cannot be used. */
  const fromSnapshot = async (cursor: string, lines: Map<string, string>): Promise<LoadedRecords | undefined> => {
    const since = await journalSince(cursor);
    if (since === undefined) return undefined;
    const records: RecordRead[] = [];
    for (const [key, text] of lines) {
      if (since.keys.has(key)) continue;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return undefined;
      }
      const { kind, id } = splitKey(key);
      records.push({ kind, id, json });
    }
    for (const r of await readRecords(since.keys)) if (r.json !== undefined) records.push(r);
    snapshotAt = { ...parseCursor(cursor), records: lines.size };
    if (dueForSnapshot(parseCursor(since.cursor))) checkpointSoon();
    return { records, cursor: since.cursor };
  };

  // ------------------------------------------------------------------------------------------------
  // writing (holding the lock)
  // ------------------------------------------------------------------------------------------------

  let journalFd: { readonly fd: number; readonly ino: number } | undefined;
  /**
   * Appends journal lines (holding the lock, so no one else appends meanwhile); returns the
   * journal's position after them. Not flushed: after a crash of the machine every process loads
   * the records again, so only the records need to reach the disk.
   */
  const appendJournal = (lines: string): Position => {
    let s: { readonly ino: number; readonly size: number } | undefined;
    try {
      s = statSync(paths.journal);
    } catch {
      s = undefined;
    }
    if (journalFd === undefined || s === undefined || s.ino !== journalFd.ino) {
      if (journalFd !== undefined) closeSync(journalFd.fd);
      journalFd = undefined;
      const fd = openRegularSync(paths.journal, READ_APPEND);
      const st = fstatSync(fd);
      journalFd = { fd, ino: st.ino };
      s = st;
    }
    const written = writeSync(journalFd.fd, lines, null, 'utf8');
    return { ino: journalFd.ino, size: s.size + written };
  };

  /** A writer killed mid-append may have left a partial line: end it, so it cannot swallow the next. */
  const endPartialLine = async (): Promise<void> => {
    const h = await openRegular(paths.journal, READ_APPEND);
    try {
      const { size } = await h.stat();
      if (size === 0) return;
      const last = Buffer.alloc(1);
      await h.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) await h.write('\n', null, 'utf8');
    } finally {
      await h.close();
    }
  };

  /**
   * The intent file, opened once and written in place: the records a write is changing, while it is
   * in flight (truncated to nothing when done). It only has to outlive its writer's process (the
   * page cache does), not the machine: after a crash of the machine every process loads again.
   */
  let intentHandle: FileHandle | undefined;
  const intentFile = async (): Promise<FileHandle> => {
    if (intentHandle === undefined) {
      intentHandle = await openRegular(paths.intent, constants.O_RDWR | constants.O_CREAT);
      if (durable) await syncDirectory(dir);
    }
    return intentHandle;
  };
  let swept = false;

  /**
   * What a writer that died left (run holding the lock, before anything else): the records it was
   * changing, journaled again so readers reload them, and its temporary files. One `fstat` when
   * no writer died.
   */
  const recover = async (): Promise<void> => {
    const h = await intentFile();
    const { size } = fstatSync(h.fd);
    if (size === 0 && swept) return;
    swept = true;
    await sweepTemp(paths.tmp);
    if (size === 0) return;
    const buf = Buffer.alloc(size);
    const { bytesRead } = await h.read(buf, 0, size, 0);
    const lines = buf
      .subarray(0, bytesRead)
      .toString('utf8')
      .split('\n')
      .filter((l) => /^(bundle|tool) [0-9a-f-]{36}$/.test(l));
    await endPartialLine();
    if (lines.length > 0) appendJournal(`${lines.join('\n')}\n`);
    await h.truncate(0);
  };

  /**
   * Replaces the journal by an empty one (holding the lock) together with a snapshot at its start,
   * so readers that see the new journal reload from the snapshot, not from every file. The snapshot
   * comes first: a process that opens in between finds it on another journal and reads every file.
   */
  const compactJournal = async (): Promise<void> => {
    const now = await current();
    const tmp = tempPath(paths.tmp, 'journal');
    const fd = openRegularSync(tmp, APPEND | constants.O_EXCL);
    let ino: number;
    try {
      ino = fstatSync(fd).ino;
    } finally {
      closeSync(fd);
    }
    await writeSnapshot(paths.snapshot, paths.tmp, `${ino}:0`, now.lines);
    // the journal being replaced gets an empty line after the rename: a reader that reads past its
    // position on it (unchangedSince) then looks the path up and finds the new one
    let replaced: number | undefined;
    try {
      replaced = openRegularSync(paths.journal, APPEND);
    } catch {
      replaced = undefined;
    }
    try {
      renameSync(tmp, paths.journal);
      if (replaced !== undefined) writeSync(replaced, '\n');
    } finally {
      if (replaced !== undefined) closeSync(replaced);
    }
    if (durable) await syncDirectory(dir);
    snapshotAt = { ino, size: 0, records: now.lines.size };
  };

  /** The snapshot file as this process last saw it (its inode and size) and the journal position it reflects. */
  let snapshotFile: { readonly ino: number; readonly size: number; readonly cursor: string } | undefined;
  let snapshotFd: { readonly fd: number; readonly ino: number } | undefined;

  /**
   * Holding the lock, after the journal lines: when the snapshot reflects the journal as it was
   * before them, the write's records and a mark are appended to it (in the page cache, not
   * flushed), so it stays current and an open reads no tail. Otherwise nothing: checkpoints catch
   * up (`dueForSnapshot`).
   */
  const appendToSnapshot = (before: Position, after: Position, writes: Decision<unknown>['writes']): void => {
    const s = statSync(paths.snapshot, { throwIfNoEntry: false });
    if (s === undefined || !s.isFile()) return;
    if (snapshotFile === undefined || snapshotFile.ino !== s.ino || snapshotFile.size !== s.size) {
      const cursor = snapshotCursor(paths.snapshot);
      snapshotFile = cursor === undefined ? undefined : { ino: s.ino, size: s.size, cursor };
    }
    if (snapshotFile?.cursor !== `${before.ino}:${before.size}`) return;
    if (snapshotFd === undefined || snapshotFd.ino !== s.ino) {
      if (snapshotFd !== undefined) closeSync(snapshotFd.fd);
      snapshotFd = undefined;
      const fd = openRegularSync(paths.snapshot, APPEND);
      if (fstatSync(fd).ino !== s.ino) {
        closeSync(fd);
        return;
      }
      snapshotFd = { fd, ino: s.ino };
    }
    const cursor = `${after.ino}:${after.size}`;
    const records = writes.map((w) => ({ key: keyOf(w.kind, w.id), json: w.record === undefined ? undefined : JSON.stringify(w.record) }));
    const written = writeSync(snapshotFd.fd, snapshotAppend(records, cursor), null, 'utf8');
    snapshotFile = { ino: s.ino, size: s.size + written, cursor };
    snapshotAt = { ...after, records: (snapshotAt?.records ?? 0) + writes.length };
  };

  /**
   * One write (see the module comment): decided and put in place holding the lock, flushed after
   * it is released, acknowledged once flushed.
   */
  const transact = async <A>(body: () => Promise<Decision<A>>): Promise<Committed<A>> => {
    const dirs = new Set<string>();
    const placed: string[] = [];
    let committed: Committed<A>;
    let at: Position | undefined;
    const release = await lock.acquire();
    holding = true;
    try {
      await recover();
      const decision = await body();
      if (decision.writes.length === 0) return { result: decision.result };
      const lines = decision.writes.map((w) => `${w.kind} ${w.id}`);
      for (const w of decision.writes) if (!SAFE_ID.test(w.id)) throw new StoreError(`refusing to write a record with the id ${JSON.stringify(w.id)}`);
      const intent = await intentFile();
      writeSync(intent.fd, `${lines.join('\n')}\n`, 0, 'utf8');
      for (const w of decision.writes) {
        const path = recordPath(w.kind, w.id);
        if (w.record !== undefined) {
          await placeFile(path, `${JSON.stringify(w.record, null, 2)}\n`, paths.tmp, durable);
          placed.push(path);
        } else await removeFile(path, { syncDir: false });
        dirs.add(shardDirectory(dir, w.kind, w.id));
      }
      const text = `${lines.join('\n')}\n`;
      at = appendJournal(text);
      ftruncateSync(intent.fd, 0);
      appendToSnapshot({ ino: at.ino, size: at.size - Buffer.byteLength(text) }, at, decision.writes);
      if (at.size >= Math.max(journalLimit, 2 * LINE_BYTES * (snapshotAt?.records ?? 0))) await compactJournal();
      committed = { result: decision.result, cursor: `${at.ino}:${at.size}` };
    } catch (e) {
      throw e instanceof StoreError ? e : new StoreError(`cannot write to the catalog at ${dir}: ${(e as Error).message}`, e);
    } finally {
      holding = false;
      release();
    }
    try {
      // the write is acknowledged once its files and their directories are on disk: a bulk write's
      // with one syncfs, a small one's each flushed (at once, so concurrent writers' share the disk's commits)
      if (durable && !(placed.length >= BULK_WRITE && (await syncFileSystem(dir))))
        await Promise.all([flushFiles(placed), ...[...dirs].map((d) => syncDirectory(d))]);
    } catch (e) {
      throw new StoreError(`cannot flush the catalog at ${dir}: ${(e as Error).message}`, e);
    }
    if (at !== undefined && dueForSnapshot(at)) {
      // a bulk write (an import's batch) brings the snapshot up to date before it returns, so the
      // next batch finds it current and appends to it; a small one leaves that to the background
      if (placed.length >= 256) {
        await checkpointing;
        if (dueForSnapshot(at)) await checkpoint().catch(() => undefined);
      } else checkpointSoon();
    }
    return committed;
  };

  // ------------------------------------------------------------------------------------------------
  // usage
  // ------------------------------------------------------------------------------------------------

  let usageCache: { readonly key: string; readonly value: Readonly<Record<string, UsageCount>> } | undefined;
  const readUsageFile = async (): Promise<Readonly<Record<string, UsageCount>>> => {
    const s = await stat(paths.usage).catch(() => undefined);
    if (s === undefined) return {};
    const key = `${s.ino}:${s.size}:${s.mtimeMs}`;
    if (usageCache?.key === key) return usageCache.value;
    try {
      const value = JSON.parse(await readRegular(paths.usage)) as Record<string, UsageCount>;
      usageCache = { key, value };
      return value;
    } catch {
      return {};
    }
  };

  const historyPath = (agentId: string | undefined): string =>
    agentId === undefined ? join(paths.history, 'global.jsonl') : join(paths.history, 'agents', `${agentHistoryName(agentId)}.jsonl`);

  /** Appends `entries` to a history file; true when the file was new. */
  const appendHistory = async (path: string, entries: ReadonlyArray<UsageEntry>, cap: number): Promise<boolean> => {
    if (entries.length === 0) return false;
    const h = await openRegular(path, APPEND);
    try {
      const text = entries.map((e) => `${JSON.stringify(e)}\n`).join('');
      await h.appendFile(text, 'utf8');
      const { size } = await h.stat();
      if (size > Math.max(64 * 1024, cap * 600)) {
        // the last `cap` lines, found from the end: no array of every line (a trim runs about every
        // 3 × cap calls, and splitting the whole file was most of a busy server's usage upkeep)
        const text = await readRegular(path);
        const start = tailStart(text, cap);
        if (start !== undefined) await writeFileAtomic(path, text.endsWith('\n') ? text.slice(start) : `${text.slice(start)}\n`, paths.tmp, { syncDir: false });
      }
      return size === Buffer.byteLength(text);
    } finally {
      await h.close();
    }
  };

  // agents' histories: bounded in number and expiring (holding the lock)
  const maxAgents = Math.max(1, options.maxAgentHistories ?? MAX_AGENT_HISTORIES);
  const ttl = options.agentHistoryTtlMs ?? AGENT_HISTORY_TTL_MS;
  let lastSweep = 0;
  let agentFiles = Number.POSITIVE_INFINITY; // unknown until the first sweep
  /** Removes expired agents' histories and, over the cap, the least recently used (down to 90% of it). */
  const sweepAgentHistories = async (): Promise<void> => {
    const agentsDir = join(paths.history, 'agents');
    const now = Date.now();
    const files: Array<{ readonly path: string; readonly mtime: number }> = [];
    for (const name of await readdir(agentsDir).catch(() => [] as string[])) {
      if (!name.endsWith('.jsonl')) continue;
      const path = join(agentsDir, name);
      const s = await lstat(path).catch(() => undefined);
      if (s !== undefined) files.push({ path, mtime: s.mtimeMs });
    }
    files.sort((a, b) => b.mtime - a.mtime);
    const keep = files.length > maxAgents ? Math.max(1, Math.floor(maxAgents * 0.9)) : maxAgents;
    let kept = 0;
    for (const f of files) {
      if (kept < keep && now - f.mtime <= ttl) kept++;
      else await removeFile(f.path, { syncDir: false }).catch(() => undefined);
    }
    lastSweep = now;
    agentFiles = kept;
  };

  const recordUsage = async (deltas: ReadonlyArray<UsageDelta>, entries: ReadonlyArray<UsageEntry>, cap: number): Promise<void> => {
    if (deltas.length === 0 && entries.length === 0) return;
    await lock.run(async () => {
      await recover();
      if (deltas.length > 0) {
        const current: Record<string, UsageCount> = { ...(await readUsageFile()) };
        for (const d of deltas) {
          const old = current[d.toolID];
          const last = old?.lastCalledAt !== undefined && old.lastCalledAt !== null && old.lastCalledAt > d.lastCalledAt ? old.lastCalledAt : d.lastCalledAt;
          current[d.toolID] = { callCount: (old?.callCount ?? 0) + d.calls, lastCalledAt: last };
        }
        await writeFileAtomic(paths.usage, JSON.stringify(current), paths.tmp, { syncDir: false });
      }
      await appendHistory(historyPath(undefined), entries, cap);
      const byAgent = new Map<string, UsageEntry[]>();
      for (const e of entries) {
        if (e.agent_id === undefined) continue;
        const list = byAgent.get(e.agent_id);
        // pushed, not copied: a flush holds every call of the last 250 ms, most of them often one agent's
        if (list === undefined) byAgent.set(e.agent_id, [e]);
        else list.push(e);
      }
      for (const [agent, list] of byAgent) if (await appendHistory(historyPath(agent), list, cap)) agentFiles++;
      if (byAgent.size > 0 && (agentFiles > maxAgents || Date.now() - lastSweep > SWEEP_EVERY_MS)) await sweepAgentHistories();
    });
  };

  const readUsage = async (ids: ReadonlyArray<string>): Promise<ReadonlyMap<string, UsageCount>> => {
    const all = await readUsageFile();
    const out = new Map<string, UsageCount>();
    for (const id of ids) {
      const u = Object.prototype.hasOwnProperty.call(all, id) ? all[id] : undefined;
      if (u !== undefined) out.set(id, u);
    }
    return out;
  };

  const readHistory = async (agentId: string | undefined, limit: number): Promise<ReadonlyArray<UsageEntry>> => {
    let text: string;
    try {
      text = await readRegular(historyPath(agentId));
    } catch {
      return [];
    }
    const out: UsageEntry[] = [];
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
      const l = lines[i] as string;
      if (l === '') continue;
      try {
        out.push(JSON.parse(l) as UsageEntry);
      } catch {
        // a line cut by a crash
      }
    }
    return out;
  };

  return {
    kind: 'files',
    location: dir,
    load,
    changesSince,
    unchangedSince,
    transact,
    recordUsage,
    readUsage,
    readHistory,
    publish: async (_event: JsonObject) => undefined,
    onPublished: async () => async () => undefined,
    close: async () => {
      await checkpointing;
      if (snapshotFd !== undefined) closeSync(snapshotFd.fd);
      snapshotFd = undefined;
      if (journalFd !== undefined) closeSync(journalFd.fd);
      journalFd = undefined;
      if (watched !== undefined) closeSync(watched.fd);
      watched = undefined;
      await intentHandle?.close().catch(() => undefined);
      intentHandle = undefined;
      lock.close();
    },
  };
};
