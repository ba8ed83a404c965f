/**
 * One invoker (issues 12 and 22): every surface runs a call through the invoker built from steps
 * (library/invoker.ts) with the one gate step, so they cannot disagree. Checked as a law over
 * permissions, safety levels, approval requirements, the default rules, approvers (yes, no, a
 * change of the arguments, one that throws, none) and arguments: the gate itself followed by
 * `invoke` (the reference), an invoker built with `gateStep`, `invokeGated` (`gramkit invoke`),
 * `withPolicies` around a tool, an agent run, an MCP server with policies (`gramkit mcp`, through
 * its HTTP handler) and the AI SDK adapter with the gate step agree on whether the tool runs, with
 * which arguments, and on the precise code (`reason`) of a refusal. Arguments that do not validate are refused as
 * such (`TOOL_INVALID_ARGUMENTS`) on every surface, before any policy is asked: the invoker
 * validates once, first.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpHttpHandler, type McpHttpHandler, staticToolSource } from '../../src/entries/mcp.js';
import { type Approver, defaultRuleEngine, gateStep, invokeGated, passGate, type Policies, withPolicies } from '../../src/entries/policy.js';
import { toAISDKTool } from '../../src/entries/ai-sdk.js';
import { scriptedModel } from '../../src/entries/testing.js';
import {
  type BoundTool,
  bindTool,
  createInvoker,
  createTool,
  invoke,
  parseSpecifications,
  runAgent,
  type SafetyLevel,
  type Tool,
  type ToolAnnotations,
  toolLibrary,
} from '../../src/index.js';

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
const seen = (r: { readonly ok: boolean; readonly value?: unknown; readonly error?: { readonly reason: string } }): Seen =>
  r.ok ? { ran: (r.value as { ran: unknown }).ran } : { refused: (r.error as { reason: string }).reason };

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

/** One `tools/call` through an MCP HTTP handler, as a result: `{ran}` or `{refused: code}`. */
const mcpCall = async (h: McpHttpHandler, args: unknown): Promise<Seen> => {
  const response = await h.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: spec.name, arguments: args } }),
    }),
  );
  const text = await response.text();
  const data = text.includes('data: ') ? (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6) : text;
  const result = (JSON.parse(data) as { result: { isError?: boolean; content: Array<{ text: string }>; _meta?: Record<string, { reason: string }> } }).result;
  if (result.isError === true) return { refused: (result._meta?.['gramkit/error'] as { reason: string }).reason };
  return { ran: (JSON.parse(result.content[0]?.text ?? 'null') as { ran: unknown }).ran };
};

/** One call through the AI SDK adapter with the gate step (`failures: 'result'`). */
const aiSdkCall = async (bound: BoundTool, gate: Parameters<typeof gateStep>[0], args: unknown): Promise<Seen> => {
  const t = toAISDKTool(bound, { steps: [gateStep(gate)], failures: 'result' }) as unknown as { execute: (input: unknown, o: object) => Promise<unknown> };
  const out = (await t.execute(args, { toolCallId: 'c1' })) as { ran?: unknown; error?: { reason: string } };
  return out.error !== undefined ? { refused: out.error.reason } : { ran: out.ran };
};

const handlers: McpHttpHandler[] = [];
afterAll(async () => {
  for (const h of handlers) await h.close();
});

describe('one invoker for every surface', () => {
  it('the gate, the invoker, invokeGated, withPolicies, the agent, an MCP server and the AI SDK adapter agree on what runs and on refusals', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const annotations: ToolAnnotations = {
          permissions: c.permissions,
          ...(c.safetyLevel !== undefined ? { safetyLevel: c.safetyLevel } : {}),
          ...(c.approval !== undefined ? { approval: c.approval } : {}),
        };
        const policies: Policies = {
          ...(c.allowed !== undefined ? { permissions: { allowed: c.allowed } } : {}),
          ...(c.rules ? { rules: defaultRuleEngine } : {}),
        };
        const approver = APPROVERS[c.approver];
        const gate = { policies, ...(approver !== undefined ? { approver } : {}) };
        const args = { command: c.command };
        const tool = shell(annotations);
        const valid = typeof c.command === 'string';

        // the reference: the gate itself, then invoke with the arguments it lets through; arguments
        // that do not validate are refused as such first
        const bound = bindTool(spec, toolLibrary([tool]));
        if (bound._tag === 'Left') throw new Error(JSON.stringify(bound.left));
        const outcome = await passGate({ tool: spec.name, args, annotations, schema: spec.schema }, gate);
        const reference: Seen = !valid
          ? { refused: 'TOOL_INVALID_ARGUMENTS' }
          : outcome.refused !== undefined
            ? seen(outcome.refused)
            : seen(await invoke(bound.right, outcome.args));

        // an invoker built with the gate step
        expect(seen(await createInvoker([gateStep(gate)])(bound.right, args))).toEqual(reference);

        // gramkit invoke
        expect(seen(await invokeGated(bound.right, args, gate))).toEqual(reference);

        // an agent run: the model calls the tool once, then answers
        const model = scriptedModel([{ toolCalls: [{ name: spec.name, arguments: args }] }, { text: 'done' }]);
        const run = await runAgent(agent, toolLibrary([tool]), 'go', { model, policies, ...(approver !== undefined ? { approve: approver } : {}) });
        if (!run.ok) throw new Error(`${run.error.reason}: ${run.error.message}`);
        expect(run.value.toolsUsed.map((u) => seen(u.result))).toEqual([reference]);

        // withPolicies: the gate inside the tool, after invoke validated the arguments
        const wrapped = bindTool(spec, toolLibrary([withPolicies(tool, gate)]));
        if (wrapped._tag === 'Left') throw new Error(JSON.stringify(wrapped.left));
        expect(seen(await invoke(wrapped.right, args))).toEqual(reference);

        // gramkit mcp (and any MCP server with policies): tools/call over its HTTP handler
        const h = createMcpHttpHandler(staticToolSource([bound.right]), { policies, ...(approver !== undefined ? { approver } : {}) });
        handlers.push(h);
        expect(await mcpCall(h, args)).toEqual(reference);

        // the AI SDK adapter with the gate step
        expect(await aiSdkCall(bound.right, gate, args)).toEqual(reference);
      }),
      { numRuns: 150 },
    );
  });
});
