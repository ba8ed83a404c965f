/**
 * Attack class (issue 18, item 1): a command tool whose argv does what the `shell` built-in may
 * not. `rm -rf {dir}` registered as a tool deleted what `shell` refuses; the argv is now judged,
 * after template expansion, by the same safety rules (wrappers and `sh -c` scripts included, path
 * parameters as paths), whether the tool is made in code, declared in a file or bound from the
 * catalog. Harmless tools still run.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindTool, invoke, toolLibrary, type JsonObject, type Tool, type ToolResult, type ToolSpecification } from '../../src/index.js';
import { PolicyCodes, checkRules, defaultRuleEngine, emptyRuleEngine, forbiddenPatternsRule, ruleEngine, type RuleEngine } from '../../src/entries/policy.js';
import { commandTool, declaredTool, type CommandToolConfigInput } from '../../src/entries/tools.js';
import { workspace } from '../tools/builtin/support.js';

const spec = (name: string, params: ReadonlyArray<string>): ToolSpecification => ({
  name,
  description: `test tool ${name}`,
  typeSignature: '',
  schema: { type: 'object', properties: Object.fromEntries(params.map((p) => [p, { type: 'string' }])), required: [], additionalProperties: false },
  outputSchema: {},
});

const tool = (
  ws: string,
  argv: ReadonlyArray<string>,
  params: ReadonlyArray<string>,
  extra: Partial<CommandToolConfigInput> = {},
  rules?: RuleEngine,
): ((args: JsonObject) => Promise<ToolResult>) => {
  const s = spec('t', params);
  const t = commandTool(s, { argv, sandbox: 'none', env: ['PATH'], ...extra } as CommandToolConfigInput, {
    workspace: ws,
    env: { PATH: '/usr/bin:/bin' },
    ...(rules !== undefined ? { rules } : {}),
  });
  if (t._tag === 'Left') throw new Error(t.left.map((d) => d.message).join('; '));
  const b = bindTool(s, toolLibrary([t.right as Tool]));
  if (b._tag === 'Left') throw new Error('bind');
  return (args) => invoke(b.right, args);
};

const code = (r: ToolResult): string => (r.ok ? 'ok' : r.error.reason);

describe('attack: command tools judged by the shell rules', () => {
  it('`rm -rf {dir}` as a tool deletes nothing that `shell` may not delete', async () => {
    const s = workspace();
    s.file('victim/data.txt', 'keep');
    // what the shell tool refuses
    expect(checkRules(defaultRuleEngine, 'shell', { command: 'rm -rf victim' }).map((v) => v.rule)).toContain('no-rm-rf');
    const rmrf = tool(s.ws, ['rm', '-rf', '{dir}'], ['dir']);
    const r = await rmrf({ dir: 'victim' });
    expect(code(r)).toBe(PolicyCodes.DENIED);
    if (!r.ok) expect(r.error.message).toContain('no-rm-rf');
    expect(existsSync(path.join(s.ws, 'victim', 'data.txt'))).toBe(true);
  });

  it('wrappers, `sh -c` scripts and values spliced into words are read as the program gets them', async () => {
    const s = workspace();
    s.file('victim/data.txt', 'keep');
    const attempts: ReadonlyArray<readonly [ReadonlyArray<string>, JsonObject]> = [
      [['sh', '-c', '{c}'], { c: 'rm -rf victim' }],
      [['env', 'nice', 'rm', '{flags}', '{dir}'], { flags: '-rf', dir: 'victim' }],
      [['sh', '-c', 'rm {opts} "$1"', 'sh', '{dir}'], { opts: '-r -f', dir: 'victim' }],
      [['timeout', '10', 'rm', '--recursive', '--force={x}', 'victim'], { x: '' }],
      [['cat', '{f}'], { f: '/etc/shadow' }],
      [['cat', '--', '{f}'], { f: '.ssh/id_rsa' }],
    ];
    for (const [argv, args] of attempts) {
      const params = Object.keys(args);
      const r = await tool(s.ws, argv, params, { allowLeadingDash: true })(args);
      expect(code(r), argv.join(' ')).toBe(PolicyCodes.DENIED);
    }
    expect(existsSync(path.join(s.ws, 'victim', 'data.txt'))).toBe(true);
  });

  it('path parameters are paths to the rules', async () => {
    const s = workspace();
    s.file('.aws/credentials', '[default]\naws_access_key_id = AKIAXXXXXXXXXXXXXXXX\n');
    const r = await tool(s.ws, ['cat', '{file}'], ['file'], { pathParameters: ['file'] })({ file: '.aws/credentials' });
    expect(code(r)).toBe(PolicyCodes.DENIED);
  });

  it('a declared tool and a tool bound from a file meet the same rules; the rules given replace the defaults', async () => {
    const s = workspace();
    s.file('victim/data.txt', 'keep');
    const declared: ToolSpecification = { ...spec('wipe', ['dir']), metadata: { command: { argv: ['rm', '-rf', '{dir}'], sandbox: 'none' } } };
    const t = declaredTool(declared, { workspace: s.ws });
    if (t === undefined || t._tag === 'Left') throw new Error('declare');
    const b = bindTool(declared, toolLibrary([t.right as Tool]));
    if (b._tag === 'Left') throw new Error('bind');
    expect(code(await invoke(b.right, { dir: 'victim' }))).toBe(PolicyCodes.DENIED);
    expect(existsSync(path.join(s.ws, 'victim', 'data.txt'))).toBe(true);
    // a user's rule for `shell` applies to command tools too; no rules at all lets it run
    const custom = ruleEngine([forbiddenPatternsRule({ name: 'no-echo', patterns: ['echo'], tools: ['shell'] })]);
    expect(code(await tool(s.ws, ['echo', '{x}'], ['x'], {}, custom)({ x: 'hi' }))).toBe(PolicyCodes.DENIED);
    expect(code(await tool(s.ws, ['rm', '-rf', '{dir}'], ['dir'], {}, emptyRuleEngine)({ dir: 'victim' }))).toBe('ok');
    expect(existsSync(path.join(s.ws, 'victim'))).toBe(false);
  });

  it('harmless command tools still run', async () => {
    const s = workspace();
    s.file('notes/a.txt', 'hello');
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, JsonObject]> = [
      [['cat', '{file}'], { file: 'notes/a.txt' }],
      [['ls', '-la', '{dir}'], { dir: 'notes' }],
      [['sh', '-c', 'wc -c < "$1"', 'sh', '{file}'], { file: 'notes/a.txt' }],
      [['echo', '{text}'], { text: "it's rm -rf / in a quote; $(whoami)" }],
    ];
    for (const [argv, args] of cases) expect(code(await tool(s.ws, argv, Object.keys(args))(args)), argv.join(' ')).toBe('ok');
  });
});
