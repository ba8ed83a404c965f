/**
 * `delete_file`: deletes a file, a symbolic link (never its target) or a directory (recursively on
 * request). A recursive delete walks the tree through verified directory handles, unlinking each
 * entry without following links, and reports exactly what it deleted, children before their
 * directory. If it fails midway, the error's details list what was already deleted.
 * Approval: always asks.
 */
import { BuiltinCodes } from './codes.js';
import { lstat, readdir, rmdir, unlink } from 'node:fs/promises';
import * as path from 'node:path';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, boolArg, checkAborted, requireString, type BuiltinFactory } from './builtin.js';
import { errnoOf, systemFailure } from './errors.js';
import { childPath, openSubdirectory, withDirectory, type DirHandle } from './workspace-fs.js';
import { resolveWorkspacePath } from './workspace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface DeleteFileResult {
  /** Every path deleted, relative to the workspace root, in the order of deletion. */
  readonly deleted: ReadonlyArray<string>;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const deleteFile: BuiltinFactory = (options) => ({
  name: 'delete_file',
  annotations: { permissions: ['fs:write'], safetyLevel: 'high', approval: 'confirm' },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<DeleteFileResult> => {
    const a = argsRecord(args);
    const input = requireString(a, 'path');
    const recursive = boolArg(a, 'recursive', false);
    const target = await resolveWorkspacePath(options.workspace, input, { followLast: false });
    const name = path.posix.basename(target.real);
    const deleted: string[] = [];
    try {
      await withDirectory(target.root, path.posix.dirname(target.real), input, async (dir) => {
        const st = await lstat(childPath(dir, name)).catch((e: unknown) => {
          throw systemFailure(e, input);
        });
        if (!st.isDirectory()) {
          await unlink(childPath(dir, name)).catch((e: unknown) => {
            throw systemFailure(e, input);
          });
          deleted.push(target.relative);
          return;
        }
        if (!recursive) {
          await rmdir(childPath(dir, name)).catch((e: unknown) => {
            if (errnoOf(e) === 'ENOTEMPTY' || errnoOf(e) === 'EEXIST') {
              throw new ToolFailure(
                BuiltinCodes.DIRECTORY_NOT_EMPTY,
                `directory ${JSON.stringify(input)} is not empty; pass recursive: true to delete it with its contents`,
              );
            }
            throw systemFailure(e, input);
          });
          deleted.push(target.relative);
          return;
        }
        await removeTree(target.root, dir, name, target.relative, deleted, ctx);
      });
    } catch (e) {
      if (deleted.length > 0 && e instanceof ToolFailure) {
        throw new ToolFailure(e.reason, `${e.message} (after deleting ${deleted.length} entries, listed in details.deleted)`, {
          details: { deleted },
          retryable: e.retryable,
        });
      }
      throw e;
    }
    return { deleted };
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Deletes the directory `name` of `parent` and everything in it, post-order, recording each path. */
const removeTree = async (root: string, parent: DirHandle, name: string, rel: string, deleted: string[], ctx: InvocationContext): Promise<void> => {
  const dir = await openSubdirectory(root, parent, name, rel);
  try {
    let names: string[];
    try {
      names = await readdir(dir.path);
    } catch (e) {
      throw systemFailure(e, rel);
    }
    names.sort();
    for (const entry of names) {
      checkAborted(ctx);
      const entryRel = `${rel}/${entry}`;
      const st = await lstat(childPath(dir, entry)).catch(() => undefined);
      if (st === undefined) continue; // already gone
      if (st.isDirectory()) {
        await removeTree(root, dir, entry, entryRel, deleted, ctx);
      } else {
        try {
          await unlink(childPath(dir, entry));
        } catch (e) {
          if (errnoOf(e) === 'ENOENT') continue;
          throw systemFailure(e, entryRel);
        }
        deleted.push(entryRel);
      }
    }
  } finally {
    await dir.close();
  }
  try {
    await rmdir(childPath(parent, name));
  } catch (e) {
    if (errnoOf(e) === 'ENOTEMPTY' || errnoOf(e) === 'EEXIST') {
      throw new ToolFailure(BuiltinCodes.DIRECTORY_NOT_EMPTY, `directory ${JSON.stringify(rel)} gained new entries while it was being deleted; try again`, {
        retryable: true,
      });
    }
    throw systemFailure(e, rel);
  }
  deleted.push(rel);
};
