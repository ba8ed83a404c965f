import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addRule,
  checkRules,
  combineRuleEngines,
  customRule,
  defaultRuleEngine,
  defaultRules,
  emptyRuleEngine,
  forbiddenPathsRule,
  forbiddenPatternsRule,
  removeRule,
  ruleEngine,
} from '../../src/entries/policy.js';

const corpus = (name: string): string[] =>
  readFileSync(new URL(`../fixtures/builtin/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.startsWith('#'));

const dangerous = corpus('dangerous-commands.txt').map((l) => ({ rule: l.slice(0, l.indexOf('|')), command: l.slice(l.indexOf('|') + 1) }));
const harmless = corpus('harmless-commands.txt');

/** Single-quotes a string for bash. */
const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

const blockedBy = (command: string): string[] => checkRules(defaultRuleEngine, 'shell', { command }).map((v) => v.rule);

describe('default rules: the dangerous corpus', () => {
  it('has every default rule represented', () => {
    expect(new Set(dangerous.map((d) => d.rule))).toEqual(new Set(defaultRules.map((r) => r.name)));
  });
  it.each(dangerous)('$rule blocks $command', ({ rule, command }) => {
    expect(blockedBy(command)).toContain(rule);
  });
  it('gives a reason that names the rule and the command', () => {
    const [v] = checkRules(defaultRuleEngine, 'shell', { command: 'sudo rm -rf /' });
    expect(v?.rule).toBe('no-recursive-delete-of-root');
    expect(v?.reason).toContain('rm -rf /');
  });
});

describe('default rules: no false positives', () => {
  it.each(harmless)('allows %s', (command) => {
    expect(blockedBy(command)).toEqual([]);
  });
  it('allows multi-line scripts with here-documents whose bodies mention dangerous commands', () => {
    expect(blockedBy('cat > notes.md <<EOF\nnever run rm -rf /\nEOF\nls -la')).toEqual([]);
    expect(blockedBy("cat <<'X'\nmkfs.ext4 /dev/sda\nX")).toEqual([]);
  });
  it('still sees the commands after a here-document', () => {
    expect(blockedBy('cat <<EOF\nhello\nEOF\nrm -rf /')).toContain('no-recursive-delete-of-root');
  });
});

describe('default rules: laws', () => {
  const dataRules = removeRule(removeRule(defaultRuleEngine, 'no-sensitive-files'), 'no-fork-bomb');
  it('a call with no command and no path breaks no default rule (so they need not run for it); rules that read the arguments still judge it', () => {
    const readsArgs = customRule({
      name: 'no-secret',
      description: 'blocks the word secret',
      check: (i) => (JSON.stringify(i.args).includes('secret') ? 'says secret' : undefined),
    });
    // a copy of a default rule is a rule of the user's: it runs whatever the call holds
    const copy = customRule({ ...defaultRules[0]!, name: 'copy' });
    const engine = addRule(addRule(defaultRuleEngine, readsArgs), copy);
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ maxLength: 8 }),
          fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('rm -rf /', '/etc/shadow', '~/.ssh/id_rsa', 'secret')),
        ),
        (args) => {
          const input = { tool: 'note', args, commands: [], paths: [] };
          for (const r of defaultRules) expect(r.check(input)).toBeUndefined();
          expect(checkRules(engine, 'note', args).map((v) => v.rule)).toEqual(JSON.stringify(args).includes('secret') ? ['no-secret'] : []);
        },
      ),
      { numRuns: 200 },
    );
    // the same rules, where the call holds a command or a path, still block it
    expect(checkRules(engine, 'shell', { command: 'rm -rf /' }).map((v) => v.rule)).toEqual(expect.arrayContaining(['no-recursive-delete-of-root', 'copy']));
    expect(checkRules(engine, 'read_file', { path: '/etc/shadow' }).map((v) => v.rule)).toContain('no-sensitive-files');
  });
  it('quoted data is never a command: git commit -m <any text> is allowed', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (s) => {
        expect(checkRules(dataRules, 'shell', { command: `git commit -m ${shellQuote(s)}` })).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
  it('a dangerous command stays blocked under wrappers, in scripts and in sequences', () => {
    const wrappers = [
      (c: string) => `sudo ${c}`,
      (c: string) => `env A=1 ${c}`,
      (c: string) => `nohup ${c} &`,
      (c: string) => `bash -c ${shellQuote(c)}`,
      (c: string) => `sh -c ${shellQuote(c)}`,
      (c: string) => `(${c})`,
      (c: string) => `true && ${c}`,
      (c: string) => `echo ok; ${c}`,
      (c: string) => `echo "$(${c})"`,
    ];
    const simple = dangerous.filter((d) => !d.command.includes("'") && !/[;&|(){}<>`$]/.test(d.command));
    fc.assert(
      fc.property(fc.constantFrom(...simple), fc.constantFrom(...wrappers), (d, wrap) => {
        expect(blockedBy(wrap(d.command))).toContain(d.rule);
      }),
      { numRuns: 300 },
    );
  });
  it('parsing never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        expect(() => checkRules(defaultRuleEngine, 'shell', { command: s })).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
  it('runs in linear time on long and deeply nested input', () => {
    const nested = `${'$('.repeat(5000)}rm -rf /${')'.repeat(5000)}`;
    expect(() => checkRules(defaultRuleEngine, 'shell', { command: nested })).not.toThrow();
    const long = 'echo a; '.repeat(8000);
    expect(checkRules(defaultRuleEngine, 'shell', { command: long })).toEqual([]);
  });
});

describe('rules and paths of the built-in tools', () => {
  it('blocks sensitive paths in file tool arguments', () => {
    expect(checkRules(defaultRuleEngine, 'read_file', { path: '.ssh/id_rsa' }).map((v) => v.rule)).toEqual(['no-sensitive-files']);
    expect(checkRules(defaultRuleEngine, 'write_file', { path: '/etc/passwd', content: '' }).map((v) => v.rule)).toContain('no-account-changes');
    expect(checkRules(defaultRuleEngine, 'move_file', { from: 'a', to: 'home/.gnupg/x' }).map((v) => v.rule)).toEqual(['no-sensitive-files']);
    expect(checkRules(defaultRuleEngine, 'read_file', { path: 'src/index.ts' })).toEqual([]);
  });
  it('reads bash run_code as commands, python not', () => {
    expect(checkRules(defaultRuleEngine, 'run_code', { language: 'bash', code: 'rm -rf /' }).map((v) => v.rule)).toEqual([
      'no-recursive-delete-of-root',
      'no-rm-rf',
    ]);
    expect(checkRules(defaultRuleEngine, 'run_code', { language: 'python', code: 'print("rm -rf /")' })).toEqual([]);
  });
  it('reading /etc/passwd is refused too (no-system-account-files), unless that rule is removed; writing it is refused twice', () => {
    expect(checkRules(defaultRuleEngine, 'read_file', { path: '/etc/passwd' }).map((v) => v.rule)).toEqual(['no-system-account-files']);
    expect(blockedBy('cat /etc/passwd')).toEqual(['no-system-account-files']);
    expect(blockedBy('echo x >> /etc/passwd')).toEqual(['no-account-changes', 'no-system-account-files']);
    const allowing = removeRule(defaultRuleEngine, 'no-system-account-files');
    expect(checkRules(allowing, 'shell', { command: 'cat /etc/passwd' })).toEqual([]);
    expect(checkRules(removeRule(defaultRuleEngine, 'no-rm-rf'), 'shell', { command: 'rm -rf build' })).toEqual([]);
  });
});

describe('user rules', () => {
  it('forbidden patterns match whole words in commands (a no-network-access rule)', () => {
    const engine = addRule(defaultRuleEngine, forbiddenPatternsRule({ name: 'no-network-access', patterns: ['curl', 'wget', 'nc'] }));
    const check = (command: string) => checkRules(engine, 'shell', { command }).map((v) => v.rule);
    expect(check('curl -s https://example.com')).toEqual(['no-network-access']);
    expect(check('/usr/bin/nc -l 8080')).toEqual(['no-network-access']);
    expect(check('echo curly braces; sync; cat nc.txt')).toEqual([]);
  });
  it('per tool and per argument, with regular expressions', () => {
    const r = forbiddenPatternsRule({ name: 'no-internal-urls', tools: ['web_fetch'], arguments: ['url'], patterns: [/\.internal\.example\.com/i] });
    const engine = ruleEngine([r]);
    expect(checkRules(engine, 'web_fetch', { url: 'https://API.internal.example.com/x' })[0]?.reason).toContain('argument "url"');
    expect(checkRules(engine, 'web_fetch', { url: 'https://example.com' })).toEqual([]);
    expect(checkRules(engine, 'shell', { command: 'curl https://api.internal.example.com' })).toEqual([]);
  });
  it('a regular expression with the g flag gives the same answer every time', () => {
    const engine = ruleEngine([forbiddenPatternsRule({ name: 'x', patterns: [/secret/g] })]);
    for (let i = 0; i < 3; i++) expect(checkRules(engine, 'any_tool', { note: 'a secret' })).toHaveLength(1);
  });
  it('without arguments or commands, looks at every string in the arguments', () => {
    const engine = ruleEngine([forbiddenPatternsRule({ name: 'no-drop', patterns: ['DROP TABLE'] })]);
    expect(checkRules(engine, 'sql', { query: { text: 'drop   TABLE users' } })).toEqual([]);
    expect(checkRules(engine, 'sql', { query: { text: 'x; DROP   TABLE users' } })[0]?.reason).toContain('argument "query"');
  });
  it('forbidden paths: globs in path arguments and in commands', () => {
    const engine = ruleEngine([forbiddenPathsRule({ name: 'no-env-files', paths: ['.env', 'secrets/**'] })], { pathArguments: { upload: ['file'] } });
    const check = (tool: string, args: object) => checkRules(engine, tool, args).map((v) => v.rule);
    expect(check('read_file', { path: 'config/.env' })).toEqual(['no-env-files']);
    expect(check('read_file', { path: './.env' })).toEqual(['no-env-files']);
    expect(check('read_file', { path: '.env.example' })).toEqual([]);
    expect(check('write_file', { path: 'secrets/db/key.txt', content: '' })).toEqual(['no-env-files']);
    expect(check('upload', { file: 'app/.env' })).toEqual(['no-env-files']);
    expect(check('shell', { command: 'cat .env' })).toEqual(['no-env-files']);
    expect(check('shell', { command: 'echo x > secrets/a' })).toEqual(['no-env-files']);
    expect(check('shell', { command: 'ls src' })).toEqual([]);
  });
  it('write-only path rules ignore reads', () => {
    const engine = ruleEngine([forbiddenPathsRule({ name: 'ro-config', paths: ['config/**'], access: 'write' })]);
    expect(checkRules(engine, 'read_file', { path: 'config/app.json' })).toEqual([]);
    expect(checkRules(engine, 'write_file', { path: 'config/app.json', content: '' })).toHaveLength(1);
    expect(checkRules(engine, 'shell', { command: 'cat config/app.json' })).toEqual([]);
    expect(checkRules(engine, 'shell', { command: 'echo 1 > config/app.json' })).toHaveLength(1);
  });
  it('command arguments of other tools can be declared', () => {
    const engine = ruleEngine(defaultRules, { commandArguments: { ssh_exec: ['script'] } });
    expect(checkRules(engine, 'ssh_exec', { script: 'sudo reboot' }).map((v) => v.rule)).toEqual(['no-system-shutdown']);
  });
  it('a rule that throws blocks the call and says so', () => {
    const engine = ruleEngine([
      customRule({
        name: 'broken',
        description: 'throws',
        check: () => {
          throw new Error('boom');
        },
      }),
    ]);
    expect(checkRules(engine, 'x', {})[0]?.reason).toContain('boom');
  });
  it('engines are immutable values', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z]{1,6}$/), { maxLength: 6 }), fc.stringMatching(/^[a-z]{1,6}$/), (names, extra) => {
        const rules = names.map((name) => customRule({ name, description: name, check: () => undefined }));
        const engine = ruleEngine(rules);
        const before = engine.rules.map((r) => r.name);
        const added = addRule(engine, customRule({ name: extra, description: extra, check: () => 'no' }));
        const removed = removeRule(engine, extra);
        expect(engine.rules.map((r) => r.name)).toEqual(before);
        expect(added.rules.filter((r) => r.name === extra)).toHaveLength(1);
        expect(removed.rules.some((r) => r.name === extra)).toBe(false);
        expect(removeRule(added, extra).rules.map((r) => r.name)).toEqual(before.filter((n) => n !== extra));
        expect(combineRuleEngines(engine, emptyRuleEngine).rules.map((r) => r.name)).toEqual(before);
      }),
    );
  });
});
