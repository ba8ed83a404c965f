/**
 * Command tools: a tool specification plus a command configuration make a `Tool` that
 * runs a program with an argv rendered from the arguments (`argv-template.ts`: one placeholder,
 * one argument, never a shell), in a working directory confined to the workspace (real paths),
 * with only the environment variables it lists, under a timeout that kills the whole process
 * group, and an output cap (`process.ts`). The output is read as command-output.ts says
 * (`command-output.ts`).
 *
 * Failures: `INVALID_ARGUMENTS` (a value that cannot be an argument), `INVALID_PATH` and
 * `FILE_NOT_FOUND` (working directory; `INVALID_PATH` also for a `pathParameters` value outside), `COMMAND_NOT_FOUND`, `TIMEOUT`, `CANCELLED`,
 * `POLICY_DENIED` (the safety rules refuse the argv, see `command-rules.ts`), `RESULT_TOO_LARGE`, `COMMAND_FAILED` (an exit code not in `successExitCodes`, with the end of
 * stderr), `OUTPUT_NOT_JSON` (with `output: "json"`).
 */
import { ToolCodes } from '../../library/codes.js';
import { CommandCodes } from './codes.js';
import { isLeft, left, right, type Either, isRight } from '../../core/either.js';
import { error, type Diagnostic } from '../../core/diagnostic.js';
import { ToolFailure } from '../../library/result.js';
import { createTool, type InvocationContext, type Tool } from '../../library/tool.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import { argText, renderArgv } from './argv-template.js';
import { compileCommandConfig, type CommandSandboxMode, type CompiledCommandConfig, type CommandToolConfigInput } from './command-config.js';
import { parseCommandOutput } from './command-output.js';
import { parameterNames } from '../parameters.js';
import { findProgram, runProcess, safePathEnv, type ProcessResult, type RunProcessOptions } from '../process.js';
import { findBwrap, installPrefix, isSystemPath, probeHostLayout, probeSandbox, sandboxSpawn } from '../builtin/sandbox.js';
import { closeOpened, confineDirectory, confinePath, isInside, openConfined, type OpenedPath } from './argv-paths.js';
import { checkCommandRules } from './command-rules.js';
import { withRunSlot } from '../run-slots.js';
import { defaultRuleEngine } from '../../policy/default-rules.js';
import { describeViolations, type RuleEngine } from '../../policy/rules.js';
import { PolicyCodes } from '../../policy/codes.js';
import { realpath } from 'node:fs/promises';
import { resolve as resolvePath } from 'node:path';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CommandToolOptions {
  /** The workspace root: working directories are confined to it. */
  readonly workspace: string;
  /** Where the variables listed in `env` are read from (the CLI passes its environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where programs run, for declarations that do not say (`sandbox` of the configuration). */
  readonly sandbox?: CommandSandboxOptions;
  /**
   * The safety rules every call's argv is judged by, after template expansion, as the `shell`
   * built-in's commands are (default: `defaultRuleEngine`). A call they refuse fails with
   * `POLICY_DENIED`, naming the rule.
   */
  readonly rules?: RuleEngine;
}

export interface CommandSandboxOptions {
  /** `auto` (default), `bwrap` or `none`: see `CommandToolConfig.sandbox`. */
  readonly mode?: CommandSandboxMode;
  /** The bubblewrap program (default: the first of /usr/bin/bwrap, /usr/local/bin/bwrap, /bin/bwrap). */
  readonly bwrapPath?: string;
  /** More host directories shown read-only inside (absolute paths), e.g. a toolchain's. */
  readonly readOnlyPaths?: ReadonlyArray<string>;
}

/** Bytes of stderr (or stdout) kept in a `COMMAND_FAILED` message. */
const TAIL = 2000;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/**
 * A tool that implements `spec` by running a program. Checked when made (all problems at once):
 * the configuration itself, and every placeholder (and `stdin`) must name a parameter of `spec`.
 */
export const commandTool = (spec: ToolSpecification, config: CommandToolConfigInput, options: CommandToolOptions): Either<ReadonlyArray<Diagnostic>, Tool> => {
  const compiled = compileCommandConfig(config, `tool "${spec.name}" command`);
  const params = parameterNames(spec.schema);
  // placeholders are checked even when the configuration has other problems: all are reported at once
  const names = isRight(compiled)
    ? [...compiled.right.argv.names, ...compiled.right.cwd.flatMap((p) => (p.kind === 'placeholder' ? [p.name] : []))]
    : rawPlaceholderNames(config);
  const problems: Diagnostic[] = isLeft(compiled) ? [...compiled.left] : [];
  for (const name of new Set(names))
    if (!params.includes(name))
      problems.push(
        error(CommandCodes.UNKNOWN_PLACEHOLDER, `tool "${spec.name}": placeholder {${name}} names no parameter`, {
          hint: params.length > 0 ? `the parameters are: ${params.join(', ')}` : 'the tool has no parameters',
        }),
      );
  const raw = (typeof config === 'object' && config !== null ? config : {}) as { stdin?: unknown; pathParameters?: unknown };
  for (const name of Array.isArray(raw.pathParameters) ? raw.pathParameters : [])
    if (typeof name === 'string' && !params.includes(name))
      problems.push(error(CommandCodes.UNKNOWN_PLACEHOLDER, `tool "${spec.name}": pathParameters names "${name}", which is not a parameter`));
  if (typeof raw.stdin === 'string' && !params.includes(raw.stdin))
    problems.push(error(CommandCodes.UNKNOWN_PLACEHOLDER, `tool "${spec.name}": stdin names "${raw.stdin}", which is not a parameter`));
  if (typeof options?.workspace !== 'string' || options.workspace === '')
    problems.push(error(CommandCodes.WORKSPACE_REQUIRED, `tool "${spec.name}": a command tool needs the workspace its working directory is confined to`));
  if (problems.length > 0 || isLeft(compiled)) return left(problems);
  const c = compiled.right;

  const { timeoutMs, killGraceMs } = c.config;
  return right(
    createTool(
      spec.name,
      spec.description,
      spec.schema,
      (args: Record<string, unknown>, ctx: InvocationContext) => run(spec.name, c, options, args ?? {}, ctx),
      {
        outputSchema: spec.outputSchema,
        // a backstop for the library, after this tool's own timeout and kill sequence
        limits: { timeoutMs: timeoutMs + killGraceMs + 2000 },
        annotations: { permissions: ['proc:exec'], safetyLevel: 'high' },
      },
    ),
  );
};

// -------------------------------------------------------------------------------------------------
// calls
// -------------------------------------------------------------------------------------------------

const run = async (
  tool: string,
  c: CompiledCommandConfig,
  options: CommandToolOptions,
  args: Record<string, unknown>,
  ctx: InvocationContext,
): Promise<unknown> => {
  const { config } = c;
  const lookup = (name: string): unknown => args[name];
  const argv = renderArgv(c.argv, lookup, config.allowLeadingDash);
  if (isLeft(argv))
    throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${argv.left.name}" ${argv.left.message}`, { details: { argument: argv.left.name } });

  const cwdText = renderCwd(c, lookup);
  const cwd = await confineDirectory(options.workspace, cwdText === '' ? '.' : cwdText);
  if (!cwd.ok) throw new ToolFailure(cwd.error.reason, `working directory: ${cwd.error.message}`);

  for (const name of config.pathParameters) {
    const values = Array.isArray(args[name]) ? (args[name] as unknown[]) : [args[name]];
    for (const v of values) {
      const text = argText(v);
      if (text === undefined) continue;
      const inside = await confinePath(options.workspace, cwd.value, text);
      if (!inside.ok) throw new ToolFailure(inside.error.reason, `argument "${name}": ${inside.error.message}`, { details: { argument: name } });
    }
  }

  // judged as the program will get it, after the paths are known to stay inside
  const violations = checkCommandRules(options.rules ?? defaultRuleEngine, tool, args, argv.right, config.pathParameters);
  if (violations.length > 0)
    throw new ToolFailure(PolicyCodes.DENIED, describeViolations(tool, violations), { details: { rules: violations.map((v) => v.rule) } });

  const env: Record<string, string> = {};
  for (const name of config.env) {
    const v = options.env?.[name];
    if (v !== undefined) env[name] = v;
  }
  Object.assign(env, config.setEnv);

  let stdin: string | undefined;
  if (config.stdin !== undefined) {
    const v = args[config.stdin];
    stdin = v === undefined || v === null ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
  }

  const launch: Launch['run'] = {
    ...(stdin !== undefined ? { stdin } : {}),
    timeoutMs: config.timeoutMs,
    maxOutputBytes: config.maxOutputBytes,
    signal: ctx.signal,
    killGraceMs: config.killGraceMs,
  };
  const r = await start({ c, options, args, argv: argv.right, cwd: cwd.value, env, run: launch });
  const program = c.argv.program;
  if (r.error !== undefined) {
    if (r.error.code === 'ENOENT') throw new ToolFailure(CommandCodes.NOT_FOUND, r.error.message);
    if (r.error.code === ToolCodes.CANCELLED) throw new ToolFailure(ToolCodes.CANCELLED, 'the call was cancelled before the program started');
    throw new ToolFailure(ToolCodes.EXECUTION_ERROR, r.error.message, { details: { cause: r.error.code } });
  }
  if (r.cancelled) throw new ToolFailure(ToolCodes.CANCELLED, `"${program}" was cancelled; its process group was killed`);
  if (r.timedOut)
    throw new ToolFailure(CommandCodes.TIMEOUT, `"${program}" did not finish within ${config.timeoutMs} ms; its process group was killed`, {
      retryable: true,
      details: { timeoutMs: config.timeoutMs, stderr: tail(r.stderr) },
    });
  if (r.truncated)
    throw new ToolFailure(CommandCodes.OUTPUT_TOO_LARGE, `"${program}" printed more than ${config.maxOutputBytes} bytes; it was stopped`, {
      details: { maxOutputBytes: config.maxOutputBytes },
    });
  if (r.exitCode === null || !config.successExitCodes.includes(r.exitCode)) {
    const how = r.exitCode === null ? `was killed by ${r.signal ?? 'a signal'}` : `exited with code ${r.exitCode}`;
    const said = tail(r.stderr).trim() || tail(r.stdout).trim();
    throw new ToolFailure(CommandCodes.FAILED, `"${program}" ${how}${said !== '' ? `: ${said}` : ''}`, {
      details: { exitCode: r.exitCode, signal: r.signal, stderr: tail(r.stderr), stdout: tail(r.stdout) },
    });
  }

  switch (config.output) {
    case 'raw':
      return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
    case 'text':
      return { output: r.stdout };
    case 'json': {
      const parsed = parseCommandOutput(r.stdout);
      if (!parsed.json)
        throw new ToolFailure(CommandCodes.OUTPUT_NOT_JSON, `"${program}" printed no JSON (neither its whole output nor a last JSON line)`, {
          details: { stdout: tail(r.stdout) },
        });
      return parsed.value;
    }
    case 'auto':
      return parseCommandOutput(r.stdout).value;
  }
};

/** What starting a call's program needs: its configuration, arguments, rendered argv and process options. */
interface Launch {
  readonly c: CompiledCommandConfig;
  readonly options: CommandToolOptions;
  readonly args: Readonly<Record<string, unknown>>;
  readonly argv: ReadonlyArray<string>;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly run: Omit<RunProcessOptions, 'cwd' | 'env'>;
}

/**
 * Starts the program: in the bubblewrap sandbox when the mode allows and it works here (the
 * workspace bound read-write at its own path, so working directory and path arguments mean the
 * same inside; nothing else of the host writable; no network unless the declaration asks), else on
 * the host.
 */
const start = async (l: Launch): Promise<ProcessResult> => {
  const { c, options, argv, cwd, env, run } = l;
  const { config } = c;
  const mode = config.sandbox ?? options.sandbox?.mode ?? 'auto';
  if (mode === 'none') return runOnHost(l);
  const root = await realpath(options.workspace);
  const bwrap = await findBwrap(options.sandbox?.bwrapPath);
  const status = bwrap === undefined ? undefined : await probeSandbox(bwrap, config.network, root);
  if (status === undefined || !status.ok || bwrap === undefined) {
    if (mode === 'auto') return runOnHost(l);
    const why = status === undefined ? 'bubblewrap is not installed' : status.ok ? 'not found' : status.error.message;
    throw new ToolFailure(CommandCodes.SANDBOX_UNAVAILABLE, `"${c.argv.program}" cannot run: the sandbox (bubblewrap) does not work on this machine: ${why}`);
  }
  const name = argv[0] as string;
  const program = name.includes('/') ? resolvePath(cwd, name) : findProgram(name, env['PATH']);
  if (program === undefined)
    throw new ToolFailure(CommandCodes.NOT_FOUND, `program "${name}" not found (give an absolute path, or a name found on the PATH of the environment passed)`);
  const programReal = await realpath(program).catch(() => program);
  const extra = isSystemPath(programReal) || isInside(root, programReal) ? [] : [installPrefix(programReal)];
  const spawned = sandboxSpawn(bwrap, {
    layout: await probeHostLayout(),
    workspace: root,
    workspaceMount: root,
    cwd: cwd === root ? '' : cwd.slice(root.length + 1),
    network: config.network,
    readOnlyPaths: [...new Set([...(options.sandbox?.readOnlyPaths ?? []), ...extra])],
    files: [],
    env: safePathEnv(env),
    command: [program, ...argv.slice(1)],
  });
  if (!spawned.ok) throw new ToolFailure(CommandCodes.SANDBOX_UNAVAILABLE, `"${c.argv.program}" cannot run: ${spawned.error.message}`);
  // sandboxed runs share the process's cap with run_code and shell (run-slots.ts)
  return withRunSlot(run.signal, () => runProcess(spawned.value.argv, { ...run, cwd: '/', env: {}, inputFds: spawned.value.inputFds }));
};

/**
 * Runs the program on the host. Its path parameters are opened once, checked by what was opened,
 * and handed over as descriptors (`/proc/self/fd/N` in the argv, see `openConfined`): outside the
 * sandbox nothing else stops a link swapped in between the check and the program's own open.
 */
const runOnHost = async (l: Launch): Promise<ProcessResult> => {
  const { c, options, args, argv, cwd, env, run } = l;
  const { config } = c;
  if (config.pathParameters.length === 0) return runProcess(argv, { ...run, cwd, env });
  const opened: OpenedPath[] = [];
  try {
    const values = new Map<string, unknown>();
    for (const name of config.pathParameters) {
      const v = args[name];
      const out: unknown[] = [];
      for (const x of Array.isArray(v) ? v : [v]) {
        const text = argText(x);
        if (text === undefined) {
          out.push(x);
          continue;
        }
        const o = await openConfined(options.workspace, cwd, text);
        if (!o.ok) throw new ToolFailure(o.error.reason, `argument "${name}": ${o.error.message}`, { details: { argument: name } });
        out.push(`/proc/self/fd/${3 + opened.length}`);
        opened.push(o.value);
      }
      values.set(name, Array.isArray(v) ? out : out[0]);
    }
    const rendered = renderArgv(c.argv, (n) => (values.has(n) ? values.get(n) : args[n]), config.allowLeadingDash);
    if (isLeft(rendered))
      throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${rendered.left.name}" ${rendered.left.message}`, {
        details: { argument: rendered.left.name },
      });
    return await runProcess(rendered.right, { ...run, cwd, env, passFds: opened.map((o) => o.fd) });
  } finally {
    await closeOpened(opened);
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** The working directory's text: `{dir}` alone with `dir` left out is the workspace itself ("."). */
const renderCwd = (c: CompiledCommandConfig, lookup: (name: string) => unknown): string => {
  const [only] = c.cwd;
  if (c.cwd.length === 1 && only?.kind === 'placeholder' && argText(lookup(only.name)) === undefined) return '.';
  let text = '';
  for (const p of c.cwd) {
    if (p.kind === 'text') {
      text += p.text;
      continue;
    }
    const v = argText(lookup(p.name));
    if (v === undefined || v === '')
      throw new ToolFailure(ToolCodes.INVALID_ARGUMENTS, `argument "${p.name}" is needed: it names the working directory`, { details: { argument: p.name } });
    text += v;
  }
  return text;
};

/** `{name}` placeholders in the strings of a configuration that did not compile (best effort). */
const rawPlaceholderNames = (config: unknown): string[] => {
  if (typeof config !== 'object' || config === null) return [];
  const c = config as Record<string, unknown>;
  const argv = Array.isArray(c['argv']) ? (c['argv'] as unknown[]).slice(1).flat() : [];
  return [...argv, c['cwd']].flatMap((t) =>
    typeof t === 'string' ? [...t.replace(/\{\{|\}\}/g, '').matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!) : [],
  );
};

const tail = (s: string): string => (s.length > TAIL ? `…${s.slice(-TAIL)}` : s);
