/**
 * The bubblewrap sandbox of `run_code` and `shell`.
 *
 * What a sandboxed program sees and may do:
 * - a new, empty root; the host's system directories (/usr, and /bin, /lib, ... or the links to
 *   them) mounted read-only; from /etc only what programs need to start (the dynamic linker's
 *   cache, passwd and group, time zone, alternatives, TLS certificates, ...), never /etc/shadow;
 * - the workspace, read-write, at /workspace (its working directory); a private /tmp; its own
 *   /proc and a minimal /dev; everything else read-only;
 * - new user, PID, IPC, UTS, cgroup and network namespaces (`--unshare-all`): no network at all
 *   unless the run allows it (then `--share-net`), no view of the host's processes; it runs as
 *   uid 1000 with every capability dropped;
 * - a seccomp filter (seccomp.ts) that refuses the setuid and setgid bits: bubblewrap maps the
 *   sandbox's user to the host user that started it, so when that is root a setuid file made in
 *   the workspace would be a root shell for any local user;
 * - `--die-with-parent` (nothing survives the tool) and `--new-session` (no terminal injection);
 * - a clean environment: PATH, HOME=/tmp, LANG and the variables the call passes, nothing of the
 *   host's (no leaked secrets);
 * - resource limits set by `prlimit` (CPU seconds, address space, file size, processes, no core
 *   dumps), or `ulimit` when prlimit is missing.
 *
 * `bwrapArguments` is pure (tested as such); `probeHostLayout` and `probeSandbox` look at the host
 * once and cache what they found.
 */
import { type CodedError, failWith, ok, type Result } from '../../core/result.js';
import { BuiltinCodes } from './codes.js';
import { constants as fsConstants } from 'node:fs';
import { access, lstat, readdir, readlink } from 'node:fs/promises';
import * as path from 'node:path';
import { runProcess } from '../process.js';
import { setuidFilter } from './seccomp.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What the host's root looks like, for mounting it into the sandbox. */
export interface HostLayout {
  /** Top-level entries that are symbolic links (`/bin` → `usr/bin` on merged-/usr systems). */
  readonly links: ReadonlyArray<{ readonly path: string; readonly target: string }>;
  /** System directories that exist, mounted read-only. */
  readonly dirs: ReadonlyArray<string>;
  /** Entries of /etc that exist and are shown (read-only). */
  readonly etc: ReadonlyArray<string>;
  /** The prlimit program, when installed. */
  readonly prlimit: string | undefined;
}

export interface ResourceLimits {
  readonly cpuSeconds: number;
  readonly memoryBytes: number;
  readonly fileSizeBytes: number;
  readonly maxProcesses: number;
}

export interface SandboxPlan {
  readonly layout: HostLayout;
  /** Real path of the workspace on the host. */
  readonly workspace: string;
  /** Working directory, relative to the workspace (`''`: its root). */
  readonly cwd: string;
  readonly network: boolean;
  /** Host directories shown read-only at the same path. */
  readonly readOnlyPaths: ReadonlyArray<string>;
  /** Host files shown read-only at another path (the code of `run_code`). */
  readonly files: ReadonlyArray<{ readonly host: string; readonly sandbox: string }>;
  /** The whole environment of the program. */
  readonly env: Readonly<Record<string, string>>;
  /** Resource limits (none: only the caller's timeout and output cap). */
  readonly limits?: ResourceLimits;
  /** The program and its arguments, as seen inside. */
  readonly command: ReadonlyArray<string>;
  /** Where the workspace is mounted inside (default `/workspace`; command tools use its host path). */
  readonly workspaceMount?: string;
  /** The file descriptor bwrap reads the seccomp filter from (see `sandboxSpawn`). */
  readonly seccompFd?: number;
}

/** What to start: bwrap's argv, and the data of its extra file descriptors (the seccomp filter). */
export interface SandboxSpawn {
  readonly argv: ReadonlyArray<string>;
  readonly inputFds: ReadonlyArray<Uint8Array>;
}

/** Where the workspace is inside the sandbox. */
export const SANDBOX_WORKSPACE = '/workspace';
/** Where `run_code` puts the code inside the sandbox. */
export const SANDBOX_CODE_DIR = '/run/gramkit';
/** The user the program runs as inside the sandbox. */
export const SANDBOX_UID = 1000;

const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'localtime',
  'timezone',
  'nsswitch.conf',
  'passwd',
  'group',
  'hosts',
  'host.conf',
  'resolv.conf',
  'gai.conf',
  'protocols',
  'services',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
  'mime.types',
  'locale.alias',
  'os-release',
  'bash.bashrc',
  'inputrc',
];

const BWRAP_CANDIDATES = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const PRLIMIT_CANDIDATES = ['/usr/bin/prlimit', '/bin/prlimit'];

// -------------------------------------------------------------------------------------------------
// pure
// -------------------------------------------------------------------------------------------------

/** The environment every program starts from (inside or outside the sandbox). */
export const baseEnvironment = (home: string): Record<string, string> => ({
  PATH: '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin',
  HOME: home,
  TMPDIR: '/tmp',
  LANG: 'C.UTF-8',
  USER: 'sandbox',
  LOGNAME: 'sandbox',
  TERM: 'dumb',
  PYTHONUNBUFFERED: '1',
  PYTHONDONTWRITEBYTECODE: '1',
});

/** The limits as a command prefix: `prlimit …  --` when installed, else a `/bin/sh` running `ulimit` then `exec`. */
export const limitPrefix = (prlimit: string | undefined, limits: ResourceLimits): ReadonlyArray<string> => {
  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  const mem = Math.max(1, Math.floor(limits.memoryBytes));
  const fsize = Math.max(1, Math.floor(limits.fileSizeBytes));
  const nproc = Math.max(1, Math.floor(limits.maxProcesses));
  if (prlimit !== undefined) return [prlimit, `--cpu=${cpu}`, `--as=${mem}`, `--fsize=${fsize}`, `--nproc=${nproc}`, '--core=0', '--'];
  // numbers only: nothing of the call reaches this script
  const script = `ulimit -t ${cpu} && ulimit -v ${Math.ceil(mem / 1024)} && ulimit -f ${Math.ceil(fsize / 512)} && ulimit -c 0 && exec "$@"`;
  return ['/bin/sh', '-c', script, 'gramkit-limits'];
};

/** The arguments of `bwrap` (without the program name) that run `plan.command` in the sandbox. */
export const bwrapArguments = (plan: SandboxPlan): ReadonlyArray<string> => {
  const a: string[] = ['--die-with-parent', '--new-session', '--unshare-all'];
  if (plan.seccompFd !== undefined) a.push('--seccomp', String(plan.seccompFd));
  if (plan.network) a.push('--share-net');
  a.push('--cap-drop', 'ALL', '--uid', String(SANDBOX_UID), '--gid', String(SANDBOX_UID), '--hostname', 'sandbox', '--clearenv');
  for (const d of plan.layout.dirs) a.push('--ro-bind', d, d);
  for (const l of plan.layout.links) a.push('--symlink', l.target, l.path);
  for (const e of plan.layout.etc) a.push('--ro-bind', `/etc/${e}`, `/etc/${e}`);
  a.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--dir', '/run');
  // after /tmp: a directory under /tmp stays visible
  for (const p of plan.readOnlyPaths) a.push('--ro-bind', p, p);
  const mount = plan.workspaceMount ?? SANDBOX_WORKSPACE;
  a.push('--bind', plan.workspace, mount);
  for (const f of plan.files) a.push('--ro-bind', f.host, f.sandbox);
  // the sandbox's own root (where /etc and /run live) becomes read-only: only /workspace and /tmp are writable
  a.push('--remount-ro', '/');
  a.push('--chdir', plan.cwd === '' ? mount : `${mount}/${plan.cwd}`);
  for (const [k, v] of Object.entries(plan.env)) a.push('--setenv', k, v);
  a.push('--', ...(plan.limits !== undefined ? limitPrefix(plan.layout.prlimit, plan.limits) : []), ...plan.command);
  return a;
};

/**
 * bwrap's full argv for `plan`, with the setuid filter on file descriptor 3. Fails (a reason) on
 * an architecture the filter does not know when the host user is root: there, a setuid file made
 * inside would belong to root.
 */
export const sandboxSpawn = (
  bwrap: string,
  plan: Omit<SandboxPlan, 'seccompFd'>,
): Result<SandboxSpawn, CodedError<typeof BuiltinCodes.SANDBOX_UNAVAILABLE>> => {
  const filter = setuidFilter(process.arch);
  if (filter === undefined) {
    if (process.getuid?.() === 0) {
      return failWith(
        BuiltinCodes.SANDBOX_UNAVAILABLE,
        `the sandbox has no setuid filter for the ${process.arch} architecture, and refuses to run programs as root without it`,
      );
    }
    return ok({ argv: [bwrap, ...bwrapArguments(plan)], inputFds: [] });
  }
  return ok({ argv: [bwrap, ...bwrapArguments({ ...plan, seccompFd: 3 })], inputFds: [filter] });
};

// -------------------------------------------------------------------------------------------------
// probing the host (cached)
// -------------------------------------------------------------------------------------------------

let layoutPromise: Promise<HostLayout> | undefined;

/** What the host's root holds, looked at once. */
export const probeHostLayout = (): Promise<HostLayout> =>
  (layoutPromise ??= (async () => {
    const links: Array<{ path: string; target: string }> = [];
    const dirs: string[] = [];
    for (const d of SYSTEM_DIRS) {
      const st = await lstat(d).catch(() => undefined);
      if (st === undefined) continue;
      if (st.isSymbolicLink()) links.push({ path: d, target: await readlink(d) });
      else if (st.isDirectory()) dirs.push(d);
    }
    const present = new Set(await readdir('/etc').catch(() => [] as string[]));
    const etc = [...ETC_ENTRIES.filter((e) => present.has(e)), ...[...present].filter((e) => /^python3(\.\d+)?$/.test(e)).sort()];
    return { links, dirs, etc, prlimit: await firstExecutable(PRLIMIT_CANDIDATES) };
  })());

/** The bubblewrap program: the configured path, or the first installed candidate. */
export const findBwrap = async (configured: string | undefined): Promise<string | undefined> =>
  configured !== undefined ? ((await isExecutable(configured)) ? configured : undefined) : firstExecutable(BWRAP_CANDIDATES);

/** Whether the sandbox works here: `{ok: true}`, or `BUILTIN_SANDBOX_UNAVAILABLE` saying why not. */
export type SandboxStatus = Result<true, CodedError<typeof BuiltinCodes.SANDBOX_UNAVAILABLE>>;

const probes = new Map<string, Promise<SandboxStatus>>();

/**
 * Whether bubblewrap can create the sandbox on this machine (it may be installed and still be
 * refused namespaces by the kernel or a container): runs `true` inside once per configuration.
 */
export const probeSandbox = (bwrap: string, network: boolean, workspace: string): Promise<SandboxStatus> => {
  const key = `${bwrap}\0${network}`;
  let p = probes.get(key);
  if (p === undefined) {
    p = (async (): Promise<SandboxStatus> => {
      const layout = await probeHostLayout();
      const spawned = sandboxSpawn(bwrap, {
        layout,
        workspace,
        cwd: '',
        network,
        readOnlyPaths: [],
        files: [],
        env: baseEnvironment('/tmp'),
        limits: { cpuSeconds: 10, memoryBytes: 1024 ** 3, fileSizeBytes: 1024 ** 2, maxProcesses: 64 },
        command: ['/bin/sh', '-c', 'exit 0'],
      });
      if (!spawned.ok) return spawned;
      const r = await runProcess(spawned.value.argv, { cwd: '/', env: {}, timeoutMs: 15_000, maxOutputBytes: 16 * 1024, inputFds: spawned.value.inputFds });
      if (r.exitCode === 0) return ok(true as const);
      const why = r.error?.message ?? (r.stderr.trim() || `exit status ${r.exitCode ?? r.signal ?? 'unknown'}`);
      return failWith(BuiltinCodes.SANDBOX_UNAVAILABLE, why.slice(0, 500));
    })();
    probes.set(key, p);
  }
  return p;
};

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

export const isExecutable = async (p: string): Promise<boolean> =>
  access(p, fsConstants.X_OK).then(
    () => true,
    () => false,
  );

export const firstExecutable = async (candidates: ReadonlyArray<string>): Promise<string | undefined> => {
  for (const c of candidates) if (await isExecutable(c)) return c;
  return undefined;
};

/** The installation a program belongs to (`/opt/py/bin/python3` → `/opt/py`), shown read-only in the sandbox. */
export const installPrefix = (programReal: string): string => {
  const dir = path.posix.dirname(programReal);
  return path.posix.basename(dir) === 'bin' ? path.posix.dirname(dir) : dir;
};

/** Whether `p` is under a directory the sandbox shows anyway (/usr, /bin, /lib…). */
export const isSystemPath = (p: string): boolean => SYSTEM_DIRS.some((d) => p === d || p.startsWith(`${d}/`));
