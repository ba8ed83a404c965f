/**
 * Error codes of the built-in tools, and the mapping from system errors (`errno` codes) to them.
 * The common codes (`INVALID_PATH`, `FILE_NOT_FOUND`, `PERMISSION_DENIED`, `TIMEOUT`,
 * `EXECUTION_ERROR`, ...) are seed 001's; the others name a precise condition a model can act on.
 */
import { ToolErrorCodes, ToolFailure } from '../../library/result.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const BuiltinErrorCodes = {
  ...ToolErrorCodes,
  /** The path names a directory where a file is expected. */
  NOT_A_FILE: 'NOT_A_FILE',
  /** The path names a file where a directory is expected (or a parent is not a directory). */
  NOT_A_DIRECTORY: 'NOT_A_DIRECTORY',
  /** The destination exists and the call did not allow overwriting it. */
  FILE_EXISTS: 'FILE_EXISTS',
  /** A directory is not empty and the call was not recursive. */
  DIRECTORY_NOT_EMPTY: 'DIRECTORY_NOT_EMPTY',
  /** Bytes that are not valid in the requested encoding (UTF-8 text, base64). */
  INVALID_ENCODING: 'INVALID_ENCODING',
  /** Text that is not JSON (details: line and column). */
  INVALID_JSON: 'INVALID_JSON',
  /** A regular expression that does not compile. */
  INVALID_PATTERN: 'INVALID_PATTERN',
  /** The sandbox (bubblewrap) is required and missing or not working on this machine. */
  SANDBOX_UNAVAILABLE: 'SANDBOX_UNAVAILABLE',
  /** The tool needs something the host did not configure (a search backend, an allowlist). */
  NOT_CONFIGURED: 'NOT_CONFIGURED',
  /** A URL whose host is not on the allowlist. */
  HOST_NOT_ALLOWED: 'HOST_NOT_ALLOWED',
} as const;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The `ToolFailure` for a system error raised while working on `what` (a path as the caller gave it). */
export const systemFailure = (e: unknown, what: string): ToolFailure => {
  const code = errnoOf(e);
  const show = JSON.stringify(what);
  switch (code) {
    case 'ENOENT':
      return new ToolFailure(BuiltinErrorCodes.FILE_NOT_FOUND, `${show} does not exist`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new ToolFailure(BuiltinErrorCodes.PERMISSION_DENIED, `permission denied for ${show}`);
    case 'EISDIR':
      return new ToolFailure(BuiltinErrorCodes.NOT_A_FILE, `${show} is a directory, not a file`);
    case 'ENOTDIR':
      return new ToolFailure(BuiltinErrorCodes.NOT_A_DIRECTORY, `${show} is not a directory (or a parent of it is not)`);
    case 'EEXIST':
      return new ToolFailure(BuiltinErrorCodes.FILE_EXISTS, `${show} already exists`);
    case 'ENOTEMPTY':
      return new ToolFailure(BuiltinErrorCodes.DIRECTORY_NOT_EMPTY, `directory ${show} is not empty`);
    case 'ELOOP':
      return new ToolFailure(BuiltinErrorCodes.INVALID_PATH, `${show} changed into a symbolic link while it was being used; try again`, {
        retryable: true,
      });
    case 'ENAMETOOLONG':
      return new ToolFailure(BuiltinErrorCodes.INVALID_PATH, `${show} is too long`);
    case 'ENOSPC':
    case 'EDQUOT':
      return new ToolFailure(BuiltinErrorCodes.EXECUTION_ERROR, `no space left on the device while writing ${show}`);
    case 'EMFILE':
    case 'ENFILE':
    case 'EBUSY':
    case 'EAGAIN':
      return new ToolFailure(BuiltinErrorCodes.EXECUTION_ERROR, `${show} is busy (${code}); try again`, { retryable: true });
    default:
      return new ToolFailure(BuiltinErrorCodes.EXECUTION_ERROR, `cannot use ${show}: ${code ?? (e instanceof Error ? e.message : String(e))}`);
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const errnoOf = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};
