/**
 * The flat-file store (the catalog offline, nothing but a directory): one JSON file per record, in
 * a directory that several processes may serve at once.
 *
 * ```
 * DIR/lock                 the lock file (open-file-description locks, see file-lock.ts)
 * DIR/journal              one line per changed record: "<kind> <id>\n", appended under the lock
 * DIR/intent               the records a write is changing, while it is in flight
 * DIR/bundles/<id>.json    bundle records
 * DIR/tools/<id>.json      tool records
 * DIR/usage.json           {toolID: {callCount, lastCalledAt}}
 * DIR/history/global.jsonl, DIR/history/agents/<sha256 of the agent id>.jsonl (an agent's file
 *                          expires 30 days after its last call, as the Redis store's key does, and
 *                          at most 10,000 are kept: the oldest go first)
 * DIR/tmp/                 temporary files of atomic writes (swept under the lock)
 * ```
 *
 * A write, holding the lock: (1) the intent file (written in place), (2) each record written
 * atomically (temporary file, fsync, rename), (3) the journal lines appended, (4) the intent
 * cleared; then, the lock released, (5) the records' directory flushed; only then is it
 * acknowledged. Two flushes a record, the disk's own floor: the intent and the journal need only
 * outlive a killed process (the page cache keeps them), since after a crash of the machine every
 * process loads the records again. Whoever takes the lock next and finds an intent (its writer
 * died) sweeps `tmp/`, ends a partial journal line and journals those records again, so no
 * process misses a record that reached the disk. A reader follows the journal from its position (`<inode>:<offset>`): a journal line exists
 * only once its record is in place. When the journal passes 4 MB it is replaced by an empty one
 * (new inode): readers then reload everything.
 */
import { constants, mkdirSync, statSync } from 'node:fs';
import { type FileHandle, lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject } from '../core/json-schema.js';
import { APPEND, openRegular, READ_APPEND, removeFile, sweepTemp, syncDirectory, writeFileAtomic, writeFilesAtomic } from './atomic-write.js';
import { type CatalogBackend, type Committed, type Decision, type JournalChanges, type LoadedRecords, type RecordKind, type RecordRead, StoreError, type UsageDelta } from './backend.js';
import { fileLock } from './file-lock.js';
import { agentHistoryName } from './ids.js';
import type { UsageCount, UsageEntry } from './records.js';

const JOURNAL_LIMIT = 4 * 1024 * 1024;
const KINDS: ReadonlyArray<RecordKind> = ['bundle', 'tool'];
const dirOf = (kind: RecordKind): string => (kind === 'bundle' ? 'bundles' : 'tools');
const SAFE_ID = /^[0-9a-f-]{36}$/;

export interface FileStoreOptions {
  /** Flush every write to disk (default true; tests of speed only may turn it off). */
  readonly durable?: boolean;
  /** Agents' usage histories kept at most (default 10,000; the least recently used go first). */
  readonly maxAgentHistories?: number;
  /** An agent's usage history expires this long after its last call (default 30 days, the Redis store's TTL). */
  readonly agentHistoryTtlMs?: number;
}

const MAX_AGENT_HISTORIES = 10_000;
const AGENT_HISTORY_TTL_MS = 30 * 24 * 3600 * 1000;
/** Expired histories are looked for at most this often (a new agent over the cap sweeps at once). */
const SWEEP_EVERY_MS = 3600 * 1000;

/** Opens (creating it if needed) a catalog directory. Throws `StoreError` when it cannot. */
export const openFileStore = (dir: string, options: FileStoreOptions = {}): CatalogBackend => {
  const durable = options.durable !== false;
  const paths = {
    lock: join(dir, 'lock'),
    journal: join(dir, 'journal'),
    intent: join(dir, 'intent'),
    tmp: join(dir, 'tmp'),
    usage: join(dir, 'usage.json'),
    history: join(dir, 'history'),
  };
  try {
    for (const d of [dir, paths.tmp, join(dir, 'bundles'), join(dir, 'tools'), paths.history, join(paths.history, 'agents')]) mkdirSync(d, { recursive: true });
  } catch (e) {
    throw new StoreError(`cannot create the catalog directory ${dir}: ${(e as Error).message}`, e);
  }
  const lock = fileLock(paths.lock);
  const recordPath = (kind: RecordKind, id: string): string => join(dir, dirOf(kind), `${id}.json`);

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

  // ------------------------------------------------------------------------------------------------
  // reading
  // ------------------------------------------------------------------------------------------------

  const readRecord = async (kind: RecordKind, id: string): Promise<unknown> => {
    try {
      return JSON.parse(await readRegular(recordPath(kind, id))) as unknown;
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'ENOENT') return undefined;
      // a link (O_NOFOLLOW: ELOOP) or a FIFO, device or directory: reported as corrupt, never read
      if (code === 'ELOOP' || code === 'ENOTREG') return { __corrupt: `${recordPath(kind, id)} is not a regular file (a link, a FIFO or a device); records are regular files` };
      // a file that does not parse is reported by the catalog as corrupt, not thrown
      if (e instanceof SyntaxError) return { __corrupt: e.message };
      throw new StoreError(`cannot read ${recordPath(kind, id)}: ${(e as Error).message}`, e);
    }
  };

  const journalPosition = async (): Promise<{ readonly ino: number; readonly size: number }> => {
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

  const load = async (): Promise<LoadedRecords> => {
    try {
      const at = await journalPosition();
      const records: RecordRead[] = [];
      for (const kind of KINDS) {
        const names = (await readdir(join(dir, dirOf(kind)))).filter((n) => n.endsWith('.json'));
        // read in parallel batches: a cold load of 100,000 files is bound by the file system
        for (let i = 0; i < names.length; i += 256) {
          const batch = names.slice(i, i + 256);
          const jsons = await Promise.all(batch.map((n) => readRecord(kind, n.slice(0, -5))));
          batch.forEach((n, j) => {
            if (jsons[j] !== undefined) records.push({ kind, id: n.slice(0, -5), json: jsons[j] });
          });
        }
      }
      return { records, cursor: `${at.ino}:${at.size}` };
    } catch (e) {
      throw e instanceof StoreError ? e : new StoreError(`cannot load the catalog at ${dir}: ${(e as Error).message}`, e);
    }
  };

  const changesSince = async (cursor: string): Promise<JournalChanges> => {
    const [ino, offset] = cursor.split(':').map(Number) as [number, number];
    let at: { readonly ino: number; readonly size: number };
    try {
      at = await journalPosition();
    } catch (e) {
      throw new StoreError(`cannot read the journal of ${dir}: ${(e as Error).message}`, e);
    }
    if (at.ino !== ino || at.size < offset) return { reset: true };
    if (at.size === offset) return { reset: false, changes: [], cursor };
    let text: string;
    const h = await openRegular(paths.journal, constants.O_RDONLY);
    try {
      const buf = Buffer.alloc(at.size - offset);
      const { bytesRead } = await h.read(buf, 0, buf.length, offset);
      text = buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await h.close();
    }
    const end = text.lastIndexOf('\n') + 1;
    const seen = new Map<string, RecordKind>();
    for (const line of text.slice(0, end).split('\n')) {
      const [kind, id] = line.split(' ');
      if ((kind === 'bundle' || kind === 'tool') && id !== undefined && SAFE_ID.test(id)) seen.set(`${kind} ${id}`, kind);
    }
    const changes: RecordRead[] = [];
    for (const [key, kind] of seen) {
      const id = key.slice(kind.length + 1);
      changes.push({ kind, id, json: await readRecord(kind, id) });
    }
    return { reset: false, changes, cursor: `${ino}:${offset + Buffer.byteLength(text.slice(0, end))}` };
  };

  // ------------------------------------------------------------------------------------------------
  // writing (holding the lock)
  // ------------------------------------------------------------------------------------------------

  let journalHandle: { readonly handle: FileHandle; readonly ino: number } | undefined;
  /**
   * Appends journal lines (holding the lock, so no one else appends meanwhile); returns the
   * journal's position after them. Not flushed: after a crash of the machine every process loads
   * the records again, so only the records need to reach the disk.
   */
  const appendJournal = async (lines: string): Promise<{ readonly ino: number; readonly size: number }> => {
    const s = await stat(paths.journal).catch(() => undefined);
    if (journalHandle === undefined || s === undefined || s.ino !== journalHandle.ino) {
      await journalHandle?.handle.close().catch(() => undefined);
      const handle = await openRegular(paths.journal, READ_APPEND);
      const st = await handle.stat();
      journalHandle = { handle, ino: st.ino };
      return appendAt(journalHandle.handle, journalHandle.ino, st.size, lines);
    }
    return appendAt(journalHandle.handle, journalHandle.ino, s.size, lines);
  };
  const appendAt = async (h: FileHandle, ino: number, size: number, lines: string): Promise<{ readonly ino: number; readonly size: number }> => {
    const { bytesWritten } = await h.write(lines, null, 'utf8');
    return { ino, size: size + bytesWritten };
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
    const { size } = await h.stat();
    if (size === 0 && swept) return;
    swept = true;
    await sweepTemp(paths.tmp);
    if (size === 0) return;
    const buf = Buffer.alloc(size);
    const { bytesRead } = await h.read(buf, 0, size, 0);
    const lines = buf.subarray(0, bytesRead).toString('utf8').split('\n').filter((l) => /^(bundle|tool) [0-9a-f-]{36}$/.test(l));
    await endPartialLine();
    if (lines.length > 0) await appendJournal(`${lines.join('\n')}\n`);
    await h.truncate(0);
  };

  const compactJournal = async (size: number): Promise<void> => {
    if (size < JOURNAL_LIMIT) return;
    await writeFileAtomic(paths.journal, '', paths.tmp, { syncDir: durable });
  };

  /**
   * One write, holding the lock: the intent (in place), each record through a temporary file
   * flushed to disk and renamed, the journal lines, the intent cleared; then, after the lock is
   * released (so concurrent writers flush together), the records' directories are flushed before
   * the write is acknowledged. Two flushes a record, as the disk's own floor.
   */
  const transact = async <A>(body: () => Promise<Decision<A>>): Promise<Committed<A>> => {
    const dirs = new Set<string>();
    let committed: Committed<A>;
    const release = await lock.acquire();
    try {
      await recover();
      const decision = await body();
      if (decision.writes.length === 0) return { result: decision.result };
      const lines = decision.writes.map((w) => `${w.kind} ${w.id}`);
      for (const w of decision.writes) if (!SAFE_ID.test(w.id)) throw new StoreError(`refusing to write a record with the id ${JSON.stringify(w.id)}`);
      const intent = await intentFile();
      await intent.write(`${lines.join('\n')}\n`, 0, 'utf8');
      const puts = decision.writes.flatMap((w) => (w.record !== undefined ? [{ path: recordPath(w.kind, w.id), data: `${JSON.stringify(w.record, null, 2)}\n` }] : []));
      if (puts.length === 1) await writeFileAtomic((puts[0] as { path: string }).path, (puts[0] as { data: string }).data, paths.tmp, { syncDir: false, durable });
      else if (puts.length > 1) await writeFilesAtomic(puts, paths.tmp, { durable, syncDir: false });
      for (const w of decision.writes) if (w.record === undefined) await removeFile(recordPath(w.kind, w.id), { syncDir: false });
      for (const w of decision.writes) dirs.add(join(dir, dirOf(w.kind)));
      const at = await appendJournal(`${lines.join('\n')}\n`);
      await intent.truncate(0);
      await compactJournal(at.size);
      committed = { result: decision.result, cursor: `${at.ino}:${at.size}` };
    } catch (e) {
      throw e instanceof StoreError ? e : new StoreError(`cannot write to the catalog at ${dir}: ${(e as Error).message}`, e);
    } finally {
      release();
    }
    try {
      if (durable) for (const d of dirs) await syncDirectory(d);
    } catch (e) {
      throw new StoreError(`cannot flush the catalog at ${dir}: ${(e as Error).message}`, e);
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
        const lines = (await readRegular(path)).split('\n').filter((l) => l !== '');
        if (lines.length > cap) await writeFileAtomic(path, `${lines.slice(-cap).join('\n')}\n`, paths.tmp, { syncDir: false });
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
      for (const e of entries) if (e.agent_id !== undefined) byAgent.set(e.agent_id, [...(byAgent.get(e.agent_id) ?? []), e]);
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
    transact,
    recordUsage,
    readUsage,
    readHistory,
    publish: async (_event: JsonObject) => undefined,
    onPublished: async () => async () => undefined,
    close: async () => {
      await journalHandle?.handle.close().catch(() => undefined);
      journalHandle = undefined;
      await intentHandle?.close().catch(() => undefined);
      intentHandle = undefined;
      lock.close();
    },
  };
};
