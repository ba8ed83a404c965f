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
 * DIR/history/global.jsonl, DIR/history/agents/<sha256 of the agent id>.jsonl
 * DIR/tmp/                 temporary files of atomic writes (swept under the lock)
 * ```
 *
 * A write, holding the lock: (1) the intent file, (2) each record written atomically (temporary
 * file, fsync, rename, fsync of the directory), (3) the journal lines appended and flushed, (4) the
 * intent removed; only then is it acknowledged. Whoever takes the lock next sweeps `tmp/` and,
 * finding an intent (its writer died), journals those records again, so no process misses a record
 * that reached the disk. A reader follows the journal from its position (`<inode>:<offset>`): a journal line exists
 * only once its record is in place. When the journal passes 4 MB it is replaced by an empty one
 * (new inode): readers then reload everything.
 */
import { constants, mkdirSync, statSync } from 'node:fs';
import { type FileHandle, open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject } from '../core/json-schema.js';
import { removeFile, sweepTemp, writeFileAtomic } from './atomic-write.js';
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
}

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
    const h = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      if (!(await h.stat()).isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
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
      const h = await open(paths.journal, 'a');
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
    const h = await open(paths.journal, 'r');
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
  const appendJournal = async (lines: string): Promise<void> => {
    const s = await stat(paths.journal).catch(() => undefined);
    if (journalHandle === undefined || s === undefined || s.ino !== journalHandle.ino) {
      await journalHandle?.handle.close().catch(() => undefined);
      const handle = await open(paths.journal, 'a+');
      journalHandle = { handle, ino: (await handle.stat()).ino };
    }
    // a writer killed mid-append may have left a partial line: end it, so it cannot swallow ours
    const { size } = await journalHandle.handle.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await journalHandle.handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n';
    }
    await journalHandle.handle.appendFile(`${prefix}${lines}`, 'utf8');
    if (durable) await journalHandle.handle.datasync();
  };

  /**
   * What a writer that died left (run holding the lock, before anything else): its temporary files,
   * and the records it was changing, journaled again so readers reload them.
   */
  const recover = async (): Promise<void> => {
    await sweepTemp(paths.tmp);
    let intent: string;
    try {
      intent = await readFile(paths.intent, 'utf8');
    } catch {
      return;
    }
    const lines = intent.split('\n').filter((l) => /^(bundle|tool) [0-9a-f-]{36}$/.test(l));
    if (lines.length > 0) await appendJournal(`${lines.join('\n')}\n`);
    await removeFile(paths.intent, { syncDir: durable });
  };

  const compactJournal = async (): Promise<void> => {
    const s = await stat(paths.journal).catch(() => undefined);
    if (s === undefined || s.size < JOURNAL_LIMIT) return;
    await writeFileAtomic(paths.journal, '', paths.tmp, { syncDir: durable });
  };

  const transact = async <A>(body: () => Promise<Decision<A>>): Promise<Committed<A>> => {
    const release = await lock.acquire();
    try {
      await recover();
      const decision = await body();
      if (decision.writes.length === 0) return { result: decision.result };
      const lines = decision.writes.map((w) => `${w.kind} ${w.id}`);
      for (const w of decision.writes) if (!SAFE_ID.test(w.id)) throw new StoreError(`refusing to write a record with the id ${JSON.stringify(w.id)}`);
      await writeFileAtomic(paths.intent, `${lines.join('\n')}\n`, paths.tmp, { syncDir: durable });
      for (const w of decision.writes) {
        const path = recordPath(w.kind, w.id);
        if (w.record === undefined) await removeFile(path, { syncDir: durable });
        else await writeFileAtomic(path, `${JSON.stringify(w.record, null, 2)}\n`, paths.tmp, { syncDir: durable });
      }
      await appendJournal(`${lines.join('\n')}\n`);
      await removeFile(paths.intent, { syncDir: false });
      const at = await journalPosition();
      await compactJournal();
      return { result: decision.result, cursor: `${at.ino}:${at.size}` };
    } catch (e) {
      throw e instanceof StoreError ? e : new StoreError(`cannot write to the catalog at ${dir}: ${(e as Error).message}`, e);
    } finally {
      release();
    }
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

  const appendHistory = async (path: string, entries: ReadonlyArray<UsageEntry>, cap: number): Promise<void> => {
    if (entries.length === 0) return;
    const h = await open(path, 'a');
    try {
      await h.appendFile(entries.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
      if ((await h.stat()).size > Math.max(64 * 1024, cap * 600)) {
        const lines = (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '');
        if (lines.length > cap) await writeFileAtomic(path, `${lines.slice(-cap).join('\n')}\n`, paths.tmp, { syncDir: false });
      }
    } finally {
      await h.close();
    }
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
      for (const [agent, list] of byAgent) await appendHistory(historyPath(agent), list, cap);
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
      lock.close();
    },
  };
};
