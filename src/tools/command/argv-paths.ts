/**
 * Keeping a directory inside a workspace, by real paths: the candidate is joined to the real
 * workspace root and resolved the way the system resolves it (`realpath`: symbolic links first,
 * then `..`), and the real candidate must be the real root or below it. `..`, absolute paths and
 * symlinks that point outside are all caught by the same check, on the path that is then used.
 */
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type Confined =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly code: 'INVALID_PATH' | 'FILE_NOT_FOUND'; readonly message: string };

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
  if (candidate.includes('\0')) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" contains a NUL character` };
  if (isAbsolute(candidate)) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" is absolute: give a path relative to the workspace` };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, code: 'FILE_NOT_FOUND', message: `the workspace "${root}" does not exist` };
  }
  // resolved as the system does (not lexically): "link/.." is the parent of the link's target
  const joined = `${realRoot}${sep}${candidate}`;
  let real: string;
  try {
    real = await realpath(joined);
  } catch {
    return isInside(realRoot, resolve(realRoot, candidate))
      ? { ok: false, code: 'FILE_NOT_FOUND', message: `directory "${candidate}" does not exist in the workspace` }
      : { ok: false, code: 'INVALID_PATH', message: `"${candidate}" is outside the workspace` };
  }
  if (!isInside(realRoot, real)) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" is outside the workspace` };
  const s = await stat(real).catch(() => undefined);
  if (s === undefined || !s.isDirectory()) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" is not a directory` };
  return { ok: true, path: real };
};

/**
 * Whether path `candidate` (relative to directory `base`, itself inside the workspace, or
 * absolute) stays inside the real `root`. The path need not exist (an output file): its deepest
 * existing ancestor is resolved through symbolic links and the rest appended, so a link anywhere
 * on the way that points outside is caught. The path given is what the program receives; this
 * only decides whether it may.
 */
export const confinePath = async (root: string, base: string, candidate: string): Promise<Confined> => {
  if (candidate.includes('\0')) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" contains a NUL character` };
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, code: 'FILE_NOT_FOUND', message: `the workspace "${root}" does not exist` };
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
    if (rest.includes('..')) return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" goes through a directory that does not exist and back with ".."` };
    const resolved = rest.length === 0 ? real : resolve(real, ...rest);
    return isInside(realRoot, resolved) ? { ok: true, path: resolved } : { ok: false, code: 'INVALID_PATH', message: `"${candidate}" is outside the workspace` };
  }
  return { ok: false, code: 'INVALID_PATH', message: `"${candidate}" cannot be resolved` };
};
