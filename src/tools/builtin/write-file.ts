/**
 * `write_file`: creates or replaces a file of the workspace with UTF-8 text or base64 bytes,
 * creating missing parent directories on request.
 *
 * The content is written to a temporary file beside the target and renamed over it: readers see
 * the old content or the new one, never a mix, and a failed write leaves the old file as it was.
 * The replaced file's permission bits are kept. Writing through a symbolic link writes its target
 * (when the target is inside the workspace). Approval: asks only when the file already exists.
 */
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import { constants } from 'node:fs';
import { lstat, mkdir, rename, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { argsRecord, boolArg, requireString, stringArg, type BuiltinFactory } from './builtin.js';
import { errnoOf, systemFailure } from './errors.js';
import { childPath, openDirectory, openFileIn, openSubdirectory, type DirHandle } from './workspace-fs.js';
import { resolveWorkspacePath, type WorkspacePath } from './workspace.js';
import { assertPathAllowed } from './path-rules.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface WriteFileResult {
  /** The path written, relative to the workspace root. */
  readonly path: string;
  /** Bytes written. */
  readonly size: number;
}

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const writeFile: BuiltinFactory = (options) => ({
  name: 'write_file',
  annotations: {
    permissions: ['fs:write'],
    safetyLevel: 'medium',
    // asks only when the call would overwrite an existing file
    approval: (args: unknown) => targetExists(options.workspace, argsRecord(args)['path']),
  },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<WriteFileResult> => {
    const a = argsRecord(args);
    const input = requireString(a, 'path');
    const content = requireString(a, 'content');
    const encoding = stringArg(a, 'encoding', 'utf-8') === 'base64' ? 'base64' : 'utf-8';
    const createDirs = boolArg(a, 'createDirs', false);
    const bytes = encodeContent(content, encoding);
    if (bytes.length > options.limits.writeMaxBytes) {
      throw new ToolFailure(
        BuiltinCodes.TOO_LARGE,
        `content is ${bytes.length} bytes, more than the ${options.limits.writeMaxBytes}-byte limit of write_file`,
        {
          details: { size: bytes.length, limit: options.limits.writeMaxBytes },
        },
      );
    }
    const target = await resolveWorkspacePath(options.workspace, input);
    // the rules judge the file really written (a link's target), not only the argument's text
    assertPathAllowed(options, ctx, 'write_file', 'path', input, target.root, target.real, 'write');
    const dir = await parentDirectory(target, input, createDirs);
    try {
      await replaceContent(target.root, dir, path.posix.basename(target.real), bytes, input);
    } finally {
      await dir.close();
    }
    return { path: target.relative, size: bytes.length };
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Whether `path` names an existing entry of the workspace (false for anything unusable: the call fails later). */
export const targetExists = async (workspace: string, input: unknown): Promise<boolean> => {
  if (typeof input !== 'string') return false;
  try {
    return (await resolveWorkspacePath(workspace, input)).exists;
  } catch {
    return false;
  }
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of `content`; refuses what cannot be encoded without loss. */
export const encodeContent = (content: string, encoding: 'utf-8' | 'base64'): Buffer => {
  if (encoding === 'base64') {
    const compact = content.replace(/[\r\n\t ]+/g, '');
    if (!BASE64.test(compact)) {
      throw new ToolFailure(BuiltinCodes.INVALID_ENCODING, 'content is not valid base64 (characters A-Z a-z 0-9 + / with = padding, length a multiple of 4)');
    }
    return Buffer.from(compact, 'base64');
  }
  if (LONE_SURROGATE.test(content)) {
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'content contains an unpaired UTF-16 surrogate, which UTF-8 cannot encode; send the bytes as base64');
  }
  return Buffer.from(content, 'utf8');
};

/** Opens the parent directory of the target, creating the missing ones when asked. */
const parentDirectory = async (target: WorkspacePath, input: string, createDirs: boolean): Promise<DirHandle> => {
  const parentReal = path.posix.dirname(target.real);
  if (!createDirs) {
    try {
      return await openDirectory(target.root, parentReal, path.posix.dirname(input));
    } catch (e) {
      if (e instanceof ToolFailure && e.reason === BuiltinCodes.FILE_NOT_FOUND) {
        throw new ToolFailure(BuiltinCodes.FILE_NOT_FOUND, `the directory of ${JSON.stringify(input)} does not exist; pass createDirs: true to create it`);
      }
      throw e;
    }
  }
  // walk down from the root, creating each missing directory and opening it without following links
  const segments = parentReal === target.root ? [] : parentReal.slice(target.root.length + 1).split('/');
  let dir = await openDirectory(target.root, target.root, '.');
  let shown = '';
  for (const seg of segments) {
    shown = shown === '' ? seg : `${shown}/${seg}`;
    try {
      await mkdir(childPath(dir, seg));
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') {
        await dir.close();
        throw systemFailure(e, shown);
      }
    }
    let next: DirHandle;
    try {
      next = await openSubdirectory(target.root, dir, seg, shown);
    } finally {
      await dir.close();
    }
    dir = next;
  }
  return dir;
};

/** Writes `bytes` to a temporary file in `dir` and renames it over `name`, keeping the old mode. */
const replaceContent = async (root: string, dir: DirHandle, name: string, bytes: Uint8Array, input: string): Promise<void> => {
  const existing = await lstat(childPath(dir, name)).catch(() => undefined);
  if (existing?.isDirectory() === true) throw new ToolFailure(BuiltinCodes.NOT_A_FILE, `${JSON.stringify(input)} is a directory`);
  if (existing !== undefined && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new ToolFailure(BuiltinCodes.NOT_A_FILE, `${JSON.stringify(input)} is not a regular file`);
  }
  const tmp = `.${name.slice(0, 100)}.${randomUUID()}.tmp`;
  const fh = await openFileIn(
    root,
    dir,
    tmp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
    input,
    existing?.isFile() === true ? existing.mode & 0o7777 : 0o666,
  );
  let renamed = false;
  try {
    try {
      if (existing?.isFile() === true) await fh.chmod(existing.mode & 0o7777);
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await rename(childPath(dir, tmp), childPath(dir, name));
    } catch (e) {
      throw systemFailure(e, input);
    }
    renamed = true;
  } catch (e) {
    throw e instanceof ToolFailure ? e : systemFailure(e, input);
  } finally {
    if (!renamed) await unlink(childPath(dir, tmp)).catch(() => undefined);
  }
};
