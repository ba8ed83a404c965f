/**
 * `shell`: runs a command line with bash, in the workspace (or a directory of it), in
 * the same sandbox as `run_code`, with a 30-second timeout by default. The command is checked by
 * the rule engine first (dangerous commands and sensitive files are refused with `DENIED` and the
 * rule that refused them), in addition to any policy the caller evaluates.
 */
import { ToolCodes } from '../../library/codes.js';
import { PolicyCodes } from '../../policy/codes.js';
import { BuiltinCodes } from './codes.js';
import { lstat } from 'node:fs/promises';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { checkRules, describeViolations } from '../../policy/rules.js';
import { argsRecord, numberArg, requireString, stringArg, type BuiltinFactory } from './builtin.js';
import { systemFailure } from './errors.js';
import { execPermissions, timeoutOf } from './run-code.js';
import { runProgram, type ProgramResult } from './run-program.js';
import { firstExecutable } from './sandbox.js';
import { resolveWorkspacePath } from './workspace.js';
import { assertCommandFilesAllowed } from './path-rules.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type ShellResult = ProgramResult;

/** Longest command accepted (Linux refuses longer single arguments). */
export const MAX_COMMAND_CHARS = 100_000;

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const shell: BuiltinFactory = (options) => ({
  name: 'shell',
  annotations: { permissions: execPermissions(options), safetyLevel: 'high', approval: 'auto' },
  limits: { timeoutMs: (options.limits.shellMaxTimeoutSeconds + 15) * 1000 },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<ShellResult> => {
    const a = argsRecord(args);
    const command = requireString(a, 'command');
    if (command.trim() === '') throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'argument "command" is empty');
    if (command.length > MAX_COMMAND_CHARS || command.includes('\0')) {
      throw new ToolFailure(
        ToolCodes.INVALID_ARGUMENTS,
        `the command is longer than ${MAX_COMMAND_CHARS} characters or contains NUL; write a script with write_file and run it`,
      );
    }
    const violations = checkRules(options.rules, 'shell', a);
    if (violations.length > 0)
      throw new ToolFailure(PolicyCodes.DENIED, describeViolations('shell', violations), { details: { rules: violations.map((v) => v.rule) } });
    const cwdInput = stringArg(a, 'cwd', '.') as string;
    const cwd = await resolveWorkspacePath(options.workspace, cwdInput, { allowRoot: true });
    const st = await lstat(cwd.real).catch((e: unknown) => {
      throw systemFailure(e, cwdInput);
    });
    if (!st.isDirectory()) throw new ToolFailure(BuiltinCodes.NOT_A_DIRECTORY, `cwd ${JSON.stringify(cwdInput)} is not a directory`);
    // the files its words name, judged by their real paths and what they hold (a hard link to credentials)
    await assertCommandFilesAllowed(options, ctx, 'shell', 'command', command, cwd.root, cwd.real);
    const bash = options.interpreters.bash ?? (await firstExecutable(['/bin/bash', '/usr/bin/bash', '/bin/sh']));
    if (bash === undefined) throw new ToolFailure(ToolCodes.EXECUTION_ERROR, 'no shell is installed on this machine');
    return runProgram(
      options,
      {
        program: bash,
        args: ['-c', command],
        env: {},
        cwdReal: cwd.real,
        workspaceReal: cwd.root,
        timeoutSeconds: timeoutOf(numberArg(a, 'timeout'), options.limits.shellTimeoutSeconds, options.limits.shellMaxTimeoutSeconds),
        what: 'the command',
      },
      ctx,
    );
  },
});
