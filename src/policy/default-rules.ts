/**
 * The default safety rules: they block dangerous shell commands and sensitive files. They
 * read shell commands as parsed views (quotes, wrappers like `sudo`, `bash -c` scripts,
 * substitutions and brace lists understood), so `git commit -m "rm -rf /"` is not a deletion while
 * `sudo /bin/rm -r -f "/"` is. They are a first line of defence for the `shell` tool; the sandbox
 * is the second. What they cannot see (a command assembled in variables, code in other languages)
 * is listed in docs/policies.md.
 *
 * Most rules are targeted (a recursive deletion of `/` or a system directory, a write to the
 * account files). Two are broad, blocking a whole class of command whatever its target:
 *
 * - `no-rm-rf`: any `rm` that is both recursive and forced, whatever it deletes (`rm -rf build`
 *   included: ask for `rm -r`, which stops at write-protected files, or delete with `delete_file`);
 * - `no-system-account-files`: reading or writing the system's account and password files
 *   (`/etc/passwd`, `/etc/group`, `/etc/shadow`, `/etc/gshadow`, `/etc/sudoers`, their `-` backups,
 *   `/etc/master.passwd`, `/etc/security/opasswd`), in path arguments and in command words.
 *
 * Every rule is in `defaultRuleEngine`. To allow what one blocks, remove it by name:
 * `removeRule(defaultRuleEngine, 'no-rm-rf')`.
 */
import { commandViews, resolveIn, type CommandView } from './command-view.js';
import { getopt, hasOption, optionSpec, type ParsedOptions } from './getopt.js';
import { isRight } from '../core/either.js';
import { linearRegex } from '../core/linear-regex.js';
import { normalizeForMatch, readsCommandsAndPaths, ruleEngine, type Rule, type RuleEngine, type RuleInput } from './rules.js';

// -------------------------------------------------------------------------------------------------
// path classes
// -------------------------------------------------------------------------------------------------

const TOP_LEVEL = [
  'bin',
  'boot',
  'dev',
  'etc',
  'home',
  'lib',
  'lib32',
  'lib64',
  'libx32',
  'media',
  'mnt',
  'opt',
  'proc',
  'root',
  'run',
  'sbin',
  'snap',
  'srv',
  'sys',
  'usr',
  'var',
];

/**
 * Whether a word names the root, a home directory, a top-level system directory or a directory
 * right under /usr (alone or as `dir/*`), after `~`/`$HOME` normalization.
 */
export const isCriticalPath = (word: string): boolean => {
  let p = normalizeForMatch(word.replace(/^["']|["']$/g, ''));
  p = p.replace(/\/\*$/, '').replace(/\/\.\*$/, '') || '/';
  if (p === '*' || p === '') return false;
  if (p === '/' || p === '~' || p === '/*' || p === '~/*') return true;
  const m = /^\/([^/]+)(?:\/([^/]+))?$/.exec(p);
  if (m === null) return false;
  const top = m[1] as string;
  if (m[2] === undefined) return TOP_LEVEL.includes(top);
  return top === 'usr' || top === 'home';
};

const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|stdin|stdout|stderr|tty|ptmx|fd\/.*|pts\/.*|shm\/.*)$/;

/** Whether a path names a device node other than the harmless ones (/dev/null, /dev/stdout, ...). */
export const isDevicePath = (word: string): boolean => {
  const p = normalizeForMatch(word);
  return p.startsWith('/dev/') && !HARMLESS_DEVICES.test(p);
};

const SENSITIVE: ReadonlyArray<{ re: RegExp; what: string }> = [
  { re: /(^|\/)\.ssh(\/|$)/, what: 'SSH keys and configuration' },
  { re: /(^|\/)\.gnupg(\/|$)/, what: 'GnuPG keys' },
  { re: /(^|\/)id_(rsa|dsa|ecdsa|ed25519)(_sk)?(?!\.pub)([^/]*)$/, what: 'a private SSH key' },
  { re: /^\/etc\/(g?shadow-?|sudoers|security\/opasswd)$/, what: 'password hashes or sudo configuration' },
  { re: /^\/etc\/sudoers\.d(\/|$)/, what: 'sudo configuration' },
  { re: /(^|\/)\.aws\/credentials$/, what: 'AWS credentials' },
  // the directories themselves: moving or copying one carries its credentials under another name
  { re: /(^|\/)\.(aws|kube|docker)$/, what: 'a directory of credentials (moving or copying it carries them under another name)' },
  { re: /(^|\/)\.docker\/config\.json$/, what: 'Docker registry credentials' },
  { re: /(^|\/)\.kube\/config$/, what: 'Kubernetes credentials' },
  { re: /(^|\/)\.config\/gcloud(\/|$)/, what: 'Google Cloud credentials' },
  { re: /(^|\/)\.azure(\/|$)/, what: 'Azure credentials' },
  { re: /(^|\/)\.(netrc|git-credentials|pgpass)$/, what: 'stored passwords' },
  { re: /^\/proc\/(self|\d+|thread-self)\/(environ|mem)$/, what: "a process's environment or memory" },
  { re: /^\/dev\/(k?mem|port)$/, what: 'physical memory' },
];

/**
 * Credentials recognised by what they hold, wherever they are (renamed, copied, hard-linked): each
 * signature needs the format's structure and a value, so that a README explaining the format is
 * not taken for one. Linear expressions only (the text is a file's, anyone's).
 */
const SENSITIVE_CONTENT: ReadonlyArray<{ test: (text: string) => boolean; what: string }> = [
  { test: (t) => /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/.test(t), what: 'a private key' },
  {
    test: (t) =>
      /aws_secret_access_key[ \t]*[=:][ \t]*["']?[A-Za-z0-9/+]{40}/i.test(t) || /aws_access_key_id[ \t]*[=:][ \t]*["']?(?:AKIA|ASIA)[A-Z0-9]{16}/i.test(t),
    what: 'AWS credentials',
  },
  {
    test: (t) =>
      /^kind:[ \t]*"?Config"?[ \t]*\r?$/m.test(t) &&
      /^users:/m.test(t) &&
      /(?:client-key-data|token|password|client-certificate-data|auth-provider|exec):/.test(t),
    what: 'Kubernetes credentials (a kubeconfig)',
  },
  {
    test: (t) => /"auths"[ \t\r\n]*:[ \t\r\n]*\{/.test(t) && /"(?:auth|identitytoken|password)"[ \t\r\n]*:[ \t\r\n]*"[^"]{4,}"/.test(t),
    what: 'Docker registry credentials',
  },
  {
    test: (t) =>
      /^[ \t]*machine[ \t]+[^ \t\r\n]+[ \t]+(?:login[ \t]+[^ \t\r\n]+[ \t]+)?password[ \t]+[^ \t\r\n]/m.test(t) ||
      (/^[ \t]*machine[ \t]+[^ \t\r\n]+[ \t]*\r?$/m.test(t) && /^[ \t]*password[ \t]+[^ \t\r\n]+[ \t]*\r?$/m.test(t)),
    what: 'stored passwords (netrc)',
  },
  { test: (t) => /^[a-z_][a-z0-9_.-]{0,31}:\$(?:1|2[abxy]?|5|6|7|y|gy)\$[^:\n]{8,}:/m.test(t), what: 'password hashes' },
];

/** What kind of credential `text` (a file's content) is, or undefined. */
export const sensitiveContent = (text: string): string | undefined => SENSITIVE_CONTENT.find((s) => s.test(text))?.what;

/** What sensitive thing `path` names, or undefined. */
export const sensitivePath = (path: string): string | undefined => {
  const p = normalizeForMatch(path);
  return SENSITIVE.find((s) => s.re.test(p))?.what;
};

/** The files that define the system's accounts and who may use sudo (what `no-account-changes` protects from writes). */
const ACCOUNT_FILES = /^\/etc\/(passwd|group|g?shadow|sudoers)-?$/;

/** The account files and every other file of passwords (what `no-system-account-files` protects from reads and writes). */
const ACCOUNT_AND_PASSWORD_FILES = /^\/etc\/(passwd|group|shadow|gshadow|sudoers|master\.passwd|security\/opasswd)-?$/;

/** Whether `word` names a system account or password file (after `..` and `//` are collapsed). */
export const isAccountFile = (word: string): boolean => ACCOUNT_AND_PASSWORD_FILES.test(normalizeForMatch(word));

// -------------------------------------------------------------------------------------------------
// command helpers
// -------------------------------------------------------------------------------------------------

const views = (input: RuleInput): ReadonlyArray<CommandView> => input.commands.flatMap((c) => c.views);

/** Options (words starting with `-`) before `--`; operands after. */
const split = (args: ReadonlyArray<string>): { options: string[]; operands: string[] } => {
  const options: string[] = [];
  const operands: string[] = [];
  let rest = false;
  for (const a of args) {
    if (rest) operands.push(a);
    else if (a === '--') rest = true;
    else if (a.startsWith('-') && a !== '-') options.push(a);
    else operands.push(a);
  }
  return { options, operands };
};

const COPY = optionSpec(
  { t: 'target-directory', S: 'suffix', m: 'mode', o: 'owner', g: 'group' },
  {
    'target-directory': 'required',
    suffix: 'required',
    mode: 'required',
    owner: 'required',
    group: 'required',
    backup: 'optional',
    'no-target-directory': 'none',
  },
);

/** Where a command writes: redirection targets, and the destination arguments of writing programs (relative to its directory). */
const writeTargets = (v: CommandView): string[] => {
  const out = v.redirects.filter((r) => r.op !== '<' && r.op !== '<<<' && r.op !== '<&').map((r) => r.target);
  const { options, operands } = split(v.args);
  switch (v.name) {
    case 'tee':
    case 'truncate':
    case 'shred':
      out.push(...operands);
      break;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'scp': {
      const p = getopt(COPY, v.args);
      const t = p.options.find((o) => o.name === 'target-directory')?.value;
      if (t !== undefined) out.push(t);
      else if (p.operands.length > 0) out.push(p.operands[p.operands.length - 1] as string);
      break;
    }
    case 'dd':
      for (const a of v.args) if (a.startsWith('of=')) out.push(a.slice(3));
      break;
    case 'sed':
    case 'perl':
      if (options.some((o) => o === '-i' || o.startsWith('-i') || o.startsWith('--in-p') || (o[1] !== '-' && o.slice(1).includes('i'))))
        out.push(...operands.slice(1));
      break;
    default:
      break;
  }
  return out.map((t) => resolveIn(v, t));
};

const quote = (words: ReadonlyArray<string>): string => words.map((w) => (/^[\w./~$*=:@%+,-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');

const shown = (v: CommandView): string => {
  const s = quote([v.name, ...v.args]);
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
};

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'lwp-request', 'GET']);
const INTERPRETERS = /^(sh|bash|dash|zsh|ksh|mksh|ash|fish|python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node|nodejs|php[0-9.]*|eval|source|\.)$/;

// -------------------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------------------

const commandRule = (name: string, description: string, check: (v: CommandView, input: RuleInput) => string | undefined): Rule => ({
  name,
  description,
  check: (input) => {
    for (const v of views(input)) {
      const r = check(v, input);
      if (r !== undefined) return r;
    }
    return undefined;
  },
});

const RM = optionSpec(
  { f: 'force', i: 'i', I: 'I', r: 'recursive', R: 'recursive', d: 'dir', v: 'verbose' },
  {
    force: 'none',
    interactive: 'optional',
    'one-file-system': 'none',
    'no-preserve-root': 'none',
    'preserve-root': 'optional',
    recursive: 'none',
    dir: 'none',
    verbose: 'none',
    help: 'none',
    version: 'none',
  },
);

/** find's options before its starting points: `-H`, `-L`, `-P`, `-D opts`, `-Olevel`. */
const findStarts = (args: ReadonlyArray<string>): string[] => {
  let i = 0;
  while (i < args.length) {
    const a = args[i] as string;
    if (a === '-H' || a === '-L' || a === '-P' || (a.startsWith('-O') && a.length > 2)) i += 1;
    else if (a === '-D') i += 2;
    else break;
  }
  if (args[i] === '--') i += 1;
  const starts: string[] = [];
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a.startsWith('-') || a === '(' || a === '!' || a === '\\(') break;
    starts.push(a);
  }
  return starts;
};

export const noRecursiveDeleteOfRoot: Rule = commandRule(
  'no-recursive-delete-of-root',
  'blocks recursive deletion of /, home directories and system directories (rm -rf /, find / -delete)',
  (v) => {
    if (v.name === 'rm') {
      const p = getopt(RM, v.args);
      if (hasOption(p, 'no-preserve-root')) return `\`${shown(v)}\` disables rm's protection of /`;
      const target = p.operands.find((o) => isCriticalPath(resolveIn(v, o)));
      if (hasOption(p, 'recursive') && target !== undefined)
        return `\`${shown(v)}\` would delete ${JSON.stringify(resolveIn(v, target))} recursively; delete specific paths inside the workspace instead`;
    }
    if (v.name === 'find') {
      const deletes =
        v.args.includes('-delete') ||
        v.args.some((a, i) => (a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir') && /(^|\/)(rm|shred|unlink)$/.test(v.args[i + 1] ?? ''));
      const target = findStarts(v.args).find((o) => isCriticalPath(resolveIn(v, o)));
      if (deletes && target !== undefined) return `\`${shown(v)}\` would delete files under ${JSON.stringify(resolveIn(v, target))}`;
    }
    if (v.name === 'rsync') {
      // `--delete` (and `--del`, `--delete-after`, …) deletes what the source lacks from the
      // destination; `--remove-source-files` deletes the sources
      const { options, operands } = split(v.args);
      const deletes = options.some((o) => o.startsWith('--del'));
      const removesSources = options.some((o) => o.length > 10 && '--remove-source-files'.startsWith(o.split('=')[0] as string));
      const destination = operands[operands.length - 1];
      if (deletes && destination !== undefined && isCriticalPath(resolveIn(v, destination)))
        return `\`${shown(v)}\` would delete files under ${JSON.stringify(resolveIn(v, destination))}`;
      const source = removesSources ? operands.slice(0, -1).find((o) => isCriticalPath(resolveIn(v, o))) : undefined;
      if (source !== undefined) return `\`${shown(v)}\` would delete the files of ${JSON.stringify(resolveIn(v, source))}`;
    }
    return undefined;
  },
);

export const noFilesystemFormat: Rule = commandRule(
  'no-filesystem-format',
  'blocks creating or wiping file systems (mkfs, mke2fs, mkswap, wipefs, blkdiscard)',
  (v) =>
    /^(mkfs(\..+)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs|mkfs\.[a-z0-9]+|blkdiscard)$/.test(v.name) ? `\`${shown(v)}\` formats or wipes a device` : undefined,
);

export const noRawDeviceWrite: Rule = commandRule(
  'no-raw-device-write',
  'blocks writing to device nodes (dd of=/dev/sda, > /dev/nvme0n1, shred /dev/...), /dev/null and the like excepted',
  (v) => {
    const dev = writeTargets(v).find(isDevicePath);
    if (dev !== undefined) return `\`${shown(v)}\` writes to the device ${dev}`;
    return undefined;
  },
);

export const noForkBomb: Rule = {
  name: 'no-fork-bomb',
  description: 'blocks fork bombs (:(){ :|:& };:, functions that start themselves in the background, fork while fork)',
  check: (input) => {
    for (const c of input.commands) if (hasForkBomb(c.views)) return `argument "${c.argument}" contains a fork bomb`;
    for (const v of views(input)) {
      if ((v.name === 'perl' || v.name === 'ruby' || v.name.startsWith('python')) && v.args.some(isForkLoop)) return `\`${shown(v)}\` is a fork bomb`;
    }
    return undefined;
  },
};

/**
 * A function whose body starts itself twice (`f|f`) or in the background (`f &`): `:(){ :|:& };:`,
 * `bomb() { bomb & bomb; }`. Read from the parsed commands, so it takes linear time.
 */
const hasForkBomb = (all: ReadonlyArray<CommandView>): boolean => {
  for (const v of all) {
    if (v.inFunction === undefined || v.name !== v.inFunction) continue;
    if (v.background) return true;
    if (all.some((u) => u !== v && u.pipeline === v.pipeline && u.name === v.name)) return true;
  }
  return false;
};

/** `fork while fork` (Perl), `while True: os.fork()` / `while 1: os.fork()` (Python), spacing aside. */
const isForkLoop = (code: string): boolean => {
  let compact = '';
  for (const ch of code) if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') compact += ch;
  return (
    compact.includes('forkwhilefork') || compact.includes('fork()whilefork') || compact.includes('whileTrue:os.fork()') || compact.includes('while1:os.fork()')
  );
};

/** Whether a shell text holds a fork bomb (see `noForkBomb`). */
export const isForkBomb = (text: string): boolean => hasForkBomb(commandViews(text)) || isForkLoop(text);

const CHMOD_LIKE = {
  chmod: optionSpec(
    { c: 'changes', f: 'silent', v: 'verbose', R: 'recursive' },
    {
      changes: 'none',
      silent: 'none',
      quiet: 'none',
      verbose: 'none',
      'no-preserve-root': 'none',
      'preserve-root': 'none',
      reference: 'required',
      recursive: 'none',
      help: 'none',
      version: 'none',
    },
  ),
  chown: optionSpec(
    { c: 'changes', f: 'silent', v: 'verbose', R: 'recursive', h: 'no-dereference', H: 'H', L: 'L', P: 'P' },
    {
      changes: 'none',
      dereference: 'none',
      'no-dereference': 'none',
      from: 'required',
      silent: 'none',
      quiet: 'none',
      verbose: 'none',
      'no-preserve-root': 'none',
      'preserve-root': 'none',
      reference: 'required',
      recursive: 'none',
      help: 'none',
      version: 'none',
    },
  ),
  setfacl: optionSpec(
    {
      m: ['modify', 'required'],
      M: ['modify-file', 'required'],
      x: ['remove', 'required'],
      X: ['remove-file', 'required'],
      b: 'remove-all',
      k: 'remove-default',
      n: 'no-mask',
      d: 'default',
      R: 'recursive',
      L: 'logical',
      P: 'physical',
      s: ['set', 'required'],
      S: ['set-file', 'required'],
      v: 'version',
      h: 'help',
    },
    {
      modify: 'required',
      'modify-file': 'required',
      remove: 'required',
      'remove-file': 'required',
      'remove-all': 'none',
      'remove-default': 'none',
      'no-mask': 'none',
      default: 'none',
      recursive: 'none',
      logical: 'none',
      physical: 'none',
      set: 'required',
      'set-file': 'required',
      restore: 'required',
      test: 'none',
      mask: 'none',
      'skip-base': 'none',
    },
  ),
} as const;

/** chmod takes a mode written as options too: `chmod -w f`, `chmod -R -x+X d`. */
const MODE_LETTERS = 'rwxXstugoa=+,01234567';
const chmodModeOption = (args: ReadonlyArray<string>): boolean =>
  args.some((a) => a.length > 1 && a[0] === '-' && a[1] !== '-' && [...a.slice(1)].every((c) => MODE_LETTERS.includes(c) || c === '-' || c === 'R'));

/** The files a chmod/chown/chgrp/setfacl call changes (its mode/owner operand left out). */
const changedFiles = (v: CommandView, p: ParsedOptions): ReadonlyArray<string> => {
  if (v.name === 'setfacl' || hasOption(p, 'reference')) return p.operands;
  if (v.name === 'chmod' && chmodModeOption(v.args)) return p.operands;
  return p.operands.slice(1);
};

export const noRecursivePermissionChangeOfRoot: Rule = commandRule(
  'no-recursive-permission-change-of-root',
  'blocks changing permissions or owners of /, home or system directories recursively (chmod -R 777 /, chown -R)',
  (v) => {
    if (v.name !== 'chmod' && v.name !== 'chown' && v.name !== 'chgrp' && v.name !== 'setfacl') return undefined;
    const spec = v.name === 'chgrp' ? CHMOD_LIKE.chown : CHMOD_LIKE[v.name];
    // chmod's mode options (`-w`) are not options to getopt's reading here: leave them out
    const args =
      v.name === 'chmod'
        ? v.args.filter((a) => !(a.length > 1 && a[0] === '-' && a[1] !== '-' && [...a.slice(1)].every((c) => MODE_LETTERS.includes(c) || c === '-')))
        : v.args;
    const p = getopt(spec, args);
    const recursive = hasOption(p, 'recursive') || (v.name === 'chmod' && v.args.some((a) => a.length > 1 && a[0] === '-' && a[1] !== '-' && a.includes('R')));
    const target = changedFiles(v, p)
      .map((t) => resolveIn(v, t))
      .find(isCriticalPath);
    if (target === undefined) return undefined;
    if (recursive) return `\`${shown(v)}\` would change ${JSON.stringify(target)} and everything under it`;
    const n = normalizeForMatch(target);
    if (v.name === 'chmod' && (n === '/' || n === '~')) return `\`${shown(v)}\` would change the permissions of ${JSON.stringify(target)}`;
    return undefined;
  },
);

export const noSystemShutdown: Rule = commandRule(
  'no-system-shutdown',
  'blocks shutting down or rebooting the machine and killing every process (shutdown, reboot, kill -9 -1, killall5, pkill -f ., /proc/sysrq-trigger)',
  (v) => {
    if (/^(shutdown|reboot|halt|poweroff)$/.test(v.name)) return `\`${shown(v)}\` stops the machine`;
    if (v.name === 'killall5') return `\`${shown(v)}\` signals every process`;
    if (writeTargets(v).some((t) => normalizeForMatch(t) === '/proc/sysrq-trigger'))
      return `\`${shown(v)}\` writes /proc/sysrq-trigger (reboots, crashes or kills at the kernel's level)`;
    if (v.name === 'pkill' || (v.name === 'killall' && v.args.some((a) => a === '-r' || a === '--regexp' || (/^-[a-zA-Z]+$/.test(a) && a.includes('r'))))) {
      const pattern = killPattern(v);
      if (pattern !== undefined && matchesEveryProcess(pattern)) return `\`${shown(v)}\` matches every process (pattern ${JSON.stringify(pattern)})`;
    }
    if ((v.name === 'init' || v.name === 'telinit') && /^[06sS]$/.test(v.args[0] ?? '')) return `\`${shown(v)}\` stops the machine`;
    if (v.name === 'systemctl' && v.args.some((a) => /^(poweroff|reboot|halt|kexec|suspend|hibernate|emergency|rescue)$/.test(a)))
      return `\`${shown(v)}\` stops the machine`;
    if (v.name === 'kill' || v.name === 'pkill' || v.name === 'killall') {
      if (v.name === 'kill') {
        let i = 0;
        const a0 = v.args[0];
        if (a0 === '-s' || a0 === '-n' || a0 === '--signal') i = 2;
        else if (a0 !== undefined && a0.startsWith('-') && a0 !== '-1') i = 1;
        else if (a0 === '-1' && v.args.length > 1) i = 1; // `kill -1 PID` sends signal 1
        const pids = v.args.slice(i);
        if (pids.includes('-1') || pids.includes('1')) return `\`${shown(v)}\` signals every process (or init)`;
      } else if (v.args.some((a) => a === '-1' || a === 'init' || a === 'systemd')) return `\`${shown(v)}\` signals init`;
    }
    return undefined;
  },
);

const PKILL = optionSpec(
  {
    f: 'full',
    x: 'exact',
    n: 'newest',
    o: 'oldest',
    c: 'count',
    e: 'echo',
    i: 'ignore-case',
    v: 'inverse',
    g: ['pgroup', 'required'],
    G: ['group', 'required'],
    P: ['parent', 'required'],
    s: ['session', 'required'],
    t: ['terminal', 'required'],
    u: ['euid', 'required'],
    U: ['uid', 'required'],
    F: ['pidfile', 'required'],
    O: ['older', 'required'],
    r: ['regexp', 'required'],
    I: 'interactive',
    q: 'quiet',
    w: 'wait',
    y: ['younger-than', 'required'],
    Z: ['context', 'required'],
    l: 'list-name',
    a: 'list-full',
  },
  {
    full: 'none',
    exact: 'none',
    newest: 'none',
    oldest: 'none',
    count: 'none',
    echo: 'none',
    'ignore-case': 'none',
    inverse: 'none',
    pgroup: 'required',
    group: 'required',
    parent: 'required',
    session: 'required',
    terminal: 'required',
    euid: 'required',
    uid: 'required',
    pidfile: 'required',
    older: 'required',
    signal: 'required',
    ns: 'required',
    nslist: 'required',
    regexp: 'required',
    interactive: 'none',
    quiet: 'none',
    wait: 'none',
    user: 'required',
    'older-than': 'required',
    'younger-than': 'required',
    'process-group': 'none',
    verbose: 'none',
    context: 'required',
  },
);

/** The pattern of a `pkill` (its first operand) or `killall -r` call (its regular expression). */
const killPattern = (v: CommandView): string | undefined => {
  // `-9`, `-KILL`: a signal written as an option is not a cluster of letters
  const args = v.args.filter((a) => !/^-(\d+|[A-Z][A-Z0-9+-]*)$/.test(a));
  const p = getopt(PKILL, args);
  if (v.name === 'killall') return p.options.find((o) => o.name === 'regexp')?.value ?? p.operands[0];
  return p.operands[0];
};

const PROCESS_NAMES = ['init', 'systemd', 'sshd', 'bash', 'node', 'x', 'kworker/0:1', '/usr/sbin/cron -f'];

/** Whether a process pattern (an extended regular expression) matches every process name. */
const matchesEveryProcess = (pattern: string): boolean => {
  if (pattern === '') return true;
  const re = linearRegex(pattern);
  return isRight(re) && PROCESS_NAMES.every((n) => re.right.test(n));
};

export const noRemoteScriptExecution: Rule = {
  name: 'no-remote-script-execution',
  description: 'blocks running downloaded scripts (curl … | sh, bash <(curl …), sh -c "$(wget -O- …)")',
  check: (input) => {
    const all = views(input);
    for (const v of all) {
      if (!INTERPRETERS.test(v.name)) continue;
      // a download earlier in the same pipeline, feeding this interpreter
      const feeder = all.find((u) => u.pipeline === v.pipeline && u.pipePosition < v.pipePosition && DOWNLOADERS.has(u.name));
      if (feeder !== undefined) return `\`${shown(feeder)} | ${shown(v)}\` runs a script downloaded from the network; download it to a file and read it first`;
      // a download in a substitution of this interpreter's words, or of the script it was given
      const inner = all.find((u) => DOWNLOADERS.has(u.name) && isBelow(u, v));
      if (inner !== undefined) return `\`${shown(v)}\` runs the output of \`${shown(inner)}\`, a script downloaded from the network`;
    }
    return undefined;
  },
};

const isBelow = (u: CommandView, v: CommandView): boolean => {
  for (let p = u.parent ?? u.via; p !== undefined; p = p.parent ?? p.via) if (p === v) return true;
  return false;
};

export const noSensitiveFiles: Rule = {
  name: 'no-sensitive-files',
  description:
    'blocks reading or writing credentials and keys (~/.ssh, ~/.gnupg, /etc/shadow, /etc/sudoers, cloud credentials, /proc/*/environ), and files that hold them by their content (private keys, AWS credentials, kubeconfigs, Docker auths, netrc, password hashes)',
  check: (input) => {
    for (const p of input.paths) {
      const what = sensitivePath(p.path);
      if (what !== undefined) return `argument "${p.argument}" (${JSON.stringify(p.path)}) names ${what}`;
      const held = p.content !== undefined ? sensitiveContent(p.content) : undefined;
      if (held !== undefined) return `argument "${p.argument}" (${JSON.stringify(p.path)}) holds ${held}, whatever its name`;
    }
    for (const v of views(input)) {
      for (const w of [...v.args, ...v.redirects.map((r) => r.target)]) {
        const candidates = (w.includes('=') ? [w, w.slice(w.indexOf('=') + 1)] : [w]).map((c) => resolveIn(v, c));
        for (const c of candidates) {
          const what = sensitivePath(c);
          if (what !== undefined) return `\`${shown(v)}\` names ${JSON.stringify(c)}, ${what}`;
        }
      }
    }
    return undefined;
  },
};

export const noAccountChanges: Rule = {
  name: 'no-account-changes',
  description: 'blocks writing /etc/passwd, /etc/group, /etc/shadow, /etc/sudoers and the account tools (useradd, usermod, passwd, visudo, ...)',
  check: (input) => {
    for (const p of input.paths) {
      if (p.access === 'write' && ACCOUNT_FILES.test(normalizeForMatch(p.path)))
        return `argument "${p.argument}" would change the system's accounts (${p.path})`;
    }
    for (const v of views(input)) {
      if (
        /^(useradd|userdel|usermod|groupadd|groupdel|groupmod|adduser|deluser|addgroup|delgroup|chpasswd|chgpasswd|passwd|gpasswd|visudo|vipw|vigr|newusers|chsh|chfn)$/.test(
          v.name,
        )
      ) {
        return `\`${shown(v)}\` changes the system's accounts`;
      }
      const t = writeTargets(v).find((w) => ACCOUNT_FILES.test(normalizeForMatch(w)));
      if (t !== undefined) return `\`${shown(v)}\` writes ${t}`;
    }
    return undefined;
  },
};

export const noRmRf: Rule = {
  name: 'no-rm-rf',
  description: 'blocks rm -rf (recursive and forced deletion), whatever it deletes',
  check: (input) => {
    for (const v of views(input)) {
      if (v.name !== 'rm') continue;
      const { options } = split(v.args);
      const short = options.filter((o) => /^-[A-Za-z]+$/.test(o)).join('');
      const long = options.filter((o) => o.startsWith('--') && o.length > 2).map((o) => o.slice(2).split('=')[0] as string);
      const recursive = /[rR]/.test(short) || long.some((o) => 'recursive'.startsWith(o));
      const force = short.includes('f') || long.some((o) => 'force'.startsWith(o));
      if (recursive && force) return `\`${shown(v)}\` deletes recursively without asking (rm -rf); delete specific files, or use rm -r`;
    }
    return undefined;
  },
};

export const noSystemAccountFiles: Rule = {
  name: 'no-system-account-files',
  description: 'blocks reading or writing /etc/passwd, /etc/group, /etc/shadow, /etc/sudoers and the like',
  check: (input) => {
    for (const p of input.paths) if (isAccountFile(p.path)) return `argument "${p.argument}" names the system's account file ${JSON.stringify(p.path)}`;
    for (const v of views(input)) {
      for (const w of [...v.args, ...v.redirects.map((r) => r.target)]) {
        const candidates = w.includes('=') ? [w, w.slice(w.indexOf('=') + 1)] : [w];
        for (const c of candidates) if (isAccountFile(c)) return `\`${shown(v)}\` names the system's account file ${JSON.stringify(c)}`;
      }
    }
    return undefined;
  },
};

/** Every default rule, in the order they are checked. They read only a call's commands and paths (`readsCommandsAndPaths`). */
export const defaultRules: ReadonlyArray<Rule> = [
  noRecursiveDeleteOfRoot,
  noFilesystemFormat,
  noRawDeviceWrite,
  noForkBomb,
  noRecursivePermissionChangeOfRoot,
  noSystemShutdown,
  noRemoteScriptExecution,
  noSensitiveFiles,
  noAccountChanges,
  noRmRf,
  noSystemAccountFiles,
].map(readsCommandsAndPaths);

/** The engine with the default rules, knowing the built-in tools' commands and paths. */
export const defaultRuleEngine: RuleEngine = ruleEngine(defaultRules);
