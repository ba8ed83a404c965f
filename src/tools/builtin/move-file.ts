/**
 * `move_file`: moves or renames a file, a symbolic link (the link itself) or a directory inside the
 * workspace. Without `overwrite`, an existing destination is an error (`FILE_EXISTS`); for files
 * this is atomic (a hard link that fails when the destination exists, then the source removed), for
 * directories it is a check just before the rename. With `overwrite`, an existing file is replaced
 * atomically; a directory is never replaced. Approval: asks only when it would overwrite.
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import { link, lstat, readdir, rename, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, boolArg, requireString, type BuiltinFactory } from './builtin.js';
import { errnoOf, systemFailure } from './errors.js';
import { childPath, withDirectory } from './workspace-fs.js';
import { resolveWorkspacePath } from './workspace.js';
import { assertPathAllowed, relativeToRoot } from './path-rules.js';
import { PolicyCodes } from '../../policy/codes.js';
import { checkPaths } from '../../policy/path-rules.js';
import { describeViolations } from '../../policy/rules.js';
import type { ResolvedBuiltinOptions } from './options.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface MoveFileResult {
  readonly from: string;
  readonly to: string;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const moveFile: BuiltinFactory = (options) => ({
  name: 'move_file',
  annotations: {
    permissions: ['fs:write'],
    safetyLevel: 'medium',
    approval: async (args: unknown) => {
      const a = argsRecord(args);
      if (a['overwrite'] !== true || typeof a['to'] !== 'string') return false;
      try {
        return (await resolveWorkspacePath(options.workspace, a['to'], { followLast: false })).exists;
      } catch {
        return false;
      }
    },
  },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<MoveFileResult> => {
    const a = argsRecord(args);
    const fromInput = requireString(a, 'from');
    const toInput = requireString(a, 'to');
    const overwrite = boolArg(a, 'overwrite', false);
    const from = await resolveWorkspacePath(options.workspace, fromInput, { followLast: false });
    const to = await resolveWorkspacePath(options.workspace, toInput, { followLast: false });
    if (from.real === to.real) return { from: from.relative, to: to.relative };
    if (to.real.startsWith(`${from.real}/`)) {
      throw new ToolFailure(BuiltinCodes.INVALID_PATH, `cannot move ${JSON.stringify(fromInput)} into itself (${JSON.stringify(toInput)})`);
    }
    // a move is judged on both names, and on every name below a directory it renames: moving
    // `.aws` (or a parent of it) elsewhere would carry `.aws/credentials` past the rules
    assertPathAllowed(options, ctx, 'move_file', 'from', fromInput, from.root, from.real, 'write');
    assertPathAllowed(options, ctx, 'move_file', 'to', toInput, to.root, to.real, 'write');
    await assertTreeAllowed(options, from.root, from.real, to.real, fromInput);
    const fromName = path.posix.basename(from.real);
    const toName = path.posix.basename(to.real);
    await withDirectory(from.root, path.posix.dirname(from.real), fromInput, (src) =>
      withDirectory(to.root, path.posix.dirname(to.real), toInput, async (dst) => {
        const srcPath = childPath(src, fromName);
        const dstPath = childPath(dst, toName);
        const st = await lstat(srcPath).catch((e: unknown) => {
          throw systemFailure(e, fromInput);
        });
        const existing = await lstat(dstPath).catch(() => undefined);
        if (existing !== undefined) {
          if (!overwrite) throw exists(toInput);
          if (existing.isDirectory())
            throw new ToolFailure(BuiltinCodes.NOT_A_FILE, `${JSON.stringify(toInput)} is a directory; move_file never replaces a directory`);
          if (st.isDirectory())
            throw new ToolFailure(
              BuiltinCodes.NOT_A_DIRECTORY,
              `cannot replace the file ${JSON.stringify(toInput)} by the directory ${JSON.stringify(fromInput)}`,
            );
          await renameOrFail(srcPath, dstPath, fromInput, toInput);
          return;
        }
        if (!st.isDirectory()) {
          // link(2) never replaces: the destination cannot appear between a check and the move
          try {
            await link(srcPath, dstPath);
            await unlink(srcPath).catch(async (e: unknown) => {
              await unlink(dstPath).catch(() => undefined);
              throw systemFailure(e, fromInput);
            });
            return;
          } catch (e) {
            if (e instanceof ToolFailure) throw e;
            if (errnoOf(e) === 'EEXIST') throw exists(toInput);
            // file systems without hard links: fall through to a checked rename
          }
        }
        if (!overwrite && (await lstat(dstPath).catch(() => undefined)) !== undefined) throw exists(toInput);
        await renameOrFail(srcPath, dstPath, fromInput, toInput);
      }),
    );
    return { from: from.relative, to: to.relative };
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Most entries below a directory that `move_file` judges; a larger tree is refused (move it in parts). */
export const MAX_MOVE_ENTRIES = 50_000;

/**
 * Every entry below directory `fromReal` meets the rules under its present name and under the name
 * it would have below `toReal` (links are names, not followed). A file is nothing to walk.
 */
const assertTreeAllowed = async (options: ResolvedBuiltinOptions, root: string, fromReal: string, toReal: string, fromInput: string): Promise<void> => {
  const st = await lstat(fromReal).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) return;
  const pending: string[] = [''];
  let seen = 0;
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    const entries = await readdir(rel === '' ? fromReal : `${fromReal}/${rel}`, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > MAX_MOVE_ENTRIES)
        throw new ToolFailure(
          PolicyCodes.DENIED,
          `move_file call blocked: ${JSON.stringify(fromInput)} holds more than ${MAX_MOVE_ENTRIES} entries, more than the rules judge in one move; move it in parts`,
          {
            details: { limit: MAX_MOVE_ENTRIES },
          },
        );
      const below = rel === '' ? e.name : `${rel}/${e.name}`;
      const paths = [
        { argument: 'from', path: relativeToRoot(root, `${fromReal}/${below}`), access: 'write' as const },
        { argument: 'to', path: relativeToRoot(root, `${toReal}/${below}`), access: 'write' as const },
      ];
      const violations = checkPaths(options.rules, 'move_file', paths);
      if (violations.length > 0)
        throw new ToolFailure(
          PolicyCodes.DENIED,
          `${describeViolations('move_file', violations)} (${JSON.stringify(fromInput)} holds ${JSON.stringify(paths[0]!.path)})`,
          {
            details: { rules: violations.map((v) => v.rule), path: paths[0]!.path },
          },
        );
      if (e.isDirectory()) pending.push(below);
    }
  }
};

const exists = (toInput: string): ToolFailure =>
  new ToolFailure(BuiltinCodes.FILE_EXISTS, `${JSON.stringify(toInput)} already exists; pass overwrite: true to replace it`);

const renameOrFail = async (srcPath: string, dstPath: string, fromInput: string, toInput: string): Promise<void> => {
  try {
    await rename(srcPath, dstPath);
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'EXDEV')
      throw new ToolFailure(
        ToolCodes.EXECUTION_ERROR,
        `cannot move ${JSON.stringify(fromInput)} to ${JSON.stringify(toInput)}: they are on different file systems`,
      );
    if (code === 'EINVAL') throw new ToolFailure(BuiltinCodes.INVALID_PATH, `cannot move ${JSON.stringify(fromInput)} into itself`);
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'EISDIR') throw exists(toInput);
    throw systemFailure(e, code === 'ENOENT' ? fromInput : toInput);
  }
};
