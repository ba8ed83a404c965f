/**
 * `run_code`: runs Python or bash code with arguments and environment variables, in the
 * sandbox (no network, no file outside the workspace, resource limits; see sandbox.ts), with a
 * timeout (60 s by default). The code is passed as a read-only file, so it can be of any size and
 * its standard input stays free. A non-zero exit is a result, not an error: the model reads
 * `stderr` and `exitCode`.
 */
import { ToolCodes } from '../../library/codes.js';
import { PolicyCodes } from '../../policy/codes.js';
import type { InvocationContext } from '../../library/tool.js';
import { ToolFailure } from '../../library/result.js';
import { checkRules, describeViolations } from '../../policy/rules.js';
import { argsRecord, numberArg, requireString, type BuiltinFactory } from './builtin.js';
import type { ResolvedBuiltinOptions } from './options.js';
import { CODE_FILE, runProgram, type ProgramResult } from './run-program.js';
import { SANDBOX_WORKSPACE, firstExecutable } from './sandbox.js';
import { workspaceRoot } from './workspace.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export type RunCodeResult = ProgramResult;

const PYTHON_CANDIDATES = ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3'];
const BASH_CANDIDATES = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];

// -------------------------------------------------------------------------------------------------
// tool
// -------------------------------------------------------------------------------------------------

export const runCode: BuiltinFactory = (options) => ({
  name: 'run_code',
  annotations: { permissions: execPermissions(options), safetyLevel: 'high', approval: 'auto' },
  limits: { timeoutMs: (options.limits.runCodeMaxTimeoutSeconds + 15) * 1000 },
  implementation: async (args: unknown, ctx: InvocationContext): Promise<RunCodeResult> => {
    const a = argsRecord(args);
    const language = requireString(a, 'language');
    if (language !== 'python' && language !== 'bash')
      throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "language" must be "python" or "bash", got ${JSON.stringify(language)}`);
    const code = requireString(a, 'code');
    const programArgs = stringList(a['args'], 'args');
    const env = environment(a['env']);
    const timeoutSeconds = timeoutOf(numberArg(a, 'timeout'), options.limits.runCodeTimeoutSeconds, options.limits.runCodeMaxTimeoutSeconds);
    if (language === 'bash') {
      const violations = checkRules(options.rules, 'run_code', a);
      if (violations.length > 0)
        throw new ToolFailure(PolicyCodes.DENIED, describeViolations('run_code', violations), { details: { rules: violations.map((v) => v.rule) } });
    }
    const program = await interpreter(options, language);
    const root = await workspaceRoot(options.workspace);
    return runProgram(
      options,
      {
        program,
        args: [CODE_FILE, ...programArgs],
        code: { text: code, extension: language === 'python' ? '.py' : '.sh' },
        // modules written in the workspace can be imported, as with `python -c`
        env:
          language === 'python' && env['PYTHONPATH'] === undefined ? { ...env, PYTHONPATH: options.sandbox.mode === 'bwrap' ? SANDBOX_WORKSPACE : root } : env,
        cwdReal: root,
        workspaceReal: root,
        timeoutSeconds,
        what: 'the code',
      },
      ctx,
    );
  },
});

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** What running programs needs: always processes and the workspace; the network when it is reachable. */
export const execPermissions = (options: ResolvedBuiltinOptions): ReadonlyArray<string> =>
  options.sandbox.mode === 'none' || options.sandbox.network ? ['proc:exec', 'fs:read', 'fs:write', 'net:read'] : ['proc:exec', 'fs:read', 'fs:write'];

const interpreter = async (options: ResolvedBuiltinOptions, language: 'python' | 'bash'): Promise<string> => {
  const configured = language === 'python' ? options.interpreters.python : options.interpreters.bash;
  const found = configured ?? (await firstExecutable(language === 'python' ? PYTHON_CANDIDATES : BASH_CANDIDATES));
  if (found === undefined) {
    throw new ToolFailure(
      ToolCodes.EXECUTION_ERROR,
      `${language === 'python' ? 'python3' : 'bash'} is not installed on this machine, so ${language} code cannot run`,
    );
  }
  return found;
};

/** A timeout in seconds: the call's (when positive), else the default; never above the maximum. */
export const timeoutOf = (asked: number | undefined, fallback: number, max: number): number =>
  Math.min(asked !== undefined && asked > 0 ? asked : fallback, max);

export const stringList = (v: unknown, name: string): ReadonlyArray<string> => {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${name}" must be an array of strings`);
  const bad = v.findIndex((x: string) => x.includes('\0'));
  if (bad >= 0) throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${name}[${bad}]" contains a NUL character`);
  return v as string[];
};

/** Environment variables of a call: valid names, no NUL in values. */
export const environment = (v: unknown): Readonly<Record<string, string>> => {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, 'argument "env" must be an object of variable names to string values');
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
      throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `${JSON.stringify(k)} is not a valid environment variable name`);
    if (typeof x !== 'string' || x.includes('\0'))
      throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `environment variable ${k} must be a string without NUL characters`);
    out[k] = x;
  }
  return out;
};
