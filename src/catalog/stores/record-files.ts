/**
 * Where the flat-file store keeps its records: one JSON file per record, spread over 256
 * sub-directories of its kind's directory by the id's last two hex digits (random in a UUIDv7), so
 * no directory holds more than a few hundred files even at 100,000 tools:
 *
 * ```
 * DIR/tools/<last two hex digits of the id>/<id>.json
 * DIR/bundles/<last two hex digits of the id>/<id>.json
 * ```
 *
 * A directory of 100,000 entries made every create, rename and directory flush cost more than in a
 * small one (the write at 100,000 tools was 1.4–1.5× the write at 100). Catalogs written before the
 * split (`DIR/tools/<id>.json`) are moved into place when opened (`migrateFlatRecords`).
 */
import { existsSync, mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDirectory } from './atomic-write.js';
import type { RecordKind } from './backend.js';

export const RECORD_KINDS: ReadonlyArray<RecordKind> = ['bundle', 'tool'];
/** The ids the store writes: UUIDs (lower-case hex), nothing that could name another path. */
export const SAFE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const HEX = '0123456789abcdef';
/** The 256 sub-directories of each kind. */
export const SHARDS: ReadonlyArray<string> = [...HEX].flatMap((a) => [...HEX].map((b) => `${a}${b}`));

export const kindDirectory = (dir: string, kind: RecordKind): string => join(dir, kind === 'bundle' ? 'bundles' : 'tools');
export const shardOf = (id: string): string => id.slice(-2);
export const shardDirectory = (dir: string, kind: RecordKind, id: string): string => join(kindDirectory(dir, kind), shardOf(id));
export const recordPath = (dir: string, kind: RecordKind, id: string): string => join(shardDirectory(dir, kind, id), `${id}.json`);

/** Creates every kind's directory and its sub-directories (synchronously, at open: once per process). */
export const makeRecordDirectories = (dir: string): void => {
  for (const kind of RECORD_KINDS) {
    const top = kindDirectory(dir, kind);
    mkdirSync(top, { recursive: true });
    const present = new Set(readdirSync(top));
    for (const s of SHARDS) if (!present.has(s)) mkdirSync(join(top, s), { recursive: true });
  }
};

/** Every stored record's id of a kind, sub-directory by sub-directory. */
export const listRecordIds = async (dir: string, kind: RecordKind): Promise<ReadonlyArray<string>> => {
  const ids: string[] = [];
  const top = kindDirectory(dir, kind);
  const lists = await Promise.all(SHARDS.map((s) => readdir(join(top, s)).catch(() => [] as string[])));
  for (const names of lists) for (const n of names) if (n.endsWith('.json') && SAFE_ID.test(n.slice(0, -5))) ids.push(n.slice(0, -5));
  return ids;
};

/**
 * Moves the records of the older layout (`DIR/tools/<id>.json`) into their sub-directories, then
 * flushes the directories (call holding the store's lock). Returns how many moved. A crash midway
 * leaves each file in one place or the other, and the next open moves the rest.
 */
export const migrateFlatRecords = async (dir: string, durable: boolean): Promise<number> => {
  let moved = 0;
  for (const kind of RECORD_KINDS) {
    const top = kindDirectory(dir, kind);
    const flat = readdirSync(top).filter((n) => n.endsWith('.json') && SAFE_ID.test(n.slice(0, -5)));
    if (flat.length === 0) continue;
    const touched = new Set<string>();
    for (const n of flat) {
      const id = n.slice(0, -5);
      // a record already in its sub-directory was written by this layout's code: it is the newer
      if (existsSync(recordPath(dir, kind, id))) unlinkSync(join(top, n));
      else renameSync(join(top, n), recordPath(dir, kind, id));
      touched.add(shardDirectory(dir, kind, id));
      moved++;
    }
    if (durable) {
      for (const d of touched) await syncDirectory(d);
      await syncDirectory(top);
    }
  }
  return moved;
};
