/**
 * The codes of what the kinds of tools share (`IMPL_`): the process runner and implementations
 * declared in a specification's data. Each kind has its own registry: tools/http/codes.ts,
 * tools/command/codes.ts, tools/builtin/codes.ts.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const ImplCodes = defineCodes('tools', 'IMPL', {
  CONFLICT: { canonical: 'INVALID_CONFIGURATION', summary: 'a tool that declares both `http` and `command` implementations', hint: 'keep one of them' },
  INVALID_ARGV: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'the process runner got an empty argv, or an argument with a NUL character',
    hint: 'name the program first; no program can receive NUL characters',
  },
  UNAVAILABLE: {
    canonical: 'FAILED_PRECONDITION',
    summary:
      'an implementation that cannot be built here: a host outside the allowed list, a built-in or function that is missing (the catalog reports it as its own code)',
    hint: 'read the message: give the library, allow the host, or fix the implementation',
  },
  SPAWN_FAILED: {
    canonical: 'EXECUTION_ERROR',
    summary: 'a program could not be started for a reason the system did not name',
    retryable: 'sometimes',
    hint: 'read the message',
  },
  CANCELLED: { canonical: 'CANCELLED', summary: 'the process runner was cancelled before the program started', hint: 'nothing to do: the caller asked for it' },
  // implement(source, handlers)
  HANDLERS_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'implement: a tool of the file has no handler, or a handler names no tool (the message lists both)',
    hint: 'give one handler per tool of the file, named as the tool',
  },
  HANDLER_NOT_FUNCTION: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'implement: a handler that is not a function',
    hint: 'give a function (args, ctx) => result',
  },
  SOURCE_UNREADABLE: {
    canonical: 'FILE_NOT_FOUND',
    summary: 'implement: the specification file cannot be read',
    hint: 'check the path (a URL made with import.meta.url is relative to the module)',
  },
});

export type ImplCode = CodeOf<typeof ImplCodes>;
