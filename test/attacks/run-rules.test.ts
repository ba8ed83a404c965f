/**
 * Attack class: rules given to a run, not to the built-in library (issue 18, item 8). A
 * `forbiddenPathsRule` in a run's `policies.rules` (as docs/policies.md shows) refused `read_file
 * config/.env`, but `read_file` of a link to it and `text_search` with `includeHidden` returned its
 * contents: the built-ins checked the real paths against their own `builtinLibrary({rules})` only.
 * The rules that judged the call now reach the built-ins (`ctx.rules`): one rule engine per call,
 * through the agent loop and through `invokeGated` (what `gramkit invoke` runs).
 */
import { symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindAll, runAgent, type AgentSpecification } from '../../src/index.js';
import { builtinLibrary, builtinSpecifications } from '../../src/entries/builtins.js';
import { addRule, defaultRuleEngine, forbiddenPathsRule, invokeGated, PolicyCodes } from '../../src/entries/policy.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { workspace } from '../tools/builtin/support.js';

const KEY = 'sk-live-run-rules-0123456789';

const setup = () => {
  const s = workspace();
  s.file('config/.env', `API_KEY=${KEY}\n`);
  s.file('notes/readme.md', 'nothing here\n');
  symlinkSync('../config/.env', path.join(s.ws, 'notes', 'env-link.txt'));
  // the library keeps its default rules; the run adds its own
  const rules = addRule(defaultRuleEngine, forbiddenPathsRule({ name: 'no-env-files', paths: ['.env'] }));
  return { s, rules };
};

const CALLS = [
  { name: 'read_file', arguments: { path: 'config/.env' } },
  { name: 'read_file', arguments: { path: 'notes/env-link.txt' } },
  { name: 'text_search', arguments: { pattern: 'API_KEY', includeHidden: true } },
  { name: 'text_search', arguments: { pattern: 'API_KEY', includeHidden: true, path: 'config' } },
  { name: 'text_search', arguments: { pattern: 'API_KEY', path: 'notes/env-link.txt' } },
];

const agent: AgentSpecification = {
  name: 'reader',
  description: 'reads files',
  instruction: 'Do as asked.',
  tools: builtinSpecifications().filter((s) => ['read_file', 'text_search'].includes(s.name)),
};

describe("attack: a run's rules reach the built-ins' real-path checks", () => {
  it('an agent run with policies.rules never returns the forbidden file, through links or searches', async () => {
    const { s, rules } = setup();
    const model = scriptedModel([{ toolCalls: CALLS.map((c, i) => ({ id: `c${i}`, ...c })) }, { text: 'done' }]);
    const r = await runAgent(agent, builtinLibrary({ workspace: s.ws }), 'read', { model, policies: { rules } });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.toolsUsed).toHaveLength(CALLS.length);
    for (const u of r.value.toolsUsed) expect(JSON.stringify(u.result), `${u.name} ${JSON.stringify(u.args)}`).not.toContain(KEY);
    // the link is refused by the run's rule, naming it
    const link = r.value.toolsUsed[1]?.result;
    expect(link === undefined || link.ok ? 'ok' : link.error.reason).toBe(PolicyCodes.DENIED);
    expect(JSON.stringify(link)).toContain('no-env-files');
  });

  it('invokeGated with the rules (gramkit invoke) refuses the same calls', async () => {
    const { s, rules } = setup();
    const bound = bindAll(builtinSpecifications(), builtinLibrary({ workspace: s.ws }));
    if (bound._tag === 'Left') throw new Error('bind');
    for (const c of CALLS) {
      const tool = bound.right.byName.get(c.name);
      if (tool === undefined) throw new Error(c.name);
      const result = await invokeGated(tool, c.arguments, { policies: { rules } });
      expect(JSON.stringify(result), `${c.name} ${JSON.stringify(c.arguments)}`).not.toContain(KEY);
    }
    // a file the rules allow is still read
    const read = await invokeGated(bound.right.byName.get('read_file') as never, { path: 'notes/readme.md' }, { policies: { rules } });
    expect(read.ok).toBe(true);
  });
});
