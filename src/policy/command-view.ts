/**
 * What a parsed command line actually runs: each simple command with its wrappers removed
 * (`sudo`, `env A=1`, `nohup`, `nice -n 5`, `timeout 10`, `xargs`, `command`, `exec`, `busybox`, ...),
 * its program named by base name (`/bin/rm` → `rm`), and the scripts given to `sh -c`, `bash -c`,
 * `eval` parsed as commands of their own. Rules read these views.
 */
import { getopt, hasOption, optionSpec, optionValue, type OptionSpec } from './getopt.js';
import { parseShell, type Redirect, type SimpleCommand } from './shell-words.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface CommandView {
  /** The program's base name (`rm`), or `''` for a command of assignments or redirections only. */
  readonly name: string;
  /** The arguments after the program name. */
  readonly args: ReadonlyArray<string>;
  readonly redirects: ReadonlyArray<Redirect>;
  /** Identifies the pipeline (commands joined by `|`) and the place in it. */
  readonly pipeline: string;
  readonly pipePosition: number;
  /** The view whose word holds this command as a substitution (`$(…)`, `<(…)`), if any. */
  readonly parent?: CommandView;
  /** The view whose `-c` script or `eval` text this command comes from, if any. */
  readonly via?: CommandView;
  /**
   * The directory it runs in when the text sets one (`cd /; …`, `env -C /`, `sudo -D /`), as
   * written; relative paths of its arguments are relative to it.
   */
  readonly cwd?: string;
  /** The function whose body holds it (`f() { … }`): it runs only when `f` is called. */
  readonly inFunction?: string;
  /** Whether it runs in the background (`… &`). */
  readonly background: boolean;
}

const MAX_NESTING = 8;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** The views of every command of `text`, nested scripts included. */
export const commandViews = (text: string): ReadonlyArray<CommandView> => {
  const out: CommandView[] = [];
  collect(text, out, 'p', undefined, 0);
  return out;
};

const collect = (text: string, out: CommandView[], prefix: string, via: CommandView | undefined, depth: number): void => {
  const parsed = parseShell(text);
  const views: CommandView[] = [];
  // the directory set by `cd DIR` earlier in the text (conservatively: any earlier `cd`, subshells included)
  let cwd = via?.cwd;
  parsed.commands.forEach((c: SimpleCommand, k: number) => {
    const parent = c.parent === undefined ? via : views[c.parent];
    const u = unwrap(c.words);
    const here = u.cwd !== undefined ? joinCwd(cwd, u.cwd) : cwd;
    const view = makeView(
      u.name,
      u.args,
      c.redirects,
      `${prefix}.${c.pipeline}`,
      c.pipePosition,
      parent,
      via,
      here,
      c.inFunction ?? via?.inFunction,
      c.background === true,
    );
    views[k] = view;
    out.push(view);
    if (u.name === 'cd' && u.args.length > 0) {
      const dir = u.args.find((a) => !a.startsWith('-') || a === '-');
      if (dir !== undefined && dir !== '-') cwd = joinCwd(cwd, dir);
    }
    if (depth >= MAX_NESTING) return;
    if (u.script !== undefined) collect(u.script, out, `${prefix}.${c.pipeline}.${k}`, view, depth + 1);
    // programs that run other programs given as words: `find -exec rm -rf {} ;`, `xargs`
    for (const [n, words] of u.commands.entries()) {
      const inner = unwrap(words);
      const nested = makeView(
        inner.name,
        inner.args,
        [],
        `${prefix}.${c.pipeline}.${k}.x${n}`,
        0,
        undefined,
        view,
        inner.cwd !== undefined ? joinCwd(here, inner.cwd) : here,
        view.inFunction,
        view.background,
      );
      out.push(nested);
      if (inner.script !== undefined) collect(inner.script, out, `${prefix}.${c.pipeline}.${k}.x${n}`, nested, depth + 1);
    }
  });
};

const makeView = (
  name: string,
  args: ReadonlyArray<string>,
  redirects: SimpleCommand['redirects'],
  pipeline: string,
  pipePosition: number,
  parent: CommandView | undefined,
  via: CommandView | undefined,
  cwd: string | undefined,
  inFunction: string | undefined,
  background: boolean,
): CommandView => ({
  name,
  args,
  redirects,
  pipeline,
  pipePosition,
  background,
  ...(parent !== undefined ? { parent } : {}),
  ...(via !== undefined ? { via } : {}),
  ...(cwd !== undefined ? { cwd } : {}),
  ...(inFunction !== undefined ? { inFunction } : {}),
});

/** `dir` taken from `cwd` (absolute and `~` paths replace it). */
const joinCwd = (cwd: string | undefined, dir: string): string =>
  dir.startsWith('/') || dir.startsWith('~') || dir.startsWith('$HOME') || dir.startsWith('${HOME}') || cwd === undefined ? dir : `${cwd}/${dir}`;

/** A path as the program will open it: relative ones under the view's directory, when the text set one. */
export const resolveIn = (v: CommandView, path: string): string =>
  v.cwd === undefined || path.startsWith('/') || path.startsWith('~') || path.startsWith('$') || path === '' ? path : `${v.cwd}/${path}`;

// -------------------------------------------------------------------------------------------------
// unwrapping
// -------------------------------------------------------------------------------------------------

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash']);

const R = 'required' as const;
const O = 'optional' as const;
const N = 'none' as const;

/**
 * Programs that run another program: how they read their options (GNU getopt semantics, see
 * `getopt.ts`), how many words after the options are theirs (`timeout 10`, `chroot DIR`), and
 * where the program is: the words that follow, a script option (`su -c`, `script -c`, `flock -c`)
 * or, for `watch` and `sg`, the words joined into a script.
 */
interface Wrapper {
  readonly spec: OptionSpec;
  /** Words after the options that belong to the wrapper (a duration, a new root, a lock file, a group). */
  readonly positional?: number;
  /** The option whose value is a shell script. */
  readonly script?: string;
  /** The option whose value is the directory the program runs in. */
  readonly chdir?: string;
  /** The words after the options are a script (joined with spaces), not a program. */
  readonly joined?: boolean;
  /** Without the script option, it runs nothing given on its command line (`su user`, `script file`). */
  readonly onlyScript?: boolean;
  /** The script option comes after the positional words (`flock FILE -c SCRIPT`). */
  readonly afterPositional?: boolean;
}

const wrapper = (w: Omit<Wrapper, 'spec'> & { short: Parameters<typeof optionSpec>[0]; long: Parameters<typeof optionSpec>[1]; stop?: boolean }): Wrapper => ({
  ...w,
  spec: optionSpec(w.short, w.long, w.stop ?? true),
});

const SU = wrapper({
  short: {
    c: 'command',
    f: 'fast',
    g: 'group',
    G: 'supp-group',
    l: 'login',
    m: 'preserve-environment',
    p: 'preserve-environment',
    P: 'pty',
    s: 'shell',
    w: 'whitelist-environment',
    u: ['user', R],
  },
  long: {
    command: R,
    'session-command': R,
    fast: N,
    group: R,
    'supp-group': R,
    login: N,
    'preserve-environment': N,
    pty: N,
    shell: R,
    'whitelist-environment': R,
    user: R,
  },
  stop: false,
  script: 'command',
  onlyScript: true,
});

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: wrapper({
    short: {
      A: 'askpass',
      b: 'background',
      B: 'bell',
      E: 'preserve-env',
      e: 'edit',
      H: 'set-home',
      i: 'login',
      K: 'remove-timestamp',
      k: 'reset-timestamp',
      l: 'list',
      n: 'non-interactive',
      N: 'no-update',
      P: 'preserve-groups',
      S: 'stdin',
      s: 'shell',
      V: 'version',
      v: 'validate',
      u: ['user', R],
      g: ['group', R],
      C: ['close-from', R],
      D: ['chdir', R],
      R: ['chroot', R],
      h: ['host', O],
      p: ['prompt', R],
      r: ['role', R],
      t: ['type', R],
      T: ['command-timeout', R],
      U: ['other-user', R],
      a: ['auth-type', R],
      c: ['login-class', R],
    },
    long: {
      askpass: N,
      background: N,
      bell: N,
      'preserve-env': O,
      edit: N,
      'set-home': N,
      login: N,
      'remove-timestamp': N,
      'reset-timestamp': N,
      list: N,
      'non-interactive': N,
      'no-update': N,
      'preserve-groups': N,
      stdin: N,
      shell: N,
      version: N,
      validate: N,
      user: R,
      group: R,
      'close-from': R,
      chdir: R,
      chroot: R,
      host: R,
      prompt: R,
      role: R,
      type: R,
      'command-timeout': R,
      'other-user': R,
      'auth-type': R,
      'login-class': R,
      help: N,
    },
    chdir: 'chdir',
  }),
  doas: wrapper({ short: { a: ['a', R], C: ['C', R], L: 'L', n: 'n', s: 's', u: ['u', R] }, long: {} }),
  env: wrapper({
    short: { C: ['chdir', R], i: 'ignore-environment', S: ['split-string', R], u: ['unset', R], v: 'debug', '0': 'null' },
    long: {
      chdir: R,
      'ignore-environment': N,
      'split-string': R,
      unset: R,
      debug: N,
      null: N,
      'ignore-signal': O,
      'default-signal': O,
      'block-signal': O,
      'list-signal-handling': N,
      help: N,
      version: N,
    },
    chdir: 'chdir',
  }),
  nice: wrapper({ short: { n: ['adjustment', R] }, long: { adjustment: R, help: N, version: N } }),
  ionice: wrapper({
    short: { c: ['class', R], n: ['classdata', R], p: ['pid', R], P: ['pgid', R], t: 'ignore', u: ['uid', R] },
    long: { class: R, classdata: R, pid: R, pgid: R, ignore: N, uid: R },
  }),
  stdbuf: wrapper({ short: { i: ['input', R], o: ['output', R], e: ['error', R] }, long: { input: R, output: R, error: R } }),
  timeout: wrapper({
    short: { k: ['kill-after', R], s: ['signal', R], v: 'verbose', f: 'foreground', p: 'preserve-status' },
    long: { 'kill-after': R, signal: R, verbose: N, foreground: N, 'preserve-status': N },
    positional: 1,
  }),
  xargs: wrapper({
    short: {
      '0': 'null',
      a: ['arg-file', R],
      d: ['delimiter', R],
      E: ['eof-str', R],
      e: ['eof', O],
      I: ['replace-str', R],
      i: ['replace', O],
      L: ['max-lines-l', R],
      l: ['max-lines', O],
      n: ['max-args', R],
      o: 'open-tty',
      P: ['max-procs', R],
      p: 'interactive',
      r: 'no-run-if-empty',
      s: ['max-chars', R],
      t: 'verbose',
      x: 'exit',
    },
    long: {
      null: N,
      'arg-file': R,
      delimiter: R,
      eof: O,
      replace: O,
      'max-lines': O,
      'max-args': R,
      'open-tty': N,
      interactive: N,
      'no-run-if-empty': N,
      'max-chars': R,
      'show-limits': N,
      verbose: N,
      exit: N,
      'max-procs': R,
      'process-slot-var': R,
    },
  }),
  exec: wrapper({ short: { a: ['a', R], c: 'c', l: 'l' }, long: {} }),
  chroot: wrapper({ short: {}, long: { userspec: R, groups: R, 'skip-chdir': N }, positional: 1 }),
  setsid: wrapper({ short: { c: 'ctty', f: 'fork', w: 'wait' }, long: { ctty: N, fork: N, wait: N } }),
  nohup: wrapper({ short: {}, long: {} }),
  time: wrapper({
    short: { f: ['format', R], o: ['output', R], a: 'append', p: 'portability', q: 'quiet', v: 'verbose' },
    long: { format: R, output: R, append: N, portability: N, quiet: N, verbose: N },
  }),
  command: wrapper({ short: { p: 'p', v: 'v', V: 'V' }, long: {} }),
  builtin: wrapper({ short: {}, long: {} }),
  unbuffer: wrapper({ short: { p: 'p' }, long: {} }),
  chrt: wrapper({
    short: {
      a: 'all-tasks',
      b: 'batch',
      d: 'deadline',
      e: 'ext',
      f: 'fifo',
      i: 'idle',
      o: 'other',
      r: 'rr',
      R: 'reset-on-fork',
      m: 'max',
      p: 'pid',
      v: 'verbose',
      T: ['sched-runtime', R],
      P: ['sched-period', R],
      D: ['sched-deadline', R],
    },
    long: {
      'all-tasks': N,
      batch: N,
      deadline: N,
      ext: N,
      fifo: N,
      idle: N,
      other: N,
      rr: N,
      'reset-on-fork': N,
      max: N,
      pid: N,
      verbose: N,
      'sched-runtime': R,
      'sched-period': R,
      'sched-deadline': R,
    },
    positional: 1,
  }),
  taskset: wrapper({ short: { a: 'all-tasks', p: 'pid', c: 'cpu-list' }, long: { 'all-tasks': N, pid: N, 'cpu-list': N }, positional: 1 }),
  // `flock [options] FILE COMMAND…` or `flock [options] FILE -c SCRIPT`: options end at the lock file
  // (getopt's `+`), then `-c`/`--command` right after it takes a script
  flock: wrapper({
    short: {
      s: 'shared',
      e: 'exclusive',
      x: 'exclusive',
      u: 'unlock',
      n: 'nonblock',
      w: ['timeout', R],
      E: ['conflict-exit-code', R],
      o: 'close',
      c: ['command', R],
      F: 'no-fork',
      v: 'verbose',
    },
    long: {
      shared: N,
      exclusive: N,
      unlock: N,
      nonblock: N,
      nb: N,
      timeout: R,
      wait: R,
      'conflict-exit-code': R,
      close: N,
      command: R,
      'no-fork': N,
      verbose: N,
    },
    positional: 1,
    script: 'command',
    afterPositional: true,
  }),
  'systemd-run': wrapper({
    short: {
      u: ['unit', R],
      p: ['property', R],
      E: ['setenv', R],
      H: ['host', R],
      M: ['machine', R],
      r: 'remain-after-exit',
      t: 'pty',
      P: 'pipe',
      q: 'quiet',
      G: 'collect',
      d: 'same-dir',
      S: 'shell',
      C: ['capsule', R],
    },
    long: {
      unit: R,
      property: R,
      description: R,
      slice: R,
      'slice-inherit': N,
      'remain-after-exit': N,
      'send-sighup': N,
      'service-type': R,
      uid: R,
      gid: R,
      nice: R,
      'working-directory': R,
      'same-dir': N,
      setenv: R,
      pty: N,
      pipe: N,
      quiet: N,
      verbose: N,
      'on-active': R,
      'on-boot': R,
      'on-startup': R,
      'on-unit-active': R,
      'on-unit-inactive': R,
      'on-calendar': R,
      'on-timezone-change': N,
      'on-clock-change': N,
      'timer-property': R,
      'path-property': R,
      'socket-property': R,
      'no-block': N,
      'no-ask-password': N,
      wait: N,
      collect: N,
      user: N,
      system: N,
      scope: N,
      host: R,
      machine: R,
      shell: N,
      capsule: R,
      'expand-environment': R,
      'ignore-failure': N,
      background: R,
      json: R,
      'job-mode': R,
    },
    chdir: 'working-directory',
  }),
  cpulimit: wrapper({
    short: {
      l: ['limit', R],
      p: ['pid', R],
      e: ['exe', R],
      P: ['path', R],
      c: ['cpu', R],
      s: ['signal', R],
      z: 'lazy',
      i: 'include-children',
      b: 'background',
      q: 'quiet',
      k: 'kill',
      r: 'restore',
      m: 'monitor-forks',
      f: 'foreground',
      v: 'verbose',
      h: 'help',
    },
    long: {
      limit: R,
      pid: R,
      exe: R,
      path: R,
      cpu: R,
      signal: R,
      lazy: N,
      'include-children': N,
      background: N,
      quiet: N,
      kill: N,
      restore: N,
      'monitor-forks': N,
      foreground: N,
      verbose: N,
      help: N,
    },
  }),
  watch: wrapper({
    short: {
      b: 'beep',
      c: 'color',
      C: 'no-color',
      d: ['differences', O],
      e: 'errexit',
      g: 'chgexit',
      n: ['interval', R],
      p: 'precise',
      q: ['equexit', R],
      r: 'no-rerun',
      t: 'no-title',
      w: 'no-wrap',
      x: 'exec',
    },
    long: {
      beep: N,
      color: N,
      'no-color': N,
      differences: O,
      errexit: N,
      chgexit: N,
      interval: R,
      precise: N,
      equexit: R,
      'no-rerun': N,
      'no-title': N,
      'no-wrap': N,
      exec: N,
    },
    joined: true,
  }),
  su: SU,
  runuser: SU,
  sg: wrapper({ short: { c: 'c' }, long: {}, positional: 1, joined: true }),
  script: wrapper({
    short: {
      a: 'append',
      c: ['command', R],
      e: 'return',
      E: ['echo', R],
      f: 'flush',
      I: ['log-in', R],
      O: ['log-out', R],
      B: ['log-io', R],
      T: ['log-timing', R],
      m: ['logging-format', R],
      o: ['output-limit', R],
      q: 'quiet',
      t: ['timing', O],
    },
    long: {
      append: N,
      command: R,
      return: N,
      echo: R,
      flush: N,
      force: N,
      'log-in': R,
      'log-out': R,
      'log-io': R,
      'log-timing': R,
      'logging-format': R,
      'output-limit': R,
      quiet: N,
      timing: O,
    },
    stop: false,
    script: 'command',
    onlyScript: true,
  }),
  setpriv: wrapper({
    short: { d: 'dump' },
    long: {
      dump: N,
      nnp: N,
      'no-new-privs': N,
      'inh-caps': R,
      'ambient-caps': R,
      'bounding-set': R,
      ruid: R,
      euid: R,
      rgid: R,
      egid: R,
      reuid: R,
      regid: R,
      'clear-groups': N,
      'keep-groups': N,
      'init-groups': N,
      groups: R,
      securebits: R,
      pdeathsig: R,
      'selinux-label': R,
      'apparmor-profile': R,
      'landlock-access': R,
      'landlock-rule': R,
      'seccomp-filter': R,
      'reset-env': N,
    },
  }),
  pkexec: wrapper({ short: {}, long: { user: R, 'disable-internal-agent': N, 'keep-cwd': N } }),
  unshare: wrapper({
    short: {
      m: 'mount',
      u: 'uts',
      i: 'ipc',
      n: 'net',
      p: 'pid',
      U: 'user',
      C: 'cgroup',
      T: 'time',
      f: 'fork',
      r: 'map-root-user',
      c: 'map-current-user',
      R: ['root', R],
      w: ['wd', R],
      S: ['setuid', R],
      G: ['setgid', R],
    },
    long: {
      mount: O,
      uts: O,
      ipc: O,
      net: O,
      pid: O,
      user: O,
      cgroup: O,
      time: O,
      fork: N,
      'kill-child': O,
      'mount-proc': O,
      'map-user': R,
      'map-group': R,
      'map-users': R,
      'map-groups': R,
      'map-auto': N,
      'map-root-user': N,
      'map-current-user': N,
      propagation: R,
      setgroups: R,
      'keep-caps': N,
      setuid: R,
      setgid: R,
      root: R,
      wd: R,
      monotonic: R,
      boottime: R,
      'load-interp': R,
    },
    chdir: 'wd',
  }),
  nsenter: wrapper({
    short: {
      a: 'all',
      t: ['target', R],
      m: ['mount', O],
      u: ['uts', O],
      i: ['ipc', O],
      n: ['net', O],
      p: ['pid', O],
      C: ['cgroup', O],
      U: ['user', O],
      T: ['time', O],
      S: ['setuid', R],
      G: ['setgid', R],
      r: ['root', O],
      w: ['wd', O],
      W: ['wdns', O],
      e: 'env',
      F: 'no-fork',
      Z: 'follow-context',
    },
    long: {
      all: N,
      target: R,
      mount: O,
      uts: O,
      ipc: O,
      net: O,
      pid: O,
      cgroup: O,
      user: O,
      time: O,
      setuid: R,
      setgid: R,
      root: O,
      wd: O,
      wdns: O,
      env: N,
      'no-fork': N,
      'preserve-credentials': N,
      'follow-context': N,
    },
    chdir: 'wd',
  }),
  strace: wrapper({
    short: {
      a: ['a', R],
      b: ['detach-on', R],
      e: ['e', R],
      E: ['env', R],
      I: ['I', R],
      o: ['output', R],
      O: ['O', R],
      p: ['attach', R],
      P: ['trace-path', R],
      s: ['string-limit', R],
      S: ['summary-sort-by', R],
      u: ['user', R],
      U: ['U', R],
      X: ['X', R],
      c: 'c',
      C: 'C',
      d: 'd',
      D: 'D',
      f: 'follow-forks',
      F: 'F',
      h: 'h',
      i: 'i',
      k: 'k',
      n: 'n',
      q: 'q',
      r: 'r',
      t: 't',
      T: 'T',
      v: 'v',
      V: 'V',
      w: 'w',
      x: 'x',
      y: 'y',
      z: 'z',
      Z: 'Z',
    },
    long: {
      'detach-on': R,
      env: R,
      output: R,
      attach: R,
      'trace-path': R,
      'string-limit': R,
      'summary-sort-by': R,
      user: R,
      'follow-forks': N,
      'output-separately': N,
      trace: R,
      signal: R,
      status: R,
    },
  }),
  ltrace: wrapper({
    short: {
      a: ['a', R],
      e: ['e', R],
      o: ['output', R],
      p: ['p', R],
      s: ['s', R],
      u: ['u', R],
      n: ['indent', R],
      f: 'f',
      c: 'c',
      i: 'i',
      S: 'S',
      t: 't',
      T: 'T',
      r: 'r',
      w: ['where', R],
      l: ['library', R],
      x: ['x', R],
      L: 'L',
      C: 'demangle',
      b: 'no-signals',
    },
    long: { output: R, indent: R, where: R, library: R, demangle: N, 'no-signals': N },
  }),
};

const baseName = (w: string): string => {
  const slash = w.lastIndexOf('/');
  return slash >= 0 ? w.slice(slash + 1) : w;
};

const isAssignmentWord = (w: string): boolean => {
  const eq = w.indexOf('=');
  if (eq <= 0) return false;
  for (let k = 0; k < eq; k++) {
    const c = w.charCodeAt(k);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && !(k > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
};

interface Unwrapped {
  readonly name: string;
  readonly args: ReadonlyArray<string>;
  /** A nested script (`bash -c`, `su -c`, `eval`, `watch`), parsed as commands of its own. */
  readonly script?: string;
  /** Programs it runs given as words (`find -exec … ;`). */
  readonly commands: ReadonlyArray<ReadonlyArray<string>>;
  /** The directory a wrapper set (`env -C`, `sudo -D`). */
  readonly cwd?: string;
}

/** Removes wrappers from `words`; returns the program, its arguments and what it runs in turn. */
const unwrap = (words: ReadonlyArray<string>): Unwrapped => {
  let w: ReadonlyArray<string> = words;
  let cwd: string | undefined;
  const withCwd = <T extends object>(u: T): T & { cwd?: string } => (cwd !== undefined ? { ...u, cwd } : u);
  for (let guard = 0; guard < 16 && w.length > 0; guard++) {
    const name = baseName(w[0] as string);
    if (name === 'busybox' || name === 'toybox') {
      w = w.slice(1);
      continue;
    }
    const wrap = WRAPPERS[name];
    if (wrap !== undefined) {
      const rest = w.slice(1);
      const p = getopt(wrap.spec, rest);
      const dir = wrap.chdir !== undefined ? optionValue(p, wrap.chdir) : undefined;
      if (dir !== undefined) cwd = cwd === undefined || dir.startsWith('/') ? dir : `${cwd}/${dir}`;
      const script = wrap.script !== undefined ? optionValue(p, wrap.script) : undefined;
      if (script !== undefined) return withCwd({ name, args: rest, script, commands: [] });
      if (wrap.afterPositional === true) {
        const after = rest.slice(p.rest + (wrap.positional ?? 0));
        const q = getopt(wrap.spec, after);
        const late = wrap.script !== undefined ? optionValue(q, wrap.script) : undefined;
        if (late !== undefined) return withCwd({ name, args: rest, script: late, commands: [] });
      }
      // `runuser -u user cmd…` runs the command; `su user`, `runuser user` and `script file` run a shell
      if (wrap.onlyScript === true && !(name === 'runuser' && hasOption(p, 'user'))) return withCwd({ name, args: rest, commands: [] });
      // `env -S 'rm -rf /'`: the string is split into words, followed by the remaining operands
      const split = name === 'env' ? optionValue(p, 'split-string') : undefined;
      let operands = wrap.spec.stopAtOperand === true ? rest.slice(p.rest) : [...p.operands];
      if (name === 'env') {
        let k = 0;
        while (k < operands.length && isAssignmentWord(operands[k] as string)) k += 1;
        operands = operands.slice(k);
      }
      operands = operands.slice(Math.min(operands.length, wrap.positional ?? 0));
      if (wrap.joined === true && !(name === 'watch' && hasOption(p, 'exec'))) {
        return withCwd({ name, args: rest, ...(operands.length > 0 ? { script: operands.join(' ') } : {}), commands: [] });
      }
      w = split !== undefined ? [...splitWords(split), ...operands] : operands;
      continue;
    }
    if (name === 'eval') return withCwd({ name, args: w.slice(1), script: w.slice(1).join(' '), commands: [] });
    if (SHELLS.has(name)) {
      // `bash -c 'script' [name args…]`, also with combined options: `bash -lc`, `sh -ec`
      for (let i = 1; i < w.length; i++) {
        const a = w[i] as string;
        if (!a.startsWith('-') || a === '-' || a === '--') break;
        if (a.startsWith('--')) continue;
        if (isShortCluster(a) && a.includes('c') && i + 1 < w.length) return withCwd({ name, args: w.slice(1), script: w[i + 1] as string, commands: [] });
        if (a === '-o' || a === '+o' || a === '-O' || a === '+O') i += 1;
      }
      return withCwd({ name, args: w.slice(1), commands: [] });
    }
    if (name === 'find') return withCwd({ name, args: w.slice(1), commands: findCommands(w.slice(1)) });
    return withCwd({ name, args: w.slice(1), commands: [] });
  }
  return withCwd({ name: w.length > 0 ? baseName(w[0] as string) : '', args: w.slice(1), commands: [] });
};

/** `-abc`: letters only. */
const isShortCluster = (a: string): boolean => {
  if (a.length < 2 || a[0] !== '-') return false;
  for (let k = 1; k < a.length; k++) {
    const c = a.charCodeAt(k);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
};

const splitWords = (s: string): string[] => {
  const out: string[] = [];
  let cur = '';
  for (const ch of s) {
    if (ch === ' ' || ch === '\t' || ch === '\n') {
      if (cur !== '') out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
};

/** The programs `find` runs: the words after each `-exec`/`-execdir`/`-ok`/`-okdir`, up to `;` or `+`. */
const findCommands = (args: ReadonlyArray<string>): string[][] => {
  const out: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a !== '-exec' && a !== '-execdir' && a !== '-ok' && a !== '-okdir') continue;
    const words: string[] = [];
    for (i += 1; i < args.length && args[i] !== ';' && args[i] !== '+'; i++) words.push(args[i] as string);
    if (words.length > 0) out.push(words);
  }
  return out;
};
