/**
 * One gate (issue 12): every caller of a tool puts a call through `passGate`, so they cannot
 * disagree. Checked as a law over permissions, safety levels, approval requirements, the default
 * rules, approvers (yes, no, a change of the arguments, one that throws, none) and arguments:
 * the gate itself, `invokeGated` (what `gramkit invoke` and MCP servers call), `withPolicies`
 * around a tool, and an agent run, agree on whether the tool runs, with which arguments, and
 * on the code of a refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Approver, defaultRuleEngine, invokeGated, passGate, type Policies, withPolicies } from '../../src/entries/policy.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { bindTool, createTool, invoke, parseSpecifications, runAgent, type SafetyLevel, type Tool, type ToolAnnotations, toolLibrary } from '../../src/index.js';

const parsed = parseSpecifications(
  `[shell:Tool {description: "Runs a command"} | (command::String)==>(::Any)]
[helper:Agent {description: "A test agent", instruction: "Use the tool."} | shell]`,
  { filename: 'gate.gram' },
);
if (parsed._tag === 'Left') throw new Error(JSON.stringify(parsed.left));
const spec = parsed.right.tools[0] as (typeof parsed.right.tools)[number];
const agent = parsed.right.agents[0] as (typeof parsed.right.agents)[number];

/** The tool answers with the arguments it ran with. */
const shell = (annotations: ToolAnnotations): Tool => createTool(spec.name, spec.description, spec.schema, (args: unknown) => ({ ran: args }), { annotations });

/** What a caller saw: the tool ran with these arguments, or a refusal with this code. */
type Seen = { readonly ran: unknown } | { readonly refused: string };
const seen = (r: { readonly ok: boolean; readonly value?: unknown; readonly error?: { readonly code: string } }): Seen =>
  r.ok ? { ran: (r.value as { ran: unknown }).ran } : { refused: (r.error as { code: string }).code };

const APPROVERS: Readonly<Record<string, Approver | undefined>> = {
  none: undefined,
  yes: async () => ({ approved: true }),
  no: async () => ({ approved: false, message: 'no' }),
  'changes to ls': async () => ({ approved: true, modifiedArgs: { command: 'ls -l' } }),
  'changes to rm -rf': async () => ({ approved: true, modifiedArgs: { command: 'rm -rf /' } }),
  'changes to nonsense': async () => ({ approved: true, modifiedArgs: { command: 3 } }),
  throws: async () => {
    throw new Error('approver down');
  },
};

const PERMISSIONS = ['fs:read', 'fs:write', 'proc:exec', 'net:read'];

const caseArb = fc.record({
  permissions: fc.subarray(PERMISSIONS),
  safetyLevel: fc.constantFrom<SafetyLevel | undefined>(undefined, 'low', 'medium', 'high'),
  approval: fc.constantFrom<ToolAnnotations['approval'] | undefined>(undefined, 'auto', 'confirm', (args: unknown) => JSON.stringify(args).includes('cat')),
  allowed: fc.option(fc.subarray(PERMISSIONS), { nil: undefined }),
  rules: fc.boolean(),
  approver: fc.constantFrom(...Object.keys(APPROVERS)),
  command: fc.constantFrom<unknown>('ls', 'cat notes.txt', 'rm -rf /', 'cat /etc/shadow', 7),
});

describe('one gate for every caller', () => {
  it('the gate, invokeGated, withPolicies and the agent agree on what runs and on refusals', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const annotations: ToolAnnotations = {
          permissions: c.permissions,
          ...(c.safetyLevel !== undefined ? { safetyLevel: c.safetyLevel } : {}),
          ...(c.approval !== undefined ? { approval: c.approval } : {}),
        };
        const policies: Policies = { ...(c.allowed !== undefined ? { permissions: { allowed: c.allowed } } : {}), ...(c.rules ? { rules: defaultRuleEngine } : {}) };
        const approver = APPROVERS[c.approver];
        const gate = { policies, ...(approver !== undefined ? { approver } : {}) };
        const args = { command: c.command };
        const tool = shell(annotations);
        const valid = typeof c.command === 'string';

        // the gate itself, then invoke with the arguments it lets through
        const outcome = await passGate({ tool: spec.name, args, annotations, schema: spec.schema }, gate);
        const bound = bindTool(spec, toolLibrary([tool]));
        if (bound._tag === 'Left') throw new Error(JSON.stringify(bound.left));
        const reference = outcome.refused !== undefined ? seen(outcome.refused) : seen(await invoke(bound.right, outcome.args));

        // gramkit invoke and MCP servers
        expect(seen(await invokeGated(bound.right, args, gate))).toEqual(reference);

        // an agent run: the model calls the tool once, then answers
        const model = scriptedModel([{ toolCalls: [{ name: spec.name, arguments: args }] }, { text: 'done' }]);
        const run = await runAgent(agent, toolLibrary([tool]), 'go', { model, policies, ...(approver !== undefined ? { approve: approver } : {}) });
        if (!run.ok) throw new Error(`${run.error.code}: ${run.error.message}`);
        expect(run.value.toolsUsed.map((u) => seen(u.result))).toEqual([reference]);

        // withPolicies: the gate runs inside the tool, after invoke has validated the caller's
        // arguments, so invalid arguments are refused as such before any policy is asked
        const wrapped = bindTool(spec, toolLibrary([withPolicies(tool, gate)]));
        if (wrapped._tag === 'Left') throw new Error(JSON.stringify(wrapped.left));
        expect(seen(await invoke(wrapped.right, args))).toEqual(valid ? reference : { refused: 'TOOL_INVALID_ARGUMENTS' });
      }),
      { numRuns: 300 },
    );
  });
});
