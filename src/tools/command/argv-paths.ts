/**
 * Keeping a directory inside a workspace, by real paths: the candidate is joined to the real
 * workspace root and resolved the way the system resolves it (`realpath`: symbolic links first,
 * then `..`), and the real candidate must be the real root or below it. `..`, absolute paths and
 * symlinks that point outside are all caught by the same check, on the path that is then used.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { CommandCodes } from './codes.js';
import { constants } from 'node:fs';
import { close, fstat, open, readlink as readlinkCb } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** The real path, or why it is refused. */
export type Confined = Result<string, CodedError<typeof CommandCodes.INVALID_PATH | typeof CommandCodes.FILE_NOT_FOUND>>;

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether `child` is `root` or inside it (both absolute, normalized). */
export const isInside = (root: string, child: string): boolean => {
  const rel = relative(root, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
};

/**
 * The real path of directory `candidate` (relative to `root`), when it exists and is inside the
 * real `root`. Messages name the path as given, never the real path outside.
 */
export const confineDirectory = async (root: string, candidate: string): Promise<Confined> => {
  if (candidate.includes('\0')) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" contains a NUL character`);
  if (isAbsolute(candidate)) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" is absolute: give a path relative to the workspace`);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return failWith(CommandCodes.FILE_NOT_FOUND, `the workspace "${root}" does not exist`);
  }
  // resolved as the system does (not lexically): "link/.." is the parent of the link's target
  const joined = `${realRoot}${sep}${candidate}`;
  let real: string;
  try {
    real = await realpath(joined);
  } catch {
    return isInside(realRoot, resolve(realRoot, candidate))
      ? failWith(CommandCodes.FILE_NOT_FOUND, `directory "${candidate}" does not exist in the workspace`)
      : failWith(CommandCodes.INVALID_PATH, `"${candidate}" is outside the workspace`);
  }
  if (!isInside(realRoot, real)) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" is outside the workspace`);
  const s = await stat(real).catch(() => undefined);
  if (s === undefined || !s.isDirectory()) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" is not a directory`);
  return ok(real);
};

/**
 * Whether path `candidate` (relative to directory `base`, itself inside the workspace, or
 * absolute) stays inside the real `root`. The path need not exist (an output file). It is resolved
 * the way the kernel will resolve it, one component at a time: every symbolic link on the way is
 * followed, a *dangling* one too (its target is where a program writing "the new file" would
 * create it), and `..` after a link is the parent of the link's target. Past the first missing
 * component the rest is appended as it is, and a `..` there is refused. The path given is what the
 * program receives; this only decides whether it may.
 *
 * This is a check before use: a link planted between it and the program's open is caught only when
 * the program runs in the sandbox, where nothing outside the workspace is writable. On the host, a
 * program gets what `openConfined` opened instead.
 */
export const confinePath = async (root: string, base: string, candidate: string): Promise<Confined> => {
  if (candidate.includes('\0')) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" contains a NUL character`);
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return failWith(CommandCodes.FILE_NOT_FOUND, `the workspace "${root}" does not exist`);
  }
  const full = isAbsolute(candidate) ? candidate : `${base}${sep}${candidate}`;
  const resolved = await resolveLinks(full);
  if (!resolved.ok) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" ${resolved.why}`);
  return isInside(realRoot, resolved.path) ? ok(resolved.path) : failWith(CommandCodes.INVALID_PATH, `"${candidate}" is outside the workspace`);
};

/** Most symbolic links followed in one path (the kernel's limit). */
const MAX_LINKS = 40;

/** Where the kernel would take absolute path `full`, following every link, dangling ones included. */
const resolveLinks = async (full: string): Promise<{ readonly ok: true; readonly path: string } | { readonly ok: false; readonly why: string }> => {
  const pending = full.split(sep).filter((x) => x !== '');
  let cur: string = sep;
  let missing = false;
  let links = 0;
  while (pending.length > 0) {
    const seg = pending.shift() as string;
    if (seg === '.') continue;
    if (seg === '..') {
      if (missing) return { ok: false, why: 'goes through a directory that does not exist and back with ".."' };
      cur = dirname(cur);
      continue;
    }
    const next = cur === sep ? `${sep}${seg}` : `${cur}${sep}${seg}`;
    if (missing) {
      cur = next;
      continue;
    }
    let st;
    try {
      st = await lstat(next);
    } catch {
      // ENOENT (or a file used as a directory): the rest is a name the program may create
      missing = true;
      cur = next;
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return { ok: false, why: 'goes through too many symbolic links' };
      const target = await readlink(next).catch(() => undefined);
      if (target === undefined || target === '') return { ok: false, why: 'goes through a symbolic link that cannot be read' };
      if (isAbsolute(target)) cur = sep;
      pending.unshift(...target.split(sep).filter((x) => x !== ''));
      continue;
    }
    cur = next;
  }
  return { ok: true, path: cur };
};

// -------------------------------------------------------------------------------------------------
// opening once
// -------------------------------------------------------------------------------------------------

/** A path parameter opened for a program run on the host: the descriptor, closed by the caller. */
export interface OpenedPath {
  readonly fd: number;
  /** Whether `openConfined` created it (an empty file the program may write). */
  readonly created: boolean;
}

export type OpenConfined = Result<OpenedPath, CodedError<typeof CommandCodes.INVALID_PATH | typeof CommandCodes.FILE_NOT_FOUND>>;

const openP = promisify(open);
const closeP = promisify(close);
const fstatP = promisify(fstat);
const readlinkP = promisify(readlinkCb);

/**
 * Path `candidate` (as `confinePath` reads it) opened once, for a program that runs on the host:
 * an existing regular file or directory is opened (never through a link in its last component,
 * never blocking on a FIFO), a new file is created (exclusively, in its existing directory, opened
 * through that directory's descriptor), and then what was opened is checked: the kernel's own name
 * for the descriptor (`/proc/self/fd/N`) must be inside the real `root`. The program receives the
 * descriptor (`/proc/self/fd/N` in its argv), so a link swapped in after the check changes nothing
 * it opens: what it reads or writes is what was checked. Anything else (a FIFO, a device, a socket,
 * a new file in a directory that does not exist) is refused.
 */
export const openConfined = async (root: string, base: string, candidate: string): Promise<OpenConfined> => {
  const checked = await confinePath(root, base, candidate);
  if (!checked.ok) return checked;
  const realRoot = await realpath(root);
  let opened: OpenedPath;
  try {
    opened = { fd: await openP(checked.value, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY), created: false };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      return failWith(
        CommandCodes.INVALID_PATH,
        `"${candidate}" cannot be opened (${(e as NodeJS.ErrnoException).code ?? 'error'}): it changed while it was checked, or is not a file or directory`,
      );
    const created = await createIn(realRoot, dirname(checked.value), basename(checked.value));
    if (!created.ok) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" ${created.why}`);
    opened = { fd: created.fd, created: true };
  }
  const where = await readlinkP(`/proc/self/fd/${opened.fd}`).catch(() => undefined);
  const st = await fstatP(opened.fd).catch(() => undefined);
  if (where === undefined || st === undefined || !isInside(realRoot, where) || !(st.isFile() || st.isDirectory())) {
    await closeP(opened.fd).catch(() => undefined);
    return failWith(
      CommandCodes.INVALID_PATH,
      where !== undefined && !isInside(realRoot, where) ? `"${candidate}" is outside the workspace` : `"${candidate}" is not a regular file or a directory`,
    );
  }
  return ok(opened);
};

/** A new empty file `name` in directory `dir`, created exclusively through the directory's descriptor. */
const createIn = async (
  realRoot: string,
  dir: string,
  name: string,
): Promise<{ readonly ok: true; readonly fd: number } | { readonly ok: false; readonly why: string }> => {
  let d: number;
  try {
    d = await openP(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return { ok: false, why: 'is in a directory that does not exist (a program run outside the sandbox gets only existing directories, or new files in them)' };
  }
  try {
    const where = await readlinkP(`/proc/self/fd/${d}`).catch(() => undefined);
    if (where === undefined || !isInside(realRoot, where)) return { ok: false, why: 'is outside the workspace' };
    // O_EXCL: fails on anything already there, a link planted since included
    const fd = await openP(`/proc/self/fd/${d}/${name}`, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o666);
    return { ok: true, fd };
  } catch (e) {
    return { ok: false, why: `cannot be created (${(e as NodeJS.ErrnoException).code ?? 'error'}): something appeared there while it was checked` };
  } finally {
    await closeP(d).catch(() => undefined);
  }
};

/** Closes descriptors opened by `openConfined`. */
export const closeOpened = async (opened: ReadonlyArray<OpenedPath>): Promise<void> => {
  await Promise.all(opened.map((o) => closeP(o.fd).catch(() => undefined)));
};
