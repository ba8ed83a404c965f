/**
 * The CLI's codes (`CLI_`): reading its inputs (files, standard input, JSON arguments) and loading
 * tool libraries from modules. Everything else the CLI reports keeps the code of the layer that
 * found it.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const CliCodes = defineCodes('cli', 'CLI', {
  USAGE: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'a command line the command cannot run: options that conflict, a missing or malformed option or argument',
    hint: 'see gramkit <command> --help',
  },
  UNKNOWN_TOOL: {
    canonical: 'NOT_FOUND',
    summary: 'a tool (`--tool`, a name) that the file or library does not define',
    hint: 'name one of the tools the message lists',
  },
  UNWRITABLE: {
    canonical: 'PERMISSION_DENIED',
    summary: 'a file the command writes (an output, a results file) cannot be written',
    retryable: 'sometimes',
    hint: 'check the path, its directory and their permissions',
  },
  RESULTS_CONFLICT: {
    canonical: 'CONFLICT',
    summary: "`gramkit ab --out results.jsonl`: the file already holds runs (without `--resume`) or another experiment's runs",
    hint: 'give --resume to continue the same experiment, or another file',
  },
  NO_AUTH: {
    canonical: 'UNAUTHENTICATED',
    summary: '`gramkit serve --no-auth` (a warning): the server asks no caller for a token, so any local process or page may call it',
    hint: 'for tests and demos only; without --no-auth the server makes a token',
  },
  INTERNAL: {
    canonical: 'INTERNAL',
    summary: 'a bug of gramkit: a command threw (the message carries the stack)',
    hint: 'please report it, with the command line',
  },
  UNREADABLE: {
    canonical: 'FILE_NOT_FOUND',
    summary: 'a file (or standard input) that cannot be read',
    retryable: 'sometimes',
    hint: 'check the path and its permissions',
  },
  INVALID_HEADER: {
    canonical: 'INVALID_CONFIGURATION',
    summary: "a file header's `library` that is not a module path (`gramkit check`, `gramkit run`)",
    hint: 'write {library: "./tools.ts"} (relative to the file) or {library: "builtin"}',
  },
  INVALID_JSON: { canonical: 'INVALID_ARGUMENTS', summary: 'an argument or input that should be JSON and is not', hint: 'give JSON (quote it for the shell)' },
  INVALID_WORKSPACE: {
    canonical: 'INVALID_PATH',
    summary: 'a workspace (`--workspace`) that does not exist or is not a directory',
    hint: 'give an existing directory',
  },
  LSP_CHECK_FAILED: {
    canonical: 'INTERNAL',
    summary: '`gramkit lsp`: checking a document threw (a bug of gramkit: the diagnostic carries the message)',
    hint: 'report it with the document; the other features keep working',
  },
  HANDLER_TYPES_STALE: {
    canonical: 'INVALID_CONFIGURATION',
    summary:
      '`check --library`: the handler types a library imports (written by `gramkit types`) disagree with the file: a tool changed, was added or removed since',
    hint: 'regenerate them with the command the hint gives; the compiler then checks the handlers again',
  },
});

export type CliCode = CodeOf<typeof CliCodes>;
