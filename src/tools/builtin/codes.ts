/**
 * The codes of the built-in tools (`BUILTIN_`), and the mapping from system errors (`errno` codes)
 * to them. The conditions every file tool shares are here with a layer prefix
 * (`BUILTIN_INVALID_PATH`, `BUILTIN_FILE_NOT_FOUND`, `BUILTIN_PERMISSION_DENIED`); the others name
 * a precise condition a model can act on. Generic failures keep the library's codes
 * (`TOOL_INVALID_ARGUMENTS`, `TOOL_EXECUTION_ERROR`), refused calls the policy layer's
 * (`POLICY_DENIED`), fetches the net layer's (`NET_HOST_NOT_ALLOWED`).
 */
import { type CodeOf, defineCodes } from '../../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const BuiltinCodes = defineCodes('tools/builtin', 'BUILTIN', {
  INVALID_PATH: {
    canonical: 'INVALID_PATH',
    summary: 'a path outside the workspace, absolute, or malformed (or one that changed into a link while in use)',
    retryable: 'sometimes',
    hint: 'give a path relative to the workspace, inside it',
  },
  FILE_NOT_FOUND: { canonical: 'FILE_NOT_FOUND', summary: 'the path does not exist', hint: 'list the directory to see what exists' },
  PERMISSION_DENIED: { canonical: 'PERMISSION_DENIED', summary: 'the system refused access to the path', hint: 'use a path the run may read or write' },
  NOT_A_FILE: {
    canonical: 'INVALID_PATH',
    summary: 'the path names a directory where a file is expected',
    hint: 'give the path of a file (list_directory shows which is which)',
  },
  NOT_A_DIRECTORY: {
    canonical: 'INVALID_PATH',
    summary: 'the path names a file where a directory is expected (or a parent is not a directory)',
    hint: 'give the path of a directory',
  },
  FILE_EXISTS: {
    canonical: 'CONFLICT',
    summary: 'the destination exists and the call did not allow overwriting it',
    hint: 'allow overwriting (`overwrite: true`), or choose another destination',
  },
  DIRECTORY_NOT_EMPTY: {
    canonical: 'CONFLICT',
    summary: 'a directory is not empty and the call was not recursive',
    hint: 'delete recursively (`recursive: true`) if that is intended',
  },
  INVALID_ENCODING: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'bytes that are not valid in the requested encoding (UTF-8 text, base64)',
    hint: 'read it with another encoding (base64 for binary files)',
  },
  INVALID_JSON: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'text that is not JSON (details: line and column)',
    hint: 'fix the JSON at the place the message gives',
  },
  INVALID_PATTERN: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'a regular expression that does not compile',
    hint: 'fix the pattern as the message says, or search for literal text',
  },
  TOO_LARGE: {
    canonical: 'LIMIT_EXCEEDED',
    summary: "an input, a file or a content larger than the tool's limit",
    hint: 'work on a smaller part (a range of lines, a smaller text), or raise the limit',
  },
  TIMEOUT: {
    canonical: 'TIMEOUT',
    summary: 'a program or a search ran longer than its time limit and was stopped',
    retryable: true,
    hint: 'try again with a longer timeout, or do less in one call',
  },
  SANDBOX_UNAVAILABLE: {
    canonical: 'FAILED_PRECONDITION',
    summary: 'the sandbox (bubblewrap) is required and missing or not working on this machine',
    hint: 'install bubblewrap, or let the operator run without the sandbox',
  },
  NOT_CONFIGURED: {
    canonical: 'FAILED_PRECONDITION',
    summary: 'the tool needs something the host did not configure (a search backend, sandbox paths)',
    hint: 'the operator configures it; the message says what is missing',
  },
});

export type BuiltinCode = CodeOf<typeof BuiltinCodes>;
