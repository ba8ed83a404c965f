/**
 * Running a program for `run_code` and `shell`: in the bubblewrap sandbox (the default), or on the
 * host when the run opted into `sandbox: {mode: 'none'}`; with resource limits, a timeout that
 * kills the whole process group (and, sandboxed, the whole PID namespace), an output cap, and a
 * clean environment. Failing to run is an error (`SANDBOX_UNAVAILABLE`, `EXECUTION_ERROR`,
 * `TIMEOUT`); a program that runs and exits non-zero is a result with its exit code.
 */
import { withRunSlot } from '../run-slots.js';
import { ToolCodes } from '../../library/codes.js';
import { BuiltinCodes } from './codes.js';
import { mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { constants as osConstants, tmpdir } from 'node:os';
import * as path from 'node:path';
import { runProcess, type ProcessResult } from '../process.js';
import { ToolFailure } from '../../library/result.js';
import type { InvocationContext } from '../../library/tool.js';
import type { ResolvedBuiltinOptions } from './options.js';
import {
  SANDBOX_CODE_DIR,
  baseEnvironment,
  findBwrap,
  installPrefix,
  isSystemPath,
  limitPrefix,
  probeHostLayout,
  probeSandbox,
  sandboxSpawn,
} from './sandbox.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface ProgramRun {
  /** The interpreter or shell (host path, resolved). */
  readonly program: string;
  /** Arguments after the program; `CODE_FILE` is replaced by the path of `code` where it runs. */
  readonly args: ReadonlyArray<string>;
  /** Written to a file shown read-only to the program, when given. */
  readonly code?: { readonly text: string; readonly extension: string };
  /** Variables added to the clean environment. */
  readonly env: Readonly<Record<string, string>>;
  /** Working directory: a real path inside the workspace root. */
  readonly cwdReal: string;
  readonly workspaceReal: string;
  readonly timeoutSeconds: number;
  /** Names the program in messages (`the code`, `the command`). */
  readonly what: string;
}

export interface ProgramResult {
  readonly stdout: string;
  readonly stderr: string;
  /** The exit status; 128 + the signal number when a signal ended the program (as shells report it). */
  readonly exitCode: number;
  /** Milliseconds, wall clock. */
  readonly duration: number;
  /** The output cap was reached: output is cut and the program was stopped. */
  readonly truncated: boolean;
  /** The signal that ended the program (`SIGKILL`, `SIGXCPU` for the CPU limit, `SIGXFSZ` for the file size limit). */
  readonly signal?: string;
  /** Whether it ran in the sandbox. */
  readonly sandboxed: boolean;
}

/** Placeholder in `ProgramRun.args` for the path of the code file. */
export const CODE_FILE = '\u0000code-file\u0000';

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

export const runProgram = async (options: ResolvedBuiltinOptions, run: ProgramRun, ctx: InvocationContext): Promise<ProgramResult> => {
  const sandboxed = options.sandbox.mode === 'bwrap';
  const limits = {
    cpuSeconds: options.limits.cpuSeconds ?? run.timeoutSeconds,
    memoryBytes: options.limits.memoryBytes,
    fileSizeBytes: options.limits.fileSizeBytes,
    maxProcesses: options.limits.maxProcesses,
  };
  let bwrap: string | undefined;
  const badPath = options.sandbox.readOnlyPaths.find((p) => !path.isAbsolute(p));
  if (badPath !== undefined) {
    throw new ToolFailure(BuiltinCodes.NOT_CONFIGURED, `the sandbox's readOnlyPaths must be absolute paths, got ${JSON.stringify(badPath)}`);
  }
  if (sandboxed) {
    bwrap = await findBwrap(options.sandbox.bwrapPath);
    if (bwrap === undefined) {
      throw new ToolFailure(
        BuiltinCodes.SANDBOX_UNAVAILABLE,
        `${run.what} cannot run: the sandbox (bubblewrap) is not installed on this machine. Ask the operator to install it (apt-get install bubblewrap) or to allow unsandboxed execution`,
      );
    }
    const status = await probeSandbox(bwrap, options.sandbox.network, run.workspaceReal);
    if (!status.ok) {
      throw new ToolFailure(
        BuiltinCodes.SANDBOX_UNAVAILABLE,
        `${run.what} cannot run: the sandbox (bubblewrap) does not work on this machine: ${status.error.message}`,
      );
    }
  }

  let codeDir: string | undefined;
  try {
    let codeHost: string | undefined;
    // unsandboxed, the directory is also the program's HOME (dotfiles stay out of the workspace)
    if (run.code !== undefined || !sandboxed) codeDir = await mkdtemp(path.join(tmpdir(), 'gramkit-run-'));
    if (run.code !== undefined && codeDir !== undefined) {
      codeHost = path.join(codeDir, `main${run.code.extension}`);
      await writeFile(codeHost, run.code.text, { mode: 0o644 });
    }
    const codeInside = sandboxed ? `${SANDBOX_CODE_DIR}/main${run.code?.extension ?? ''}` : codeHost;
    const args = run.args.map((a) => (a === CODE_FILE ? (codeInside as string) : a));
    const layout = await probeHostLayout();
    let argv: ReadonlyArray<string>;
    let inputFds: ReadonlyArray<Uint8Array> = [];
    let cwd: string;
    if (sandboxed) {
      const programReal = await realpath(run.program).catch(() => run.program);
      const extra = isSystemPath(programReal) ? [] : [installPrefix(programReal)];
      for (const p of options.sandbox.readOnlyPaths) {
        if (
          !(await stat(p).then(
            (st) => st.isDirectory() || st.isFile(),
            () => false,
          ))
        ) {
          throw new ToolFailure(BuiltinCodes.NOT_CONFIGURED, `the sandbox's read-only path ${JSON.stringify(p)} does not exist on this machine`);
        }
      }
      const rel = run.cwdReal === run.workspaceReal ? '' : run.cwdReal.slice(run.workspaceReal.length + 1);
      const spawned = sandboxSpawn(bwrap as string, {
        layout,
        workspace: run.workspaceReal,
        cwd: rel,
        network: options.sandbox.network,
        readOnlyPaths: [...new Set([...options.sandbox.readOnlyPaths, ...extra])],
        files: codeHost !== undefined ? [{ host: codeHost, sandbox: codeInside as string }] : [],
        env: { ...baseEnvironment('/tmp'), ...run.env },
        limits,
        command: [programReal, ...args],
      });
      if (!spawned.ok) throw new ToolFailure(BuiltinCodes.SANDBOX_UNAVAILABLE, `${run.what} cannot run: ${spawned.error.message}`);
      argv = spawned.value.argv;
      inputFds = spawned.value.inputFds;
      cwd = '/';
    } else {
      argv = [...limitPrefix(layout.prlimit, limits), run.program, ...args];
      cwd = run.cwdReal;
    }
    const env = sandboxed ? {} : { ...baseEnvironment(codeDir ?? run.workspaceReal), ...run.env };
    // at most `maxConcurrentRuns` programs at once in the process; the others wait their turn
    const r = await withRunSlot(ctx.signal, () =>
      runProcess(argv, {
        cwd,
        env,
        timeoutMs: run.timeoutSeconds * 1000,
        maxOutputBytes: options.limits.outputMaxBytes,
        signal: ctx.signal,
        killGraceMs: 1000,
        inputFds,
      }),
    );
    return toResult(r, run, sandboxed);
  } finally {
    if (codeDir !== undefined) await rm(codeDir, { recursive: true, force: true }).catch(() => undefined);
  }
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const toResult = (r: ProcessResult, run: ProgramRun, sandboxed: boolean): ProgramResult => {
  const duration = Math.round(r.durationMs);
  if (r.error !== undefined) {
    throw new ToolFailure(ToolCodes.EXECUTION_ERROR, `${run.what} could not be started: ${r.error.message}`);
  }
  if (r.cancelled) throw new ToolFailure(ToolCodes.CANCELLED, `${run.what} was cancelled`, { details: { stdout: r.stdout, stderr: r.stderr, duration } });
  if (r.timedOut) {
    throw new ToolFailure(BuiltinCodes.TIMEOUT, `${run.what} ran longer than ${run.timeoutSeconds} s and was stopped (with every process it started)`, {
      details: { stdout: r.stdout, stderr: r.stderr, duration },
    });
  }
  const signo = r.signal !== null ? (osConstants.signals as Record<string, number>)[r.signal] : undefined;
  const exitCode = r.exitCode ?? (signo !== undefined ? 128 + signo : -1);
  let signal: string | undefined = r.signal ?? undefined;
  // inside the sandbox bwrap reports the program's death by signal as its exit status 128 + n
  if (sandboxed && r.signal === null && r.exitCode !== null && r.exitCode > 128 && r.exitCode < 128 + 65) {
    const name = Object.entries(osConstants.signals).find(([, n]) => n === (r.exitCode as number) - 128)?.[0];
    if (name !== undefined) signal = name;
  }
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    exitCode,
    duration,
    truncated: r.truncated,
    ...(signal !== undefined ? { signal } : {}),
    sandboxed,
  };
};
