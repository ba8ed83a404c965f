/**
 * Your own safety rules on top of the defaults (docs/policies.md shows this file). Run it:
 * `npx tsx examples/custom-rules.ts`.
 */
import { pathToFileURL } from 'node:url';
import { addRule, checkRules, customRule, defaultRuleEngine, forbiddenPathsRule, forbiddenPatternsRule } from 'gramkit/policy';

let rules = addRule(defaultRuleEngine, forbiddenPatternsRule({ name: 'no-network-access', patterns: ['curl', 'wget', 'nc'] }));
rules = addRule(rules, forbiddenPathsRule({ name: 'no-env-files', paths: ['.env', 'secrets/**'] }));
rules = addRule(rules, forbiddenPatternsRule({ name: 'no-internal-urls', tools: ['web_fetch'], arguments: ['url'], patterns: [/\.internal\./] }));
rules = addRule(
  rules,
  customRule({
    name: 'small-writes',
    description: 'writes under 10 kB',
    tools: ['write_file'],
    check: ({ args }) => (String(args['content']).length > 10_000 ? 'content over 10 kB' : undefined),
  }),
);

/** What the rules say about a few calls: `tool args → allowed` or the rules that block it. */
export const customRulesTour = (): string[] =>
  (
    [
      ['shell', { command: 'curl -s https://example.com' }],
      ['shell', { command: 'cat config/.env' }],
      ['shell', { command: 'ls -la && git status' }],
      ['read_file', { path: 'secrets/api-key.txt' }],
      ['web_fetch', { url: 'https://wiki.internal.example.com/' }],
      ['write_file', { path: 'big.txt', content: 'x'.repeat(20_000) }],
      ['shell', { command: 'sudo rm -rf /' }],
    ] as const
  ).map(([tool, args]) => {
    const v = checkRules(rules, tool, args);
    const shown = JSON.stringify(args).slice(0, 60);
    return `${tool} ${shown} → ${v.length === 0 ? 'allowed' : v.map((x) => x.rule).join(', ')}`;
  });

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of customRulesTour()) process.stdout.write(`${line}\n`);
}
