/**
 * File system operations that verify what they actually opened.
 *
 * `resolveWorkspacePath` checks a path against the file system as it is at one moment; another
 * process (code the model ran, for instance) may replace a directory by a symbolic link right
 * after. To close that race, operations open the parent directory, ask the kernel where the open
 * descriptor really is (`/proc/self/fd/N`) and refuse it when it is outside the workspace; then
 * they name entries relative to that open directory (`/proc/self/fd/N/name`, the path form of
 * `openat`) with `O_NOFOLLOW` on the last component. A swap after the check then either has no
 * effect or fails with `ELOOP`, never escapes.
 *
 * Without `/proc` (not Linux), the same functions work on real paths, and only the check of
 * `resolveWorkspacePath` applies (documented in docs/builtins.md).
 */
import { BuiltinCodes } from './codes.js';
import { constants, existsSync } from 'node:fs';
import { open, readlink, type FileHandle } from 'node:fs/promises';
import { ToolFailure } from '../../library/result.js';
import { systemFailure } from './errors.js';
import { isWithin } from './workspace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** An open directory, verified to be inside the workspace. */
export interface DirHandle {
  /** A path naming the opened directory itself (`/proc/self/fd/N`, or its real path without /proc). */
  readonly path: string;
  /** Its real path when it was verified. */
  readonly real: string;
  readonly close: () => Promise<void>;
}

let procFd: boolean | undefined;

/** Whether this system names open descriptors under `/proc/self/fd` (Linux). */
export const hasProcFd = (): boolean => (procFd ??= existsSync('/proc/self/fd'));

// -------------------------------------------------------------------------------------------------
// operations
// -------------------------------------------------------------------------------------------------

/**
 * Opens the directory at `real` (following links: it was resolved already) and verifies that the
 * opened directory is inside `root`. `display` is the path as the caller gave it, for errors.
 */
export const openDirectory = async (root: string, real: string, display: string): Promise<DirHandle> => {
  let fh: FileHandle;
  try {
    fh = await open(real, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (e) {
    throw systemFailure(e, display);
  }
  return verified(root, fh, display, real);
};

/** Opens the directory `name` inside `dir` without following a link there, and verifies it. */
export const openSubdirectory = async (root: string, dir: DirHandle, name: string, display: string): Promise<DirHandle> => {
  let fh: FileHandle;
  try {
    fh = await open(childPath(dir, name), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (e) {
    throw systemFailure(e, display);
  }
  return verified(root, fh, display, `${dir.real}/${name}`);
};

/**
 * Opens the entry `name` of `dir` with `flags` (plus `O_NOFOLLOW`) and verifies that the opened file
 * is inside `root`. The caller closes the handle.
 */
export const openFileIn = async (root: string, dir: DirHandle, name: string, flags: number, display: string, mode = 0o666): Promise<FileHandle> => {
  let fh: FileHandle;
  try {
    fh = await open(childPath(dir, name), flags | constants.O_NOFOLLOW, mode);
  } catch (e) {
    throw systemFailure(e, display);
  }
  try {
    await verifyDescriptor(root, fh, display);
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
  return fh;
};

/** A path naming the entry `name` of an open directory (the path form of `openat(dirfd, name)`). */
export const childPath = (dir: DirHandle, name: string): string => `${dir.path}/${name}`;

/** Runs `fn` with the directory open, and closes it whatever happens. */
export const withDirectory = async <A>(root: string, real: string, display: string, fn: (dir: DirHandle) => Promise<A>): Promise<A> => {
  const dir = await openDirectory(root, real, display);
  try {
    return await fn(dir);
  } finally {
    await dir.close();
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const verified = async (root: string, fh: FileHandle, display: string, real: string): Promise<DirHandle> => {
  let actual: string;
  try {
    actual = await verifyDescriptor(root, fh, display);
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw e;
  }
  const fdPath = hasProcFd() ? `/proc/self/fd/${fh.fd}` : real;
  return { path: fdPath, real: hasProcFd() ? actual : real, close: () => fh.close().catch(() => undefined) };
};

/**
 * Where the kernel says an open descriptor is; `INVALID_PATH` when that is outside `root` or the
 * file was deleted meanwhile. Without /proc, trusts the earlier resolution.
 */
const verifyDescriptor = async (root: string, fh: FileHandle, display: string): Promise<string> => {
  if (!hasProcFd()) return root;
  let actual: string;
  try {
    actual = await readlink(`/proc/self/fd/${fh.fd}`);
  } catch (e) {
    throw systemFailure(e, display);
  }
  if (actual.endsWith(' (deleted)')) {
    const st = await fh.stat().catch(() => undefined);
    if (st === undefined || st.nlink === 0) {
      throw new ToolFailure(BuiltinCodes.FILE_NOT_FOUND, `${JSON.stringify(display)} was deleted while it was being used`, { retryable: true });
    }
  }
  if (!isWithin(root, actual)) {
    throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(display)} leads outside the workspace (it changed while being opened)`);
  }
  return actual;
};
