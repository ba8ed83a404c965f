/**
 * Keeping a directory inside a workspace, by real paths: the candidate is joined to the real
 * workspace root and resolved the way the system resolves it (`realpath`: symbolic links first,
 * then `..`), and the real candidate must be the real root or below it. `..`, absolute paths and
 * symlinks that point outside are all caught by the same check, on the path that is then used.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { CommandCodes } from './codes.js';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

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
 * absolute) stays inside the real `root`. The path need not exist (an output file): its deepest
 * existing ancestor is resolved through symbolic links and the rest appended, so a link anywhere
 * on the way that points outside is caught. The path given is what the program receives; this
 * only decides whether it may.
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
  // resolve the longest existing prefix as the system would, then the missing rest lexically
  const parts = full.split(sep);
  for (let n = parts.length; n > 0; n--) {
    const head = parts.slice(0, n).join(sep) || sep;
    let real: string;
    try {
      real = await realpath(head);
    } catch {
      continue;
    }
    const rest = parts.slice(n);
    if (rest.includes('..')) return failWith(CommandCodes.INVALID_PATH, `"${candidate}" goes through a directory that does not exist and back with ".."`);
    const resolved = rest.length === 0 ? real : resolve(real, ...rest);
    return isInside(realRoot, resolved) ? ok(resolved) : failWith(CommandCodes.INVALID_PATH, `"${candidate}" is outside the workspace`);
  }
  return failWith(CommandCodes.INVALID_PATH, `"${candidate}" cannot be resolved`);
};
