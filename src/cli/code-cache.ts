/**
 * The entries of the CLI's V8 code cache (bin.ts) in the user's cache folder (`gramkit/v8`,
 * user-cache.ts): their header, and how the folder is kept bounded.
 *
 * An entry starts with a 16-byte header: a magic number, the format, and the CRC-32 and length of
 * the bundle (`dist/cli-main.cjs`) it was made from. The header, not the name, says which bundle an
 * entry belongs to: the name (command, and a hash of the bundle's path, Node's version and the
 * architecture) stays the same when gramkit is upgraded in place, and the pruning must read the
 * header anyway to know a file is an entry at all.
 *
 * Pruning runs when the binary has written an entry (a command's first run of a bundle), after
 * the command's work, and is best effort: it removes the folder's entries of another bundle (another
 * build or version of gramkit: only one bundle's entries are kept, the one that last wrote), entries
 * unused for {@link UNUSED_DAYS} days (another Node version, a copy of `dist/` that is gone), and
 * temporary files left by a write that never finished. It reads the folder only: it never descends,
 * never follows a symbolic link (lstat, O_NOFOLLOW) and leaves alone any file that does not look like
 * one of its own (a name and a header it wrote). Concurrent CLIs may prune and write at once: an
 * entry is written to a temporary file renamed into place, a temporary file is removed only once
 * it is an hour old, and an entry removed under a running CLI costs it only a compilation next time.
 */
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { isTemporaryOf, pruneFolder, UNUSED_DAYS } from './user-cache.js';

const MAGIC = 0x38564b47; // 'GKV8', little-endian
const FORMAT = 1;

/** The length of an entry's header. */
export const HEADER = 16;

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** The name of an entry (bin.ts: `<command>-<hash>.bin`) and of the temporary file it is written through (user-cache.ts). */
const ENTRY_NAME = /^[a-z-]{1,32}-[0-9a-f]{1,8}\.bin$/;

/** The bundle an entry is made from: its CRC-32 and its length in bytes. */
export interface Bundle {
  readonly sum: number;
  readonly length: number;
}

/** The header of an entry made from `bundle`. */
export const entryHeader = (bundle: Bundle): Buffer => {
  const header = Buffer.alloc(HEADER);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(FORMAT, 4);
  header.writeUInt32LE(bundle.sum, 8);
  header.writeUInt32LE(bundle.length, 12);
  return header;
};

/** Whether `data` starts with an entry's magic number (an entry of any bundle, any format). */
const isEntry = (data: Buffer): boolean => data.length >= 4 && data.readUInt32LE(0) === MAGIC;

/** Whether `data` starts with the header of an entry made from `bundle`. */
const madeFrom = (data: Buffer, bundle: Bundle): boolean =>
  data.length >= HEADER && isEntry(data) && data.readUInt32LE(4) === FORMAT && data.readUInt32LE(8) === bundle.sum && data.readUInt32LE(12) === bundle.length;

/** Whether `data` is an entry made from `bundle`, with cached data after its header. */
export const fitsBundle = (data: Buffer, bundle: Bundle): boolean => data.length > HEADER && madeFrom(data, bundle);

/** The header of the file `path` (not through a symbolic link), or `undefined`. */
const headerOf = (path: string): Buffer | undefined => {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    const header = Buffer.alloc(HEADER);
    return header.subarray(0, readSync(fd, header, 0, HEADER, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

/**
 * Prunes the code cache `folder` (see above), keeping `bundle`'s entries used within
 * {@link UNUSED_DAYS} days; never throws. `now` is the time in milliseconds.
 */
export const pruneCodeCache = (folder: string, bundle: Bundle, now: number): void =>
  pruneFolder(folder, (name, path, modified) => {
    if (isTemporaryOf(name, ENTRY_NAME)) return modified < now - HOUR;
    if (!ENTRY_NAME.test(name)) return false;
    const header = headerOf(path);
    if (header === undefined || !isEntry(header)) return false;
    return modified < now - UNUSED_DAYS * DAY || !madeFrom(header, bundle);
  });
