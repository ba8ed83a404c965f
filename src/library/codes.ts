/**
 * The library's codes (`TOOL_`): invoking a bound tool, binding a specification to a library, and
 * checking tools and libraries. A tool implementation may fail with these (`TOOL_INVALID_ARGUMENTS`
 * for an argument the schema cannot express), with the codes of its own kind, or with codes of its
 * own (any SCREAMING_SNAKE string). docs/errors.md lists them.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const ToolCodes = defineCodes('library', 'TOOL', {
  // invocation
  INVALID_ARGUMENTS: {
    canonical: 'INVALID_ARGUMENTS',
    http: 400,
    summary: "the arguments do not validate against the tool's schema, or are not JSON (details: the issues and their paths)",
    hint: 'call again with arguments the message describes',
  },
  INVALID_OUTPUT: {
    canonical: 'INVALID_OUTPUT',
    summary: 'the implementation returned a value that is not JSON data, or does not validate against the output schema',
    hint: 'fix the implementation (or the output schema): the message gives the path',
  },
  TIMEOUT: {
    canonical: 'TIMEOUT',
    summary: 'the call took longer than its timeout; its signal was aborted',
    retryable: true,
    hint: 'try again, or raise the timeout (`timeoutMs` of the call, the binding or the tool)',
  },
  CANCELLED: { canonical: 'CANCELLED', summary: 'the caller aborted the call', hint: 'nothing to do: the caller asked for it' },
  EXECUTION_ERROR: {
    canonical: 'EXECUTION_ERROR',
    summary: 'the implementation threw or rejected (the message is what it threw)',
    retryable: 'sometimes',
    hint: 'read the message; fix the implementation if it is a bug',
  },
  NOT_BOUND: {
    canonical: 'NOT_FOUND',
    summary: 'no bound tool has that name (details: the available ones)',
    hint: 'call one of the tools listed in the message',
  },
  RATE_LIMITED: {
    canonical: 'RATE_LIMITED',
    summary: "the tool's calls-per-minute limit is reached (details: retryAfterMs)",
    retryable: true,
    hint: 'wait retryAfterMs, then call again',
  },
  TOO_MANY_CALLS: {
    canonical: 'LIMIT_EXCEEDED',
    summary: 'not run: the model asked for more calls in one turn than the run allows (`maxToolCallsPerTurn`, default 16; details: the limit)',
    hint: 'make the remaining calls in the next turn',
  },
  RESULT_TOO_LARGE: {
    canonical: 'LIMIT_EXCEEDED',
    summary: "the result's JSON is larger than the tool's `maxResultBytes`",
    hint: 'ask for less (a narrower query, a page), or raise the limit',
  },
  INVALID_SCHEMA: {
    canonical: 'INVALID_CONFIGURATION',
    summary: "the tool's argument or output schema is not a usable JSON Schema (at bind time, or when compiled on the first call)",
    hint: 'fix the schema of the specification or the tool',
  },
  INVALID_OPTIONS: {
    canonical: 'INVALID_ARGUMENTS',
    summary: "the caller's invocation options are unusable (a timeout that is not a positive number, a value that is not a bound tool)",
    hint: 'fix the options as the message says',
  },
  // binding
  NOT_IN_LIBRARY: {
    canonical: 'NOT_FOUND',
    summary: "bind: the library has no tool of the specification's name (suggestions: close names)",
    hint: 'register an implementation of that name, or fix the name',
  },
  MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: the tool disagrees with its specification (mismatches: where and how)',
    hint: 'make the tool agree with the specification (defineTool(spec, impl) always does)',
  },
  NAME_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: the library entry holds a tool of another name',
    hint: 'register the tool under its own name',
  },
  DESCRIPTION_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: the descriptions differ (whitespace aside)',
    hint: 'use the same description in the tool and the specification',
  },
  SCHEMA_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: the argument schemas differ (the differences are JSON pointers)',
    hint: 'use the schema of the specification in the tool',
  },
  OUTPUT_SCHEMA_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: the output schemas differ',
    hint: 'use the output schema of the specification in the tool',
  },
  DUPLICATE_SPECIFICATION: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'bind: two specifications of one name',
    hint: 'tool names must be unique within an agent: rename one',
  },
  // tools and libraries
  INVALID: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a value that is not a usable tool (not an object, or with the problems listed)',
    hint: 'make tools with createTool or defineTool',
  },
  INVALID_NAME: { canonical: 'INVALID_CONFIGURATION', summary: 'a tool without a non-empty name', hint: 'give the tool a name' },
  INVALID_DESCRIPTION: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a tool without a non-empty description',
    hint: 'give the tool a description: the model reads it to choose the tool',
  },
  INVALID_IMPLEMENTATION: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a tool whose `invoke` is not a function',
    hint: 'give the function (args, ctx) => result',
  },
  INVALID_LIMIT: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a tool limit that is not a positive number (`maxCallsPerMinute` an integer)',
    hint: 'fix the limit as the message says',
  },
  NOT_SERIALIZABLE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a tool was serialized: it holds a function',
    hint: 'serialize its ToolSpecification and bind it to a library at run time',
  },
  LIBRARY_INVALID_ENTRY: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a library entry that is not a tool',
    hint: 'put tools made with createTool or defineTool in libraries',
  },
  LIBRARY_NAME_MISMATCH: {
    canonical: 'INVALID_CONFIGURATION',
    summary: "a library entry registered under another name than its tool's",
    hint: 'register each tool under its own name',
  },
  LIBRARY_NOT_SERIALIZABLE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a library was serialized: it holds functions',
    hint: 'serialize the specifications instead',
  },
  // defineTool from gram text
  DEFINE_NOT_FOUND: {
    canonical: 'NOT_FOUND',
    summary: 'defineTool: the gram text defines no tool of the name given',
    hint: 'use one of the names the hint lists',
  },
  DEFINE_NO_TOOL: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'defineTool: the gram text defines no tool',
    hint: 'write a tool: `[name:Tool {description: "..."} | (param::Type)==>(::Result)]`',
  },
  DEFINE_AMBIGUOUS: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'defineTool: the gram text defines several tools and no name was given',
    hint: 'say which one with the `name` option',
  },
});

export type ToolCode = CodeOf<typeof ToolCodes>;
