/**
 * The flat-file store's snapshot (`DIR/snapshot`): every record on one line each, and the journal
 * position it reflects, so opening a catalog of 100,000 tools reads one file and the journal's
 * tail instead of 100,000 files.
 *
 * ```
 * gramkit-snapshot 1 <journal cursor> <count>
 * <kind> <id> <the record's JSON on one line>      (count lines)
 * end <count>
 * <kind> <id> <JSON>, or <kind> <id> -             then, appended by each write (`-`: deleted) ...
 * at <journal cursor> <lines>                      ... and its mark: the lines since the last mark
 * ```
 *
 * A writer holding the store's lock appends its records and a mark when the snapshot's last mark
 * is where the journal was before its own lines (the snapshot is current): then an open has no
 * journal tail to read, whatever the catalog's size. Lines after the last mark (an append cut by a
 * crash) are ignored.
 *
 * It is only ever a shortcut: the record files stay the truth. A snapshot that is missing, cut
 * short, malformed or taken on another journal (compacted since) is not used, and the store reads
 * every record instead. It is written through a temporary file and a rename (never half-written in
 * place), and not flushed: after a crash of the machine a snapshot that lost its content fails to
 * parse, and the full read takes over.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { openRegular, tempPath, writeFileAtomic } from './atomic-write.js';
import { SAFE_ID } from './record-files.js';

const MAGIC = 'gramkit-snapshot 1';

export interface Snapshot {
  /** The journal position the records are at least as new as. */
  readonly cursor: string;
  /** Each record's JSON text (one line), by `<kind> <id>`. */
  readonly lines: Map<string, string>;
}

/** The snapshot at `path`, or `undefined` when there is none or it does not hold together. */
export const readSnapshot = async (path: string): Promise<Snapshot | undefined> => {
  let text: string;
  try {
    const h = await openRegular(path, constants.O_RDONLY);
    try {
      text = await h.readFile('utf8');
    } finally {
      await h.close();
    }
  } catch {
    return undefined;
  }
  const rows = text.split('\n');
  const header = (rows[0] ?? '').split(' ');
  if (`${header[0]} ${header[1]}` !== MAGIC || header.length !== 4) return undefined;
  let cursor = header[2] as string;
  const count = Number(header[3]);
  if (!CURSOR.test(cursor) || !Number.isSafeInteger(count) || rows.length < count + 3 || rows[count + 1] !== `end ${count}`) return undefined;
  const lines = new Map<string, string>();
  for (let i = 1; i <= count; i++) {
    const row = parseRow(rows[i] as string);
    if (row === undefined || row.json === undefined) return undefined;
    lines.set(row.key, row.json);
  }
  // the appended segments, each applied at its mark
  let segment: Array<{ readonly key: string; readonly json: string | undefined }> = [];
  let broken = false;
  const last = rows.length - 1; // after the final newline: '' (or a line cut short)
  for (let i = count + 2; i < last; i++) {
    const row = rows[i] as string;
    if (row.startsWith('at ')) {
      const [, at, n] = row.split(' ');
      if (broken || at === undefined || !CURSOR.test(at) || Number(n) !== segment.length) return undefined;
      for (const r of segment) {
        if (r.json === undefined) lines.delete(r.key);
        else lines.set(r.key, r.json);
      }
      cursor = at;
      segment = [];
      continue;
    }
    const r = parseRow(row);
    if (r === undefined) broken = true;
    else segment.push(r);
  }
  return { cursor, lines };
};

const CURSOR = /^\d+:\d+$/;

/** A record's line: `<kind> <id> <JSON>` or `<kind> <id> -` (deleted: no `json`). */
const parseRow = (row: string): { readonly key: string; readonly json: string | undefined } | undefined => {
  const a = row.indexOf(' ');
  const b = row.indexOf(' ', a + 1);
  if (a < 0 || b < 0) return undefined;
  const kind = row.slice(0, a);
  const id = row.slice(a + 1, b);
  if ((kind !== 'tool' && kind !== 'bundle') || !SAFE_ID.test(id)) return undefined;
  if (row.length === b + 2 && row[b + 1] === '-') return { key: `${kind} ${id}`, json: undefined };
  return row[b + 1] === '{' ? { key: `${kind} ${id}`, json: row.slice(b + 1) } : undefined;
};

/** What a write appends to a current snapshot: its records (`undefined`: deleted) and the mark. */
export const snapshotAppend = (records: ReadonlyArray<{ readonly key: string; readonly json: string | undefined }>, cursor: string): string =>
  `${records.map((r) => `${r.key} ${r.json ?? '-'}\n`).join('')}at ${cursor} ${records.length}\n`;

const snapshotText = (cursor: string, lines: ReadonlyMap<string, string>): string => {
  const parts: string[] = [`${MAGIC} ${cursor} ${lines.size}\n`];
  for (const [key, json] of lines) parts.push(`${key} ${json}\n`);
  parts.push(`end ${lines.size}\n`);
  return parts.join('');
};

/** Writes a snapshot of `lines` (JSON texts by `<kind> <id>`, each on one line) at `cursor`. */
export const writeSnapshot = async (path: string, tmpDir: string, cursor: string, lines: ReadonlyMap<string, string>): Promise<void> => {
  await writeFileAtomic(path, snapshotText(cursor, lines), tmpDir, { durable: false });
};

/** The same, to a temporary file of `tmpDir` put in place later (`rename`) or dropped; returns its path. */
export const prepareSnapshot = async (tmpDir: string, cursor: string, lines: ReadonlyMap<string, string>): Promise<string> => {
  const tmp = tempPath(tmpDir, 'snapshot');
  await writeFile(tmp, snapshotText(cursor, lines), { encoding: 'utf8', flag: 'wx' });
  return tmp;
};

/**
 * The journal position a snapshot file reflects: its last mark, or its header's when nothing was
 * appended; `undefined` when there is no snapshot or it ends in an append cut short.
 */
export const snapshotCursor = (path: string): string | undefined => {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const head = Buffer.alloc(128);
      const header =
        head
          .subarray(0, readSync(fd, head, 0, head.length, 0))
          .toString('utf8')
          .split('\n')[0]
          ?.split(' ') ?? [];
      if (`${header[0]} ${header[1]}` !== MAGIC) return undefined;
      const size = fstatSync(fd).size;
      const tail = Buffer.alloc(Math.min(size, 256));
      const text = tail.subarray(0, readSync(fd, tail, 0, tail.length, size - tail.length)).toString('utf8');
      if (!text.endsWith('\n')) return undefined;
      const lastLine = text.slice(text.lastIndexOf('\n', text.length - 2) + 1, -1);
      if (lastLine.startsWith('at ')) return lastLine.split(' ')[1];
      return lastLine.startsWith('end ') ? header[2] : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
};
