/**
 * Keeping a directory inside a workspace, by real paths: the candidate is joined to the real
 * workspace root and resolved the way the system resolves it (`realpath`: symbolic links first,
 * then `..`), and the real candidate must be the real root or below it. `..`, absolute paths and
 * symlinks that point outside are all caught by the same check, on the path that is then used.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { CommandCodes } from './codes.js';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

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
 * the program runs in the sandbox, where nothing outside the workspace is writable.
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
