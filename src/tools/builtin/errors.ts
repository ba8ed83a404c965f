/**
 * The mapping from system errors (`errno` codes) to the codes of the built-in tools.
 */
import { ToolCodes } from '../../library/codes.js';
import { ToolFailure } from '../../library/result.js';
import { BuiltinCodes } from './codes.js';

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The `ToolFailure` for a system error raised while working on `what` (a path as the caller gave it). */
export const systemFailure = (e: unknown, what: string): ToolFailure => {
  const code = errnoOf(e);
  const show = JSON.stringify(what);
  switch (code) {
    case 'ENOENT':
      return new ToolFailure(BuiltinCodes.FILE_NOT_FOUND, `${show} does not exist`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ToolFailure(BuiltinCodes.PERMISSION_DENIED, `permission denied for ${show}`);
    case 'EISDIR':
      return new ToolFailure(BuiltinCodes.NOT_A_FILE, `${show} is a directory, not a file`);
    case 'ENOTDIR':
      return new ToolFailure(BuiltinCodes.NOT_A_DIRECTORY, `${show} is not a directory (or a parent of it is not)`);
    case 'EEXIST':
      return new ToolFailure(BuiltinCodes.FILE_EXISTS, `${show} already exists`);
    case 'ENOTEMPTY':
      return new ToolFailure(BuiltinCodes.DIRECTORY_NOT_EMPTY, `directory ${show} is not empty`);
    case 'ELOOP':
      return new ToolFailure(BuiltinCodes.INVALID_PATH, `${show} changed into a symbolic link while it was being used; try again`, {
        retryable: true,
      });
    case 'ENAMETOOLONG':
      return new ToolFailure(BuiltinCodes.INVALID_PATH, `${show} is too long`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new ToolFailure(ToolCodes.EXECUTION_ERROR, `no space left on the device while writing ${show}`);
    case 'EMFILE':
    case 'ENFILE':
    case 'EBUSY':
    case 'EAGAIN':
      return new ToolFailure(ToolCodes.EXECUTION_ERROR, `${show} is busy (${code}); try again`, { retryable: true });
    default:
      return new ToolFailure(ToolCodes.EXECUTION_ERROR, `cannot use ${show}: ${code ?? (e instanceof Error ? e.message : String(e))}`);
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const errnoOf = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};
