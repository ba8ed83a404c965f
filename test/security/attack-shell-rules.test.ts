/**
 * Attack corpus: shell rule bypasses (issue 13, items 6 and 7). Each command below got past the
 * default rules before; the laws state the classes (paths normalised as the kernel reads them,
 * options read as GNU getopt reads them, wrappers and function bodies looked into) and the rule
 * engine's regular expressions are checked statically for super-linear backtracking.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { checkRules, defaultRuleEngine, forbiddenPathsRule, forbiddenPatternsRule, MAX_COMMAND_LENGTH, ruleEngine } from '../../src/entries/policy.js';

const blockedBy = (command: string): string[] => checkRules(defaultRuleEngine, 'shell', { command }).map((v) => v.rule);

const BYPASSES: ReadonlyArray<readonly [string, string]> = [
  // issue 18: wrappers that run a command, rsync's deletions, the kernel's trigger, match-all kills
  ['no-recursive-delete-of-root', 'systemd-run rm -rf /'],
  ['no-recursive-delete-of-root', 'systemd-run --uid=0 -p Nice=5 --working-directory=/ sh -c "rm -rf usr"'],
  ['no-recursive-delete-of-root', 'flock /tmp/lock rm -rf /'],
  ['no-recursive-delete-of-root', 'flock -n /tmp/lock -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'flock -w 5 /tmp/lock --command "rm -rf /etc"'],
  ['no-recursive-delete-of-root', 'cpulimit -l 50 rm -rf /'],
  ['no-recursive-delete-of-root', 'cpulimit --limit=50 -- sh -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'rsync -a --delete empty/ /'],
  ['no-recursive-delete-of-root', 'rsync -a --del /tmp/empty/ /usr'],
  ['no-recursive-delete-of-root', 'rsync -a --remove-source-files /etc /tmp/x'],
  ['no-system-shutdown', 'echo b > /proc/sysrq-trigger'],
  ['no-system-shutdown', 'echo c | sudo tee /proc/sysrq-trigger'],
  ['no-system-shutdown', 'pkill -9 -f .'],
  ['no-system-shutdown', 'pkill -KILL -f ".*"'],
  ['no-system-shutdown', 'pkill ""'],
  ['no-system-shutdown', 'killall5 -9'],
  ['no-system-shutdown', 'killall -9 -r .'],
  ['no-recursive-delete-of-root', 'rm -rf /../etc'],
  ['no-recursive-delete-of-root', 'rm -rf /../../'],
  ['no-recursive-delete-of-root', 'rm -rf ~/..'],
  ['no-recursive-delete-of-root', 'f(){ rm -rf /; }; f'],
  ['no-recursive-delete-of-root', 'f() { rm -rf /;}'],
  ['no-recursive-delete-of-root', 'function f { rm -rf /; }; f'],
  ['no-recursive-delete-of-root', 'function f() ( rm -rf / ); f'],
  ['no-recursive-delete-of-root', 'find -L / -delete'],
  ['no-recursive-delete-of-root', 'find -H -O3 /etc -delete'],
  ['no-recursive-delete-of-root', 'rm --rec --force /'],
  ['no-recursive-delete-of-root', 'rm --r /usr'],
  ['no-recursive-delete-of-root', 'rm --no-pre -f /tmp'],
  ['no-recursive-delete-of-root', 'rm -rf ~root'],
  ['no-recursive-delete-of-root', 'rm -rf ~alice/'],
  ['no-recursive-delete-of-root', 'rm -rf /proc/self/root'],
  ['no-recursive-delete-of-root', 'rm -rf /proc/1/root/etc'],
  ['no-recursive-delete-of-root', 'su -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'su root -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'su -lc "rm -rf /" root'],
  ['no-recursive-delete-of-root', 'runuser -u root -- sh -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'script -c "rm -rf /" /dev/null'],
  ['no-recursive-delete-of-root', 'script -qc "rm -rf /"'],
  ['no-recursive-delete-of-root', 'env -C / rm -rf etc'],
  ['no-recursive-delete-of-root', 'env --ch=/ rm -rf usr'],
  ['no-recursive-delete-of-root', 'env --unse X rm -rf /'],
  ['no-recursive-delete-of-root', 'sudo -D / rm -rf etc'],
  ['no-recursive-delete-of-root', 'cd / && rm -rf etc'],
  ['no-recursive-delete-of-root', 'cd /usr; rm -rf lib'],
  ['no-recursive-delete-of-root', 'watch -n 1 "rm -rf /"'],
  ['no-recursive-delete-of-root', 'flock /tmp/l -c "rm -rf /"'],
  ['no-recursive-delete-of-root', 'setpriv --reuid=0 rm -rf /'],
  ['no-recursive-delete-of-root', 'unshare -w / rm -rf etc'],
  ['no-recursive-delete-of-root', 'find . -exec sh -c "rm -rf /" \\;'],
  ['no-recursive-delete-of-root', 'xargs -I{} rm -rf / < list'],
  ['no-recursive-permission-change-of-root', 'chmod -R --reference=x /'],
  ['no-recursive-permission-change-of-root', 'chmod --reference=/tmp/x -R /etc'],
  ['no-recursive-permission-change-of-root', 'chown --rec --ref=x /usr'],
  ['no-recursive-permission-change-of-root', 'chmod -R 777 /../'],
  ['no-recursive-permission-change-of-root', 'chmod -w /'],
  ['no-sensitive-files', 'cat /../etc/shadow'],
  ['no-sensitive-files', 'cat /proc/self/root/etc/shadow'],
  ['no-sensitive-files', 'cat ~root/.ssh/id_rsa'],
  ['no-sensitive-files', 'cd /etc && cat shadow'],
  ['no-account-changes', 'echo x >> /../etc/passwd'],
  ['no-account-changes', 'cd /etc; echo "x:0:0::/:/bin/sh" >> passwd'],
  ['no-raw-device-write', 'dd if=/dev/zero of=/../dev/sda'],
  ['no-raw-device-write', 'cp x --target=/dev/sda'],
  ['no-fork-bomb', 'bomb() { bomb & bomb; }; bomb'],
  ['no-fork-bomb', 'function b { b | b & }; b'],
  ['no-fork-bomb', ':(){ :|:& };:'],
  ['no-fork-bomb', 'perl -e "fork  while   fork"'],
];

describe('attack: shell rule gaps', () => {
  it.each(BYPASSES)('%s blocks %s', (rule, command) => {
    expect(blockedBy(command)).toContain(rule);
  });

  it('still allows the harmless neighbours (but for the default rule that asks about any rm -rf)', () => {
    // `no-rm-rf` (the default rule that blocks every `rm -rf`, removable) is not a gap rule: the
    // neighbours must pass every rule but that one
    const gapRulesBlocking = (c: string): string[] => blockedBy(c).filter((r) => r !== 'no-rm-rf');
    expect(blockedBy('rm -rf ./build')).toEqual(['no-rm-rf']);
    for (const c of [
      'rm -rf ./build',
      'rm -rf /tmp/x',
      'cd /tmp && rm -rf x',
      'f() { echo hi; }; f',
      'chmod --reference=a b',
      'chown -R me:me .',
      'su -c "ls /"',
      'env -C /tmp rm -rf x',
      'find . -name "*.o" -delete',
      'rm --rec ./out',
      'flock /tmp/lock make',
      'flock -n /tmp/lock -c "make test"',
      'systemd-run --user ls',
      'cpulimit -l 50 make',
      'rsync -a --delete build/ out/',
      'pkill -f "node server.js"',
      'pkill -9 sleep',
      'killall -r "^python"',
      'cat /proc/sys/kernel/sysrq',
    ])
      expect(gapRulesBlocking(c), c).toEqual([]);
  });

  it('law: `/..` segments at the root change nothing (`rm -rf /../…/../X` is `rm -rf /X`)', () => {
    fc.assert(
      fc.property(fc.constantFrom('/', '/etc', '/usr', '/home', '/var', '/bin'), fc.integer({ min: 1, max: 6 }), fc.constantFrom('', '/'), (dir, n, trail) => {
        expect(blockedBy(`rm -rf ${'/..'.repeat(n)}${dir === '/' ? '' : dir}${trail}`)).toContain('no-recursive-delete-of-root');
      }),
    );
  });

  it('law: any unambiguous prefix of a long option is that option (GNU getopt_long)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 'recursive'.length }), fc.integer({ min: 0, max: 'force'.length - 1 }), (r, f) => {
        expect(blockedBy(`rm --${'recursive'.slice(0, r)} --${'force'.slice(0, f + 1)} /`)).toContain('no-recursive-delete-of-root');
      }),
    );
  });

  it('law: a dangerous command stays blocked inside a function body that is called', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('rm -rf /', 'chmod -R 777 /', 'mkfs.ext4 /dev/sda'),
        fc.constantFrom('f', 'do_it', 'x1'),
        fc.boolean(),
        (cmd, name, keyword) => {
          const def = keyword ? `function ${name} { ${cmd}; }` : `${name}() { ${cmd}; }`;
          expect(blockedBy(`${def}; ${name}`).length).toBeGreaterThan(0);
        },
      ),
    );
  });
});

// -------------------------------------------------------------------------------------------------
// item 7: no rule can stall the process
// -------------------------------------------------------------------------------------------------

const POLICY = join(new URL('../../src/policy', import.meta.url).pathname);

/** Every regular-expression literal in the policy layer's sources, with where it is. */
const regexLiterals = (): Array<{ where: string; source: string; flags: string }> => {
  const out: Array<{ where: string; source: string; flags: string }> = [];
  for (const f of readdirSync(POLICY).filter((x) => x.endsWith('.ts'))) {
    const text = readFileSync(join(POLICY, f), 'utf8');
    const sf = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const lit = n.getText(sf);
        const slash = lit.lastIndexOf('/');
        out.push({ where: `${f}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`, source: lit.slice(1, slash), flags: lit.slice(slash + 1) });
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return out;
};

describe('attack: rules that stall the process', () => {
  it('every regular expression in the policy layer is linear (recheck finds no super-linear backtracking)', () => {
    const literals = regexLiterals();
    expect(literals.length).toBeGreaterThan(10);
    const unsafe = literals
      .map((l) => ({ ...l, r: checkSync(l.source, l.flags.replace(/[gy]/g, ''), { timeout: 10_000 }) }))
      .filter((l) => l.r.status !== 'safe')
      .map(
        (l) =>
          `${l.where} /${l.source}/${l.flags}: ${l.r.status}${l.r.status === 'vulnerable' ? ` (${l.r.complexity.type}, attack ${JSON.stringify(l.r.attack.pattern)})` : ''}`,
      );
    expect(unsafe).toEqual([]);
  });

  it('the policy layer builds no RegExp at run time (patterns from data run on the linear engine)', () => {
    for (const f of readdirSync(POLICY).filter((x) => x.endsWith('.ts'))) expect(readFileSync(join(POLICY, f), 'utf8'), f).not.toMatch(/new RegExp\(/);
  });

  it('a user pattern that needs backtracking is refused when the rule is made', () => {
    expect(() => forbiddenPatternsRule({ name: 'r', patterns: [/(a)\1/] })).toThrow(/backreference/);
    expect(() => forbiddenPatternsRule({ name: 'r', patterns: [/(?<=x)y/] })).toThrow(/lookbehind/);
    // a catastrophic pattern for a backtracking engine answers at once on the linear one
    const rule = forbiddenPatternsRule({ name: 'r', patterns: [/^(a+)+$/] });
    expect(checkRules(ruleEngine([rule]), 'any', { x: `${'a'.repeat(5000)}!` })).toEqual([]);
    const glob = forbiddenPathsRule({ name: 'g', paths: ['**/**/**/**/x'] });
    expect(checkRules(ruleEngine([glob], { pathArguments: { any: ['p'] } }), 'any', { p: `${'a/'.repeat(5000)}y` })).toEqual([]);
  });

  it('law: the rules answer any text made of few letters, at any length (the fork-bomb shapes included)', () => {
    const pieces = fc.constantFrom(
      'a',
      '(',
      ')',
      '{',
      '}',
      '|',
      '&',
      ';',
      ' ',
      ':',
      'f',
      'fork',
      'while',
      '/',
      '..',
      '\n',
      '$(',
      '`',
      '"',
      "'",
      '\\',
      ',',
      '~',
      '-',
      '=',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), fc.integer({ min: 1, max: 2000 }), (parts, times) => {
        const text = parts.join('').repeat(times);
        expect(Array.isArray(checkRules(defaultRuleEngine, 'shell', { command: text }))).toBe(true);
        expect(Array.isArray(checkRules(defaultRuleEngine, 'run_code', { language: 'bash', code: text }))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a word as long as the rules read is read once (the fork-bomb pattern no longer backtracks); longer is refused', () => {
    expect(checkRules(defaultRuleEngine, 'run_code', { language: 'bash', code: 'a'.repeat(MAX_COMMAND_LENGTH) })).toEqual([]);
    expect(checkRules(defaultRuleEngine, 'run_code', { language: 'bash', code: 'a('.repeat(MAX_COMMAND_LENGTH / 2) })).toEqual([]);
    expect(checkRules(defaultRuleEngine, 'run_code', { language: 'bash', code: 'a'.repeat(100_000) }).map((v) => v.rule)).toEqual(['command-too-long']);
  });
});
