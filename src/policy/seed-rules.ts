/**
 * Two default rules straight from seed 003's list ("block dangerous shell commands (rm -rf, …)",
 * "block access to sensitive files (/etc/passwd, …)"), broader than the targeted rules of
 * default-rules.ts:
 *
 * - `no-rm-rf`: any `rm` that is both recursive and forced, whatever it deletes (`rm -rf build`
 *   included: ask for `rm -r`, which stops at write-protected files, or delete with `delete_file`);
 * - `no-system-account-files`: reading or writing the system's account and password files
 *   (`/etc/passwd`, `/etc/group`, `/etc/shadow`, `/etc/gshadow`, `/etc/sudoers`, their `-` backups,
 *   `/etc/master.passwd`, `/etc/security/opasswd`), in path arguments and in command words.
 *
 * Both are in `defaultRuleEngine`. To allow what they block, remove them by name:
 * `removeRule(defaultRuleEngine, 'no-rm-rf')`.
 */
import type { CommandView } from './command-view.js';
import { normalizeForMatch, type Rule, type RuleInput } from './rules.js';

// -------------------------------------------------------------------------------------------------
// rules
// -------------------------------------------------------------------------------------------------

export const noRmRf: Rule = {
  name: 'no-rm-rf',
  description: 'blocks rm -rf (recursive and forced deletion), whatever it deletes',
  check: (input) => {
    for (const v of views(input)) {
      if (v.name !== 'rm') continue;
      const options = optionsOf(v.args);
      const short = options.filter((o) => /^-[A-Za-z]+$/.test(o)).join('');
      const long = options.filter((o) => o.startsWith('--') && o.length > 2).map((o) => o.slice(2).split('=')[0] as string);
      const recursive = /[rR]/.test(short) || long.some((o) => 'recursive'.startsWith(o));
      const force = short.includes('f') || long.some((o) => 'force'.startsWith(o));
      if (recursive && force) return `\`${shown(v)}\` deletes recursively without asking (rm -rf); delete specific files, or use rm -r`;
    }
    return undefined;
  },
};

const ACCOUNT_FILES = /^\/etc\/(passwd|group|shadow|gshadow|sudoers|master\.passwd|security\/opasswd)-?$/;

/** Whether `word` names a system account or password file (after `..` and `//` are collapsed). */
export const isAccountFile = (word: string): boolean => ACCOUNT_FILES.test(normalizeForMatch(word));

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

/** The seed-003 rules, in the order they are checked. */
export const seedRules: ReadonlyArray<Rule> = [noRmRf, noSystemAccountFiles];

// -------------------------------------------------------------------------------------------------
// utilities
// -------------------------------------------------------------------------------------------------

const views = (input: RuleInput): ReadonlyArray<CommandView> => input.commands.flatMap((c) => c.views);

/** Words starting with `-` before `--` (GNU tools take options after operands too). */
const optionsOf = (args: ReadonlyArray<string>): string[] => {
  const out: string[] = [];
  for (const a of args) {
    if (a === '--') break;
    if (a.startsWith('-') && a !== '-') out.push(a);
  }
  return out;
};

const shown = (v: CommandView): string => {
  const s = [v.name, ...v.args].map((w) => (/^[\w./~$*=:@%+,-]+$/.test(w) ? w : JSON.stringify(w))).join(' ');
  return s.length > 120 ? `${s.slice(0, 120)}…` : s;
};
