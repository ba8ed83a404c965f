/**
 * Durable atomic file writes: a temporary file in the store's `tmp/` directory, written, flushed
 * to disk (`fsync`), renamed over the target, and the target's directory flushed, so after a crash
 * (`kill -9`, power loss) a file is either its old content or its new one, and an acknowledged
 * write is on disk. Temporary files left by a crash are swept by the next writer (`sweepTemp`).
 *
 * Not `write-file-atomic`: it does not flush the directory after the rename, and the store needs
 * its temporary files in one place to sweep them.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { closeSync, constants, existsSync, fstatSync, fsync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { type FileHandle, open, readdir, rename, unlink } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';

/** This process's temporary files: a random part drawn once, then a counter (one random draw per file cost ~10 µs each, 1 s an import of 100,000). */
const TEMP_PREFIX = `${process.pid}.${randomBytes(6).toString('hex')}`;
let tempCount = 0;
/** A new temporary file's path in `tmpDir` for `name` (unique in this process; created with `O_EXCL`, so never another's). */
export const tempPath = (tmpDir: string, name: string): string => join(tmpDir, `${name}.${TEMP_PREFIX}.${++tempCount}.tmp`);

/**
 * Opens one of the store's own files (`flags`: `O_RDONLY`, `O_WRONLY | O_APPEND | O_CREAT`, …)
 * without following a link (`ELOOP`) and without blocking (a FIFO planted in the directory would
 * hang the caller), and refuses anything but a regular file (`ENOTREG`): a link or a FIFO planted
 * in `--data` is never read or written through.
 */
export const openRegular = async (path: string, flags: number, mode = 0o644): Promise<FileHandle> => {
  const h = await open(path, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  try {
    if (!(await h.stat()).isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  } catch (e) {
    await h.close();
    throw e;
  }
  return h;
};

/** `openRegular`, synchronously (for the few calls a writer makes holding the store's lock); returns a descriptor. */
export const openRegularSync = (path: string, flags: number, mode = 0o644): number => {
  const fd = openSync(path, flags | constants.O_NOFOLLOW | constants.O_NONBLOCK, mode);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
};

/** Append-only, created if missing: the flags of the store's journal and history files. */
export const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT;
/** Read and append, created if missing. */
export const READ_APPEND = constants.O_RDWR | constants.O_APPEND | constants.O_CREAT;

/** Flushes a directory's entries (a rename or an unlink in it) to disk. */
export const syncDirectory = async (dir: string): Promise<void> => {
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
};

/**
 * Writes `data` to `path` atomically and durably, through `tmpDir` (same file system). `syncDir:
 * false` leaves the directory's flush to the caller; `durable: false` flushes nothing.
 */
export const writeFileAtomic = async (
  path: string,
  data: string,
  tmpDir: string,
  options: { readonly syncDir?: boolean; readonly durable?: boolean } = {},
): Promise<void> => {
  await replaceFile(path, data, tmpDir, options.durable !== false);
  if (options.syncDir !== false && options.durable !== false) await syncDirectory(dirname(path));
};

/** `path` replaced by `data` through a temporary file of `tmpDir` (flushed before the rename when `durable`). */
const replaceFile = async (path: string, data: string, tmpDir: string, durable: boolean): Promise<void> => {
  const tmp = tempPath(tmpDir, basename(path));
  const h = await open(tmp, 'wx', 0o644);
  try {
    await h.writeFile(data, 'utf8');
    if (durable) await h.sync();
  } finally {
    await h.close();
  }
  try {
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
};

const fsyncFd = promisify(fsync);

/**
 * Puts `data` at `path` through a temporary file of `tmpDir` and a rename, without waiting for the
 * disk (the caller flushes later, with `flushFiles`, once it has let go of its lock): the few calls
 * that only touch the page cache, made synchronously. When `path` already exists and `durable`,
 * the temporary file is flushed before the rename, so a crash of the machine never leaves an
 * emptied file in place of a good one; a new file that the machine lost before it was flushed is
 * at worst an empty file (never acknowledged: the write waits for `flushFiles`).
 */
export const placeFile = async (path: string, data: string, tmpDir: string, durable: boolean): Promise<void> => {
  const tmp = tempPath(tmpDir, basename(path));
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  try {
    writeSync(fd, data, null, 'utf8');
    if (durable && existsAsFile(path)) await fsyncFd(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    throw e;
  }
};

const existsAsFile = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false })?.isFile() === true;

/**
 * Flushes files placed by `placeFile` to disk, `parallel` at a time (the disk commits concurrent
 * flushes together); a file removed meanwhile is skipped. Their directories are the caller's to flush.
 */
export const flushFiles = async (paths: ReadonlyArray<string>, parallel = 64): Promise<void> => {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] as string;
      let h: FileHandle;
      try {
        h = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') continue;
        throw e;
      }
      try {
        await h.sync();
      } finally {
        await h.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, paths.length) }, one));
};

/** `sync -f` (coreutils: `syncfs(2)` on Linux), where it is; `undefined` elsewhere (macOS's `sync` takes no file). */
const SYNC_PROGRAM = process.platform === 'linux' ? ['/usr/bin/sync', '/bin/sync'].find((p) => existsSync(p)) : undefined;

/**
 * Flushes everything written to the file system holding `dir` (file contents, names and
 * directories) with one `syncfs(2)`, through coreutils' `sync -f` (Node has no binding for it).
 * One call instead of an fsync per file: a batch of thousands of files is on disk in a fraction
 * of a second where a pool of fsyncs takes seconds. Resolves false when it could not (no such
 * program, not Linux, or it failed): the caller then flushes file by file (`flushFiles`), which
 * also reports an I/O error as such.
 */
export const syncFileSystem = (dir: string): Promise<boolean> =>
  new Promise((resolve) => {
    if (SYNC_PROGRAM === undefined) return resolve(false);
    execFile(SYNC_PROGRAM, ['--file-system', dir], { timeout: 120_000, env: {} }, (error) => resolve(error === null));
  });

/** Removes a file durably; a missing file is fine. */
export const removeFile = async (path: string, options: { readonly syncDir?: boolean } = {}): Promise<void> => {
  try {
    await unlink(path);
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return;
    throw e;
  }
  if (options.syncDir !== false) await syncDirectory(dirname(path));
};

/** Removes every temporary file of `tmpDir` (call holding the store's lock: no write is in flight). */
export const sweepTemp = async (tmpDir: string): Promise<number> => {
  let n = 0;
  for (const f of await readdir(tmpDir).catch(() => [] as string[])) {
    if (!f.endsWith('.tmp')) continue;
    await unlink(join(tmpDir, f)).catch(() => undefined);
    n++;
  }
  return n;
};
