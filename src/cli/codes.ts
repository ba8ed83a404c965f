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
  INVALID_TOKENS: {
    canonical: 'INVALID_CONFIGURATION',
    summary:
      '`gramkit serve`: the tokens of `--token-file` or `$GRAMKIT_TOKEN` cannot be read as tokens (too short, a malformed list, several in the variable)',
    hint: 'give one token of 16 characters or more, or a file {"tokens": [{"name", "token", "scopes"}]}',
  },
  TOKEN_FILE_UNSAFE: {
    canonical: 'FAILED_PRECONDITION',
    summary: '`gramkit serve --token-file`: a file others may read, or not a regular file (as ssh refuses such a key)',
    hint: 'chmod 600 the file (a regular file, not a link)',
  },
  EVENTS_UNAVAILABLE: {
    canonical: 'UNAVAILABLE',
    summary: '`gramkit serve --events nats://…`: the NATS server does not answer at start',
    retryable: 'sometimes',
    hint: 'start the NATS server, or check the address (nats://host:port)',
  },
  QUEUE_UNAVAILABLE: {
    canonical: 'UNAVAILABLE',
    summary: '`gramkit ab --queue`, `gramkit worker --queue`: the Redis of the queue does not answer',
    retryable: 'sometimes',
    hint: 'start Redis, or check the address (redis://host:port)',
  },
  LISTEN_FAILED: {
    canonical: 'UNAVAILABLE',
    summary: '`gramkit serve`: the server cannot listen on its host and port (the port is taken, the address is not one of this machine)',
    retryable: 'sometimes',
    hint: 'give another --port (0 picks a free one), or a --host of this machine',
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
