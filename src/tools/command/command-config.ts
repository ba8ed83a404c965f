/**
 * The configuration of a command tool (an `exec` block, made safe), its JSON form decoded
 * with io-ts, and the checks that need only the configuration itself.
 *
 * ```json
 * { "argv": ["grep", "-n", "--", "{pattern}", "{file}"],
 *   "stdin": "text", "cwd": ".", "env": ["PATH", "LANG"],
 *   "timeoutMs": 30000, "maxOutputBytes": 1048576, "output": "auto", "pathParameters": ["file"] }
 * ```
 */
import { CommandCodes } from './codes.js';
import { left, right, type Either, isLeft } from '../../core/either.js';
import * as t from 'io-ts';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { parseArgTemplate, parseArgvTemplate, type ArgTemplate, type ArgvTemplate } from './argv-template.js';
import { decodeErrors, unknownKeys } from '../config-decode.js';
import type { OutputMode } from './command-output.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CommandToolConfig {
  /** The program (literal) then its arguments; `{name}` placeholders; arrays are optional groups. */
  readonly argv: ReadonlyArray<string | ReadonlyArray<string>>;
  /** The parameter whose value is written to the program's standard input. */
  readonly stdin?: string;
  /** Working directory, relative to the workspace (default `.`); may hold placeholders. */
  readonly cwd: string;
  /** Names of environment variables passed through from the environment the tool was given. */
  readonly env: ReadonlyArray<string>;
  /** Environment variables set to fixed values (after the pass-through ones). */
  readonly setEnv: Readonly<Record<string, string>>;
  /** Milliseconds before the process group is killed (default 30000). */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL (default 2000). */
  readonly killGraceMs: number;
  /** Cap on stdout and stderr together (default 1 MiB); above it the call fails with `RESULT_TOO_LARGE`. */
  readonly maxOutputBytes: number;
  /** `auto` (JSON, or the last JSON line, else `{output}`), `json` (must be JSON), `text` (`{output}`), `raw` (`{stdout, stderr, exitCode}`). */
  readonly output: OutputMode;
  /** Exit codes that count as success (default `[0]`). */
  readonly successExitCodes: ReadonlyArray<number>;
  /** Let a value start an argument with `-` even before `--` (default false). */
  readonly allowLeadingDash: boolean;
  /**
   * Parameters whose values are file paths: each must stay inside the workspace (relative to the
   * working directory, real paths checked, `INVALID_PATH` otherwise). Default none.
   */
  readonly pathParameters: ReadonlyArray<string>;
  /**
   * Where the program runs: `auto` (the default: in the bubblewrap sandbox of `run_code` when it
   * works on this machine, else on the host), `bwrap` (in the sandbox or not at all:
   * `SANDBOX_UNAVAILABLE`), `none` (on the host, the way out for programs the sandbox cannot hold).
   * Unset, the tool's options decide (`CommandToolOptions.sandbox.mode`).
   */
  readonly sandbox?: CommandSandboxMode;
  /** Let the sandboxed program use the network (default false: no network at all). */
  readonly network: boolean;
}

export type CommandSandboxMode = 'auto' | 'bwrap' | 'none';

export type CommandToolConfigInput = Partial<CommandToolConfig> & { readonly argv: ReadonlyArray<string | ReadonlyArray<string>> };

export interface CompiledCommandConfig {
  readonly config: CommandToolConfig;
  readonly argv: ArgvTemplate;
  readonly cwd: ArgTemplate;
}

export const COMMAND_DEFAULTS = {
  timeoutMs: 30_000,
  killGraceMs: 2000,
  maxOutputBytes: 1024 * 1024,
} as const;

// -------------------------------------------------------------------------------------------------
// codec
// -------------------------------------------------------------------------------------------------

const CommandConfigCodec = t.intersection([
  t.type({ argv: t.array(t.union([t.string, t.array(t.string)])) }),
  t.partial({
    stdin: t.string,
    cwd: t.string,
    env: t.array(t.string),
    setEnv: t.record(t.string, t.string),
    timeoutMs: t.number,
    killGraceMs: t.number,
    maxOutputBytes: t.number,
    output: t.keyof({ auto: null, json: null, text: null, raw: null }),
    successExitCodes: t.array(t.number),
    allowLeadingDash: t.boolean,
    pathParameters: t.array(t.string),
    sandbox: t.keyof({ auto: null, bwrap: null, none: null }),
    network: t.boolean,
  }),
]);

const KEYS = [
  'argv',
  'stdin',
  'cwd',
  'env',
  'setEnv',
  'timeoutMs',
  'killGraceMs',
  'maxOutputBytes',
  'output',
  'successExitCodes',
  'allowLeadingDash',
  'pathParameters',
  'sandbox',
  'network',
];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// -------------------------------------------------------------------------------------------------
// decoding
// -------------------------------------------------------------------------------------------------

/** Decodes and checks a command tool configuration, all problems at once. */
export const decodeCommandToolConfig = (json: unknown, where = 'command'): Either<ReadonlyArray<Diagnostic>, CommandToolConfig> => {
  const c = compileCommandConfig(json, where);
  return isLeft(c) ? c : right(c.right.config);
};

export const compileCommandConfig = (json: unknown, where = 'command'): Either<ReadonlyArray<Diagnostic>, CompiledCommandConfig> => {
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return left([
      error(
        CommandCodes.CONFIG_TYPE,
        `${where}: expected an object with at least "argv", got ${json === null ? 'null' : Array.isArray(json) ? 'an array' : typeof json}`,
      ),
    ]);
  const problems: Diagnostic[] = [...unknownKeys(json, KEYS, where, CommandCodes.CONFIG_UNKNOWN_KEY)];
  const decoded = CommandConfigCodec.decode(json);
  if (isLeft(decoded)) return left([...problems, ...decodeErrors(decoded.left, where, CommandCodes.CONFIG_TYPE)]);
  const raw = decoded.right;

  const num = (field: string, v: number | undefined, fallback: number, min: number): number => {
    if (v === undefined) return fallback;
    if (!Number.isInteger(v) || v < min) problems.push(error(CommandCodes.CONFIG_VALUE, `${where}.${field} must be an integer >= ${min}, got ${v}`));
    return v;
  };

  const argv = parseArgvTemplate(raw.argv, `${where}.argv`);
  if (isLeft(argv)) problems.push(...argv.left);

  const cwdSource = raw.cwd ?? '.';
  const cwd = parseArgTemplate(cwdSource, `${where}.cwd`);
  if (isLeft(cwd)) problems.push(...cwd.left);
  else if (cwdSource.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwdSource))
    problems.push(error(CommandCodes.CWD_OUTSIDE, `${where}.cwd "${cwdSource}" is absolute: it must be relative to the workspace`));
  else if (cwdSource.split(/[\\/]/).includes('..'))
    problems.push(error(CommandCodes.CWD_OUTSIDE, `${where}.cwd "${cwdSource}" climbs out with "..": it must stay inside the workspace`));

  for (const name of [...(raw.env ?? []), ...Object.keys(raw.setEnv ?? {})])
    if (!ENV_NAME.test(name)) problems.push(error(CommandCodes.ENV_NAME, `${where}: "${name}" is not an environment variable name`));
  for (const [k, v] of Object.entries(raw.setEnv ?? {}))
    if (v.includes('\0')) problems.push(error(CommandCodes.ENV_VALUE, `${where}.setEnv.${k} contains a NUL character`));

  const timeoutMs = num('timeoutMs', raw.timeoutMs, COMMAND_DEFAULTS.timeoutMs, 1);
  const killGraceMs = num('killGraceMs', raw.killGraceMs, COMMAND_DEFAULTS.killGraceMs, 0);
  const maxOutputBytes = num('maxOutputBytes', raw.maxOutputBytes, COMMAND_DEFAULTS.maxOutputBytes, 1);
  for (const [i, code] of (raw.successExitCodes ?? []).entries())
    if (!Number.isInteger(code) || code < 0 || code > 255)
      problems.push(error(CommandCodes.CONFIG_VALUE, `${where}.successExitCodes[${i}] must be an exit code (0-255), got ${code}`));
  if (raw.stdin !== undefined && !ENV_NAME.test(raw.stdin))
    problems.push(
      error(CommandCodes.CONFIG_VALUE, `${where}.stdin must name a parameter, got "${raw.stdin}"`, { hint: 'write the parameter name without braces' }),
    );

  if (problems.length > 0 || isLeft(argv) || isLeft(cwd)) return left(problems);
  const config: CommandToolConfig = {
    argv: raw.argv.map((e) => (typeof e === 'string' ? e : [...e])),
    ...(raw.stdin !== undefined ? { stdin: raw.stdin } : {}),
    cwd: cwdSource,
    env: [...(raw.env ?? [])],
    setEnv: { ...(raw.setEnv ?? {}) },
    timeoutMs,
    killGraceMs,
    maxOutputBytes,
    output: raw.output ?? 'auto',
    successExitCodes: [...(raw.successExitCodes ?? [0])],
    allowLeadingDash: raw.allowLeadingDash ?? false,
    pathParameters: [...(raw.pathParameters ?? [])],
    ...(raw.sandbox !== undefined ? { sandbox: raw.sandbox } : {}),
    network: raw.network ?? false,
  };
  return right({ config, argv: argv.right, cwd: cwd.right });
};
