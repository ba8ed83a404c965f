/**
 * The codes of command tools (`COMMAND_`): their configuration (checked when the tool is made) and
 * their calls. Bad arguments are `TOOL_INVALID_ARGUMENTS`.
 */
import { type CodeOf, defineCodes } from '../../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const CommandCodes = defineCodes('tools/command', 'COMMAND', {
  // configuration
  CONFIG_TYPE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration field of the wrong type (or a configuration that is not an object)',
    hint: 'give the field the type the message names',
  },
  CONFIG_UNKNOWN_KEY: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration key command tools do not know',
    hint: 'fix the key (the hint suggests the closest)',
  },
  CONFIG_VALUE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration value out of range (a timeout, a size, an exit code, `stdin`)',
    hint: 'give a value the message allows',
  },
  ARGV_EMPTY: { canonical: 'INVALID_CONFIGURATION', summary: '`argv` is empty', hint: 'its first element names the program' },
  PROGRAM_PLACEHOLDER: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a placeholder in `argv[0]`: the program must be written literally',
    hint: 'name the program; pass what varies as arguments',
  },
  TEMPLATE_SYNTAX: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a malformed placeholder or a lone brace in an `argv` element',
    hint: 'write placeholders as {name}, and {{ }} for literal braces',
  },
  GROUP_EMPTY: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'an empty optional group in `argv`',
    hint: 'put the placeholder and its flag in the group, or remove it',
  },
  UNKNOWN_PLACEHOLDER: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a placeholder (or `pathParameters`, `stdin`) that names no parameter',
    hint: 'use the names of the parameters',
  },
  WORKSPACE_REQUIRED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a command tool made without a workspace',
    hint: 'pass the workspace its working directory is confined to',
  },
  CWD_OUTSIDE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a `cwd` that is absolute or climbs out with ".."',
    hint: 'give a path relative to the workspace, inside it',
  },
  ENV_NAME: { canonical: 'INVALID_CONFIGURATION', summary: 'an `env` entry that is not an environment variable name', hint: 'fix the name' },
  ENV_VALUE: { canonical: 'INVALID_CONFIGURATION', summary: 'a `setEnv` value with a NUL character', hint: 'remove it' },
  // calls
  INVALID_PATH: {
    canonical: 'INVALID_PATH',
    summary: 'a path argument (or the working directory) outside the workspace, absolute, or malformed',
    hint: 'give a path relative to the workspace, inside it',
  },
  FILE_NOT_FOUND: {
    canonical: 'FILE_NOT_FOUND',
    summary: 'the workspace, or a directory a path argument needs, does not exist',
    hint: 'create it, or give a path that exists',
  },
  NOT_FOUND: {
    canonical: 'NOT_FOUND',
    summary: 'the program is not found on the PATH of its environment',
    hint: 'give an absolute path, or install the program',
  },
  FAILED: {
    canonical: 'EXECUTION_ERROR',
    summary: 'the program exited with a status not in `successExitCodes` (details: exit code, stderr)',
    retryable: 'sometimes',
    hint: 'read its output in the message',
  },
  TIMEOUT: {
    canonical: 'TIMEOUT',
    summary: "the program ran longer than the tool's `timeoutMs`; its process group was killed",
    retryable: true,
    hint: 'try again, or raise timeoutMs',
  },
  OUTPUT_TOO_LARGE: {
    canonical: 'LIMIT_EXCEEDED',
    summary: 'the program printed more than `maxOutputBytes`; it was stopped',
    hint: 'ask for less output, or raise maxOutputBytes',
  },
  SANDBOX_UNAVAILABLE: {
    canonical: 'FAILED_PRECONDITION',
    summary:
      'a command tool declared `sandbox: "bwrap"` cannot run: bubblewrap is missing or cannot create its namespaces here (or, run as root, has no setuid filter for this architecture)',
    hint: 'install bubblewrap (apt-get install bubblewrap), or declare `sandbox: "auto"` or `"none"` to run on the host',
  },
  OUTPUT_NOT_JSON: {
    canonical: 'INVALID_OUTPUT',
    summary: 'the program printed no JSON where `output: "json"` expects it',
    hint: 'make the program print JSON, or read its output as text',
  },
});

export type CommandCode = CodeOf<typeof CommandCodes>;
