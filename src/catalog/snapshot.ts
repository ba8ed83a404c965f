/**
 * The flat-file store's snapshot (`DIR/snapshot`): every record on one line each, and the journal
 * position it reflects, so opening a catalog of 100,000 tools reads one file and the journal's
 * tail instead of 100,000 files.
 *
 * ```
 * gramkit-snapshot 1 <journal cursor> <count>
 * <kind> <id> <the record's JSON on one line>      (count lines)
 * end <count>
 * ```
 *
 * It is only ever a shortcut: the record files stay the truth. A snapshot that is missing, cut
 * short, malformed or taken on another journal (compacted since) is not used, and the store reads
 * every record instead. It is written through a temporary file and a rename (never half-written in
 * place), and not flushed: after a crash of the machine a snapshot that lost its content fails to
 * parse, and the full read takes over.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openRegular, writeFileAtomic } from './atomic-write.js';
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
  const cursor = header[2] as string;
  const count = Number(header[3]);
  if (!/^\d+:\d+$/.test(cursor) || !Number.isSafeInteger(count) || rows.length !== count + 3 || rows[count + 1] !== `end ${count}` || rows[count + 2] !== '') return undefined;
  const lines = new Map<string, string>();
  for (let i = 1; i <= count; i++) {
    const row = rows[i] as string;
    const a = row.indexOf(' ');
    const b = row.indexOf(' ', a + 1);
    const kind = row.slice(0, a);
    const id = row.slice(a + 1, b);
    if ((kind !== 'tool' && kind !== 'bundle') || !SAFE_ID.test(id) || row[b + 1] !== '{') return undefined;
    lines.set(`${kind} ${id}`, row.slice(b + 1));
  }
  return { cursor, lines };
};

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
  const tmp = join(tmpDir, `snapshot.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  await writeFile(tmp, snapshotText(cursor, lines), { encoding: 'utf8', flag: 'wx' });
  return tmp;
};

/** The journal position a snapshot file says it reflects (its first line only), if it has one. */
export const snapshotCursor = (path: string): string | undefined => {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      const buf = Buffer.alloc(128);
      const n = readSync(fd, buf, 0, buf.length, 0);
      const header = buf.subarray(0, n).toString('utf8').split('\n')[0]?.split(' ') ?? [];
      return `${header[0]} ${header[1]}` === MAGIC ? header[2] : undefined;
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
};
