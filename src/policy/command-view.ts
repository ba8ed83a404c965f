/**
 * What a parsed command line actually runs: each simple command with its wrappers removed
 * (`sudo`, `env A=1`, `nohup`, `nice -n 5`, `timeout 10`, `xargs`, `command`, `exec`, `busybox`, ...),
 * its program named by base name (`/bin/rm` → `rm`), and the scripts given to `sh -c`, `bash -c`,
 * `eval` parsed as commands of their own. Rules read these views.
 */
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
  parsed.commands.forEach((c: SimpleCommand, k: number) => {
    const parent = c.parent === undefined ? via : views[c.parent];
    const { name, args, script } = unwrap(c.words);
    const view: CommandView = {
      name,
      args,
      redirects: c.redirects,
      pipeline: `${prefix}.${c.pipeline}`,
      pipePosition: c.pipePosition,
      ...(parent !== undefined ? { parent } : {}),
      ...(via !== undefined ? { via } : {}),
    };
    views[k] = view;
    out.push(view);
    if (script !== undefined && depth < MAX_NESTING) collect(script, out, `${prefix}.${c.pipeline}.${k}`, view, depth + 1);
  });
};

// -------------------------------------------------------------------------------------------------
// unwrapping
// -------------------------------------------------------------------------------------------------

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh', 'rbash']);

/** Options of wrappers that take a value (the value is skipped with the option). */
const OPTIONS_WITH_VALUE: Readonly<Record<string, ReadonlySet<string>>> = {
  sudo: new Set(['-u', '-g', '-C', '-h', '-p', '-U', '-r', '-t', '-T', '-D', '--user', '--group', '--host', '--prompt', '--chdir']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '--unset', '--chdir', '-S', '--split-string']),
  nice: new Set(['-n', '--adjustment']),
  ionice: new Set(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata']),
  stdbuf: new Set(['-i', '-o', '-e', '--input', '--output', '--error']),
  timeout: new Set(['-s', '-k', '--signal', '--kill-after']),
  xargs: new Set(['-I', '-i', '-n', '-P', '-d', '-a', '-E', '-e', '-L', '-l', '-s', '--max-args', '--max-procs', '--delimiter', '--arg-file', '--replace', '--max-lines', '--max-chars', '--eof']),
  exec: new Set(['-a']),
  chroot: new Set(['--userspec', '--groups']),
  setsid: new Set([]),
  nohup: new Set([]),
  time: new Set(['-f', '-o', '--format', '--output']),
  command: new Set([]),
  builtin: new Set([]),
  unbuffer: new Set([]),
  chrt: new Set([]),
  taskset: new Set([]),
  flock: new Set(['-w', '-E', '--timeout', '--conflict-exit-code']),
  watch: new Set(['-n', '-d', '--interval']),
};

const baseName = (w: string): string => {
  const slash = w.lastIndexOf('/');
  return slash >= 0 ? w.slice(slash + 1) : w;
};

/** Removes wrappers from `words`; returns the program, its arguments and a nested script if any. */
const unwrap = (words: ReadonlyArray<string>): { name: string; args: ReadonlyArray<string>; script?: string } => {
  let w = [...words];
  for (let guard = 0; guard < 16 && w.length > 0; guard++) {
    const name = baseName(w[0] as string);
    if (name === 'busybox' || name === 'toybox') {
      w = w.slice(1);
      continue;
    }
    const opts = OPTIONS_WITH_VALUE[name];
    if (opts !== undefined) {
      let i = 1;
      let split: string | undefined;
      while (i < w.length) {
        const a = w[i] as string;
        if (a === '--') {
          i += 1;
          break;
        }
        if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
          i += 1;
          continue;
        }
        if (!a.startsWith('-') || a === '-') break;
        if ((name === 'env' && (a === '-S' || a === '--split-string')) || (name === 'env' && a.startsWith('-S') && a.length > 2)) {
          split = a.length > 2 && a !== '--split-string' ? a.slice(2) : w[i + 1];
          i += a.length > 2 && a !== '--split-string' ? 1 : 2;
          break;
        }
        i += opts.has(a) ? 2 : 1;
      }
      // `nice 5 cmd` is not a form; `timeout 10 cmd` and `chrt 5 cmd` and `taskset 0x1 cmd` take one positional value
      if ((name === 'timeout' || name === 'chrt' || name === 'taskset') && i < w.length) i += 1;
      if (name === 'chroot' && i < w.length) i += 1; // the new root
      if (name === 'flock' && i < w.length) i += 1; // the lock file
      if (split !== undefined) {
        w = [...split.split(/\s+/).filter((x) => x !== ''), ...w.slice(i)];
        continue;
      }
      w = w.slice(i);
      continue;
    }
    if (name === 'eval') return { name, args: w.slice(1), script: w.slice(1).join(' ') };
    if (SHELLS.has(name)) {
      // `bash -c 'script' [name args…]`, also with combined options: `bash -lc`, `sh -ec`
      for (let i = 1; i < w.length; i++) {
        const a = w[i] as string;
        if (!a.startsWith('-') || a === '-' || a === '--') break;
        if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a) && i + 1 < w.length) return { name, args: w.slice(1), script: w[i + 1] as string };
        if (a === '-o' || a === '+o' || a === '-O' || a === '+O') i += 1;
      }
      return { name, args: w.slice(1) };
    }
    return { name, args: w.slice(1) };
  }
  return { name: w.length > 0 ? baseName(w[0] as string) : '', args: w.slice(1) };
};
