/**
 * Confining paths to a workspace root.
 *
 * Two stages:
 * 1. `normalizeWorkspacePath` (pure): the path as the model wrote it → a normalized relative path
 *    with no `..` segment, or a reason it is refused (NUL byte, `..` above the root, an absolute
 *    path outside the root). Nothing is decoded: `%2e%2e` is a file name, not `..`.
 * 2. `resolveWorkspacePath` (I/O): follows symbolic links one component at a time, as the kernel
 *    would (including a dangling link as the last component, and links inside links), and refuses
 *    a path whose real location is outside the root's real path — also when the last components
 *    do not exist yet, so that writing under a symlinked parent cannot escape.
 *
 * The check runs against the file system as it is at that moment; the operations in
 * `workspace-fs.ts` then verify what they actually opened, which closes the race of a component
 * being replaced by a symlink in between.
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import { lstat, readlink, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import { type Either, left, right, isLeft } from '../../core/either.js';
import { ToolFailure } from '../../library/result.js';
import { errnoOf } from './errors.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface PathRefusal {
  readonly code: typeof BuiltinCodes.INVALID_PATH;
  readonly message: string;
}

/** A path inside the workspace, resolved. */
export interface WorkspacePath {
  /** The path as the caller gave it. */
  readonly input: string;
  /** Normalized, relative to the root, `/`-separated; `''` is the root itself. */
  readonly relative: string;
  /** Absolute real path: symbolic links resolved, components that do not exist appended as given. */
  readonly real: string;
  /** The real path of the workspace root. */
  readonly root: string;
  /** Whether `real` exists (a dangling link's target does not). */
  readonly exists: boolean;
}

/** Most symbolic links followed in one path, as Linux's own limit (`ELOOP` beyond). */
const MAX_LINKS = 40;

// -------------------------------------------------------------------------------------------------
// pure stage
// -------------------------------------------------------------------------------------------------

const refuse = (message: string): Either<PathRefusal, never> => left({ code: BuiltinCodes.INVALID_PATH, message });

/**
 * The relative form of `input` inside `root` (an absolute, normalized path), or why it is refused.
 * `''`, `.` and `./` are the root. An absolute path is accepted when it lies inside `root` (models
 * often echo absolute paths back); any other absolute path is refused.
 */
export const normalizeWorkspacePath = (root: string, input: string): Either<PathRefusal, string> => {
  const show = JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
  if (input.includes('\0')) return refuse(`path ${show} contains a NUL character`);
  let rel = input;
  if (path.posix.isAbsolute(input)) {
    const abs = path.posix.normalize(input);
    const base = root.endsWith('/') ? root : `${root}/`;
    if (abs === root || `${abs}/` === base) rel = '.';
    else if (abs.startsWith(base)) rel = abs.slice(base.length);
    else return refuse(`path ${show} is outside the workspace; give a path relative to the workspace root`);
  }
  const n = path.posix.normalize(rel === '' ? '.' : rel);
  if (n === '..' || n.startsWith('../'))
    return refuse(`path ${show} is outside the workspace (it climbs above the root with ".."); give a path relative to the workspace root`);
  const trimmed = n === '.' || n === './' ? '' : n.replace(/\/+$/, '');
  return right(trimmed);
};

/** Whether `p` is `root` or inside it (both absolute and normalized). */
export const isWithin = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith('/') ? root : `${root}/`);

// -------------------------------------------------------------------------------------------------
// resolution (I/O)
// -------------------------------------------------------------------------------------------------

/** The real path of the workspace root, or `INVALID_PATH` when it does not exist or is not a directory. */
export const workspaceRoot = async (root: string): Promise<string> => {
  let real: string;
  try {
    real = await realpath(root);
  } catch (e) {
    throw new ToolFailure(BuiltinCodes.INVALID_PATH, `the workspace root is not usable (${errnoOf(e) ?? 'error'}); ask the operator to check it`);
  }
  const st = await lstat(real).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) throw new ToolFailure(BuiltinCodes.INVALID_PATH, 'the workspace root is not a directory');
  return real;
};

export interface ResolvePathOptions {
  /** Whether the root itself is an acceptable answer (listing it is; deleting it is not). */
  readonly allowRoot?: boolean;
  /**
   * Whether a symbolic link as the last component is followed (default true). Deleting or moving a
   * link acts on the link itself: they pass false.
   */
  readonly followLast?: boolean;
}

/**
 * Resolves `input` inside the workspace `root` (as configured; its real path is taken now). Throws a
 * `ToolFailure` (`INVALID_PATH`) when the path is malformed or leads outside.
 */
export const resolveWorkspacePath = async (root: string, input: string, options: ResolvePathOptions = {}): Promise<WorkspacePath> => {
  const rootReal = await workspaceRoot(root);
  const norm = normalizeWorkspacePath(path.resolve(root), input);
  if (isLeft(norm)) {
    // an absolute path may name the workspace through its real path rather than the configured one
    const again = path.posix.isAbsolute(input) ? normalizeWorkspacePath(rootReal, input) : norm;
    if (isLeft(again)) throw new ToolFailure(norm.left.code, norm.left.message);
    return resolveRelative(rootReal, input, again.right, options);
  }
  return resolveRelative(rootReal, input, norm.right, options);
};

const resolveRelative = async (rootReal: string, input: string, relative: string, options: ResolvePathOptions): Promise<WorkspacePath> => {
  if (relative === '' && options.allowRoot !== true) {
    throw new ToolFailure(BuiltinCodes.INVALID_PATH, 'this operation does not apply to the workspace root itself; name a file or directory inside it');
  }
  const { real, exists } =
    options.followLast === false && relative !== '' ? await lastUnfollowed(rootReal, relative, input) : await followLinks(rootReal, relative, input);
  if (!isWithin(rootReal, real)) {
    throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(input)} leads outside the workspace through a symbolic link`);
  }
  if (real === rootReal && options.allowRoot !== true) {
    throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(input)} is the workspace root itself (through a symbolic link)`);
  }
  return { input, relative, real, root: rootReal, exists };
};

/** Resolves the parent of `relative` and appends its last component as it is (a link stays a link). */
const lastUnfollowed = async (rootReal: string, relative: string, input: string): Promise<{ real: string; exists: boolean }> => {
  const slash = relative.lastIndexOf('/');
  const parent = await followLinks(rootReal, slash < 0 ? '' : relative.slice(0, slash), input);
  const real = `${parent.real === '/' ? '' : parent.real}/${relative.slice(slash + 1)}`;
  if (!parent.exists) return { real, exists: false };
  const st = await lstat(real).catch(() => undefined);
  return { real, exists: st !== undefined };
};

/**
 * Walks `relative` from `rootReal` component by component, replacing each symbolic link by its
 * target (relative targets from the link's directory, absolute ones from `/`), like the kernel's
 * path resolution. Components that do not exist end the walk: the rest is appended as given.
 */
const followLinks = async (rootReal: string, relative: string, input: string): Promise<{ real: string; exists: boolean }> => {
  const queue = relative === '' ? [] : relative.split('/');
  let cur = rootReal;
  let missing = false;
  let links = 0;
  while (queue.length > 0) {
    const seg = queue.shift() as string;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      cur = path.posix.dirname(cur);
      continue;
    }
    const next = cur === '/' ? `/${seg}` : `${cur}/${seg}`;
    if (missing) {
      cur = next;
      continue;
    }
    let st;
    try {
      st = await lstat(next);
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        missing = true;
        cur = next;
        continue;
      }
      if (code === 'ENAMETOOLONG') throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(input)} is too long`);
      if (code === 'EACCES') throw new ToolFailure(BuiltinCodes.PERMISSION_DENIED, `permission denied for ${JSON.stringify(input)}`);
      throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `cannot resolve ${JSON.stringify(input)}: ${code ?? String(e)}`);
    }
    if (!st.isSymbolicLink()) {
      cur = next;
      continue;
    }
    links += 1;
    if (links > MAX_LINKS) throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(input)} goes through too many symbolic links`);
    let target: string;
    try {
      target = await readlink(next);
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'EINVAL' || code === 'ENOENT') {
        // it stopped being a link since lstat (changed meanwhile): look at it again
        queue.unshift(seg);
        continue;
      }
      throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `cannot read the symbolic link in ${JSON.stringify(input)}: ${errnoOf(e) ?? String(e)}`);
    }
    if (target.includes('\0') || target === '')
      throw new ToolFailure(BuiltinCodes.INVALID_PATH, `path ${JSON.stringify(input)} goes through a malformed symbolic link`);
    queue.unshift(...target.split('/'));
    if (target.startsWith('/')) cur = '/';
  }
  return { real: cur, exists: !missing };
};
