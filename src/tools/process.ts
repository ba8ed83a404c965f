/**
 * Running a program safely: no shell, its own process group, a timeout and a cancel signal that
 * kill the whole group (SIGTERM, then SIGKILL after a grace period), and an output cap that stops
 * reading before memory is at risk.
 *
 * - `argv[0]` is the program (an absolute path, or a name looked up in `env.PATH`), every other
 *   element is exactly one argument: nothing is split, expanded or interpreted by a shell.
 * - Only absolute directories of `PATH` count: an empty entry (`/usr/bin::/bin`, a trailing `:`)
 *   or a relative one would mean the working directory, i.e. programs planted in the workspace.
 *   They are dropped from the lookup and from the child's `PATH`.
 * - The child gets exactly `env` (nothing is inherited from this process) and runs in `cwd`.
 * - It is spawned detached, i.e. as the leader of a new session and process group, so that the
 *   group can be signalled as a whole: children and grandchildren that ignore SIGTERM still die by
 *   SIGKILL when the grace period ends.
 * - When the program exits (normally or not), whatever is left in its process group is killed
 *   with SIGKILL: a finished call leaves no process behind (a process that escaped with its own
 *   `setsid` is out of reach of any group signal; its pipes are closed after `closeGraceMs`).
 * - `maxOutputBytes` caps stdout and stderr together. When the cap is reached the streams are
 *   closed (the writer gets EPIPE/SIGPIPE), the group is killed and the result is `truncated`,
 *   holding the first `maxOutputBytes` bytes. Memory use is bounded by the cap whatever the child
 *   prints.
 * - `runProcess` never rejects: spawn failures (no such program, bad cwd, invalid argument) are a
 *   result with `error`.
 */
import { ImplCodes } from './codes.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import { onAbort } from '../core/abort.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface RunProcessOptions {
  /** Working directory of the child. */
  readonly cwd: string;
  /** The child's whole environment (nothing else is passed). Include `PATH` to look programs up by name. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to the child's stdin, which is then closed. Without it stdin is `/dev/null`. */
  readonly stdin?: string | Uint8Array;
  /** Milliseconds before the process group is killed and the result marked `timedOut`. `Infinity`: no limit. */
  readonly timeoutMs: number;
  /** Cap on stdout and stderr together, in bytes. */
  readonly maxOutputBytes: number;
  /** Aborting it kills the process group; the result is marked `cancelled`. */
  readonly signal?: AbortSignal;
  /** Milliseconds between SIGTERM and SIGKILL when the group is killed. Default 2000. */
  readonly killGraceMs?: number;
  /**
   * Milliseconds to wait, after the program exited and its group was killed, for its output pipes
   * to close (they stay open when a process that escaped the group holds them). Default 1000.
   */
  readonly closeGraceMs?: number;
  /**
   * Data the child reads on file descriptors 3, 4, …: each is a pipe that receives its bytes and is
   * then closed (bubblewrap reads its seccomp filter this way).
   */
  readonly inputFds?: ReadonlyArray<Uint8Array>;
  /**
   * Open file descriptors of this process the child receives, after the `inputFds`: the first on
   * descriptor `3 + inputFds.length`, and so on (what a command tool run on the host gets for its
   * path parameters, see `tools/command/argv-paths.ts`). The caller closes them.
   */
  readonly passFds?: ReadonlyArray<number>;
}

/** Why a process could not be started. `code` is the system's (`ENOENT`, `EACCES`, ...) or `INVALID_ARGV`. */
export interface SpawnError {
  readonly code: string;
  readonly message: string;
}

export interface ProcessResult {
  /** Exit status, or null when a signal ended the program or it never started. */
  readonly exitCode: number | null;
  /** The signal that ended the program, if any. */
  readonly signal: NodeJS.Signals | null;
  /** Standard output, decoded as UTF-8 (at most `maxOutputBytes` bytes of it). */
  readonly stdout: string;
  readonly stderr: string;
  /** The output cap was reached: output is incomplete and the process group was killed. */
  readonly truncated: boolean;
  /** The timeout was reached and the process group was killed. */
  readonly timedOut: boolean;
  /** The signal was aborted and the process group was killed. */
  readonly cancelled: boolean;
  readonly durationMs: number;
  /** Process id of the program (also the id of its process group), when it started. */
  readonly pid?: number;
  /** Set when the program could not be started. */
  readonly error?: SpawnError;
}

// -------------------------------------------------------------------------------------------------
// running
// -------------------------------------------------------------------------------------------------

const DEFAULT_KILL_GRACE_MS = 2000;
const DEFAULT_CLOSE_GRACE_MS = 1000;
/** setTimeout fires at once for delays above 2^31-1 ms: treat longer timeouts as "none". */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const runProcess = (argv: ReadonlyArray<string>, options: RunProcessOptions): Promise<ProcessResult> => {
  const started = performance.now();
  const elapsed = (): number => Math.round((performance.now() - started) * 1000) / 1000;
  const notStarted = (error: SpawnError, cancelled = false): Promise<ProcessResult> =>
    Promise.resolve({
      exitCode: null,
      signal: null,
      stdout: '',
      stderr: '',
      truncated: false,
      timedOut: false,
      cancelled,
      durationMs: elapsed(),
      error,
    });

  const program = argv[0];
  if (program === undefined || program === '')
    return notStarted({ code: ImplCodes.INVALID_ARGV, message: 'argv is empty: the first element must name the program' });
  const nul = argv.findIndex((a) => a.includes('\0'));
  if (nul >= 0) return notStarted({ code: ImplCodes.INVALID_ARGV, message: `argument ${nul} contains a NUL character, which no program can receive` });
  if (options.signal?.aborted) return notStarted({ code: ImplCodes.CANCELLED, message: 'cancelled before the process started' }, true);

  const env = safePathEnv(options.env);
  let file = program;
  if (!program.includes('/')) {
    const found = findProgram(program, env['PATH']);
    if (found === undefined) {
      return notStarted({
        code: 'ENOENT',
        message: `program "${program}" not found (give an absolute path, or a name found on the PATH of the environment passed)`,
      });
    }
    file = found;
  }

  let child: ChildProcess;
  try {
    child = spawn(file, argv.slice(1), {
      argv0: program,
      cwd: options.cwd,
      env,
      detached: true,
      shell: false,
      windowsHide: true,
      stdio: [
        options.stdin === undefined ? 'ignore' : 'pipe',
        'pipe',
        'pipe',
        ...(options.inputFds ?? []).map(() => 'pipe' as const),
        ...(options.passFds ?? []),
      ],
    });
  } catch (e) {
    return notStarted(spawnError(e, program, options.cwd));
  }

  return new Promise<ProcessResult>((resolve) => {
    const maxBytes = Math.max(0, options.maxOutputBytes);
    const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const closeGraceMs = options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let truncated = false;
    let timedOut = false;
    let cancelled = false;
    let killing = false;
    let exited = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let timeoutTimer: NodeJS.Timeout | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    const pid = child.pid;

    const signalGroup = (sig: NodeJS.Signals): void => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, sig);
      } catch {
        // ESRCH: the group is already empty
      }
    };

    /** SIGTERM to the group now, SIGKILL after the grace period. */
    const terminate = (): void => {
      if (killing || settled) return;
      killing = true;
      signalGroup('SIGTERM');
      killTimer = setTimeout(() => signalGroup('SIGKILL'), Math.min(Math.max(0, killGraceMs), MAX_TIMER_MS));
    };

    const abort = (): void => {
      if (settled || exited) return;
      cancelled = true;
      terminate();
    };
    let stopListening = (): void => undefined;

    const settle = (error?: SpawnError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      stopListening();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
      resolve({
        exitCode,
        signal: exitSignal,
        stdout: Buffer.concat(out, outBytes).toString('utf8'),
        stderr: Buffer.concat(err, errBytes).toString('utf8'),
        truncated,
        timedOut,
        cancelled,
        durationMs: elapsed(),
        ...(pid !== undefined ? { pid } : {}),
        ...(error !== undefined ? { error } : {}),
      });
    };

    const collect =
      (chunks: Buffer[], which: 'out' | 'err') =>
      (chunk: Buffer): void => {
        if (truncated) return;
        const room = maxBytes - outBytes - errBytes;
        const kept = chunk.length <= room ? chunk : chunk.subarray(0, Math.max(0, room));
        if (kept.length > 0) {
          chunks.push(kept);
          if (which === 'out') outBytes += kept.length;
          else errBytes += kept.length;
        }
        if (kept.length < chunk.length) {
          truncated = true;
          // stop reading: the writer gets EPIPE, and the group is killed
          child.stdout?.destroy();
          child.stderr?.destroy();
          terminate();
        }
      };
    child.stdout?.on('data', collect(out, 'out'));
    child.stderr?.on('data', collect(err, 'err'));
    // a destroyed or broken pipe is expected here (cap reached, child closed its stdin)
    child.stdout?.on('error', () => undefined);
    child.stderr?.on('error', () => undefined);

    child.on('error', (e) => {
      // emitted when spawning fails (no 'exit' follows), or when a signal cannot be sent (ignored)
      if (pid === undefined) settle(spawnError(e, program, options.cwd));
    });

    child.on('exit', (code, sig) => {
      exited = true;
      exitCode = code;
      exitSignal = sig;
      clearTimeout(timeoutTimer);
      // leave nothing behind: whatever remains of the group dies with the program
      signalGroup('SIGKILL');
      clearTimeout(killTimer);
      closeTimer = setTimeout(() => settle(), Math.min(Math.max(0, closeGraceMs), MAX_TIMER_MS));
    });
    child.on('close', () => settle());

    if (pid === undefined) return; // the 'error' event settles

    (options.inputFds ?? []).forEach((data, i) => {
      const w = child.stdio[3 + i] as (NodeJS.WritableStream & { on: (e: string, f: () => void) => void }) | null | undefined;
      if (w === null || w === undefined) return;
      w.on('error', () => undefined);
      w.end(data);
    });
    if (options.stdin !== undefined && child.stdin) {
      child.stdin.on('error', () => undefined); // EPIPE when the child does not read its input
      child.stdin.end(options.stdin);
    }

    if (Number.isFinite(options.timeoutMs) && options.timeoutMs < MAX_TIMER_MS) {
      timeoutTimer = setTimeout(
        () => {
          if (exited || settled) return;
          timedOut = true;
          terminate();
        },
        Math.max(0, options.timeoutMs),
      );
    }
    stopListening = onAbort(options.signal, abort);
    if (options.signal?.aborted) abort();
  });
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

/** Where programs are looked up when the environment has no `PATH`. */
export const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The absolute directories of a `PATH` value, in order (empty and relative entries dropped). */
export const pathDirectories = (path: string | undefined): ReadonlyArray<string> => (path ?? DEFAULT_PATH).split(':').filter((d) => d.startsWith('/'));

/** `env` with its `PATH` reduced to absolute directories (unchanged when it has none). */
export const safePathEnv = (env: Readonly<Record<string, string>>): Record<string, string> => {
  const out = { ...env };
  if (out['PATH'] !== undefined) out['PATH'] = pathDirectories(out['PATH']).join(':');
  return out;
};

/** The first executable file named `name` in the absolute directories of `path` (default `DEFAULT_PATH`). */
export const findProgram = (name: string, path: string | undefined): string | undefined => {
  for (const dir of pathDirectories(path)) {
    const candidate = `${dir.replace(/\/+$/, '')}/${name}`;
    try {
      accessSync(candidate, fsConstants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
};

const spawnError = (e: unknown, program: string, cwd: string): SpawnError => {
  const code = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : ImplCodes.SPAWN_FAILED;
  if (code === 'ENOENT') {
    // node reports a missing working directory as the program being missing: tell them apart
    if (!isDirectory(cwd)) return { code: 'ENOENT', message: `working directory "${cwd}" does not exist` };
    return { code, message: `program "${program}" not found (give an absolute path, or a name found on the PATH of the environment passed)` };
  }
  if (code === 'EACCES') return { code, message: `program "${program}" is not executable (permission denied)` };
  const message = e instanceof Error ? e.message : String(e);
  return { code, message: `cannot start "${program}": ${message}` };
};

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};
