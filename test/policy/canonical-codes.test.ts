/**
 * Canonical codes on every surface (issue 22): a failure's `code` is one of the canonical codes
 * (core/codes.ts `CANONICAL_CODES`) and its `reason` the precise code, whose registry entry maps
 * it to that canonical code. Checked as a law over the ways a call fails (an implementation that
 * throws a `ToolFailure` or returns `fail(...)` with any registered precise code of a result
 * registry or a code of its own, that throws anything else, that returns something not JSON;
 * arguments that do not validate; a policy's refusal; approval without approver or refused) on
 * the surfaces of the one-invoker law (test/policy/one-invoker.test.ts): `invoke`, an invoker with
 * the gate step, `invokeGated`, `withPolicies`, an agent run (its results and the tool messages the
 * model reads), an MCP server (`_meta["gramkit/error"]`), the AI SDK adapter, and the REST API of
 * `gramkit serve` (a result, or a problem document with `code` and `reason`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CANONICAL_CODES, canonicalOf, codeInfo, defineCodes, isCanonicalCode } from '../../src/core/codes.js';
import { toAISDKTool } from '../../src/entries/ai-sdk.js';
import { openCatalog, openFileStore } from '../../src/entries/catalog.js';
import { createMcpHttpHandler, type McpHttpHandler, staticToolSource } from '../../src/entries/mcp.js';
import { type Approver, gateStep, invokeGated, type Policies, withPolicies } from '../../src/entries/policy.js';
import { createService } from '../../src/entries/server.js';
import { scriptedModel } from '../../src/entries/testing.js';
import {
  bindTool,
  createInvoker,
  createTool,
  fail,
  invoke,
  parseSpecifications,
  runAgent,
  type Tool,
  ToolFailure,
  type ToolAnnotations,
  toolLibrary,
} from '../../src/index.js';
import { loadRegistries } from '../support/registries.js';

const registries = await loadRegistries();
/** Diagnostics are not failures of a result: their registries are left out. */
const DIAGNOSTICS = new Set(['GRAM', 'SPEC', 'SPEC_ARG', 'SPEC_IMPORT', 'SPEC_DIALECT']);
const RESULT_CODES = registries.filter((r) => !DIAGNOSTICS.has(r.prefix)).flatMap((r) => r.codes.map((c) => c.code));
const OWN = 'WEATHER_UNKNOWN_CITY';

const parsed = parseSpecifications(
  `[probe:Tool {description: "Fails as it is told"} | (command::String)==>(::Any)]
[helper:Agent {description: "A test agent", instruction: "Use the tool."} | probe]`,
  { filename: 'canonical.gram' },
);
if (parsed._tag === 'Left') throw new Error(JSON.stringify(parsed.left));
const spec = parsed.right.tools[0] as (typeof parsed.right.tools)[number];
const agent = parsed.right.agents[0] as (typeof parsed.right.agents)[number];

type Behaviour =
  | { readonly kind: 'throws' | 'returns'; readonly reason: string; readonly canonical?: keyof typeof CANONICAL_CODES }
  | { readonly kind: 'error' | 'not-json' | 'ok' };

const behaviourArb: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.record({ kind: fc.constantFrom<'throws' | 'returns'>('throws', 'returns'), reason: fc.constantFrom(...RESULT_CODES, OWN) }),
  fc.record({
    kind: fc.constantFrom<'throws' | 'returns'>('throws', 'returns'),
    reason: fc.constant(OWN),
    canonical: fc.constantFrom(...(Object.keys(CANONICAL_CODES) as Array<keyof typeof CANONICAL_CODES>)),
  }),
  fc.record({ kind: fc.constantFrom<'error' | 'not-json' | 'ok'>('error', 'not-json', 'ok') }),
);

const APPROVERS: Readonly<Record<string, Approver | undefined>> = {
  none: undefined,
  yes: async () => ({ approved: true }),
  no: async () => ({ approved: false, message: 'no' }),
};

const caseArb = fc.record({
  behaviour: behaviourArb,
  denied: fc.boolean(),
  confirm: fc.boolean(),
  approver: fc.constantFrom(...Object.keys(APPROVERS)),
  valid: fc.boolean(),
});

const implementation = (b: Behaviour) => (): unknown => {
  switch (b.kind) {
    case 'throws':
      throw new ToolFailure(b.reason, 'told to fail', b.canonical !== undefined ? { code: b.canonical } : {});
    case 'returns':
      return fail(b.reason, 'told to fail', b.canonical !== undefined ? { code: b.canonical } : {});
    case 'error':
      throw new TypeError('a bug');
    case 'not-json':
      return { f: () => 1 };
    default:
      return 'fine';
  }
};

/** What a surface reports of a failure: its two codes. */
interface Codes {
  readonly code: unknown;
  readonly reason: unknown;
}

/** The law: a canonical `code`, and a `reason` whose registry maps it to that code (an own code: the one given, else EXECUTION_ERROR). */
const lawful = (surface: string, e: Codes, b: Behaviour): void => {
  expect(typeof e.code === 'string' && isCanonicalCode(e.code), `${surface}: code ${String(e.code)} is canonical`).toBe(true);
  expect(typeof e.reason, `${surface}: reason`).toBe('string');
  const reason = e.reason as string;
  const info = codeInfo(reason);
  if (info !== undefined) expect(e.code, `${surface}: ${reason} maps to ${info.canonical}`).toBe(info.canonical);
  else {
    expect(reason, `${surface}: an unregistered reason is the implementation's own`).toBe(OWN);
    expect(e.code, `${surface}: ${reason}`).toBe(
      'kind' in b && b.kind !== 'error' && 'canonical' in b && b.canonical !== undefined ? b.canonical : 'EXECUTION_ERROR',
    );
  }
};

const handlers: McpHttpHandler[] = [];
const dir = mkdtempSync(join(tmpdir(), 'gramkit-canonical-'));
afterAll(async () => {
  for (const h of handlers) await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const mcpCall = async (h: McpHttpHandler, args: unknown): Promise<Codes | undefined> => {
  const response = await h.fetch(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: spec.name, arguments: args } }),
    }),
  );
  const text = await response.text();
  const data = text.includes('data: ') ? (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6) : text;
  const result = (JSON.parse(data) as { result: { isError?: boolean; _meta?: Record<string, Codes> } }).result;
  return result.isError === true ? (result._meta?.['gramkit/error'] as Codes) : undefined;
};

describe('canonical codes', () => {
  it('every registered code has a canonical code; a canonical code maps to itself; anything else is EXECUTION_ERROR', () => {
    for (const r of registries) for (const c of r.codes) expect(isCanonicalCode(c.canonical), c.code).toBe(true);
    for (const code of Object.keys(CANONICAL_CODES)) expect(canonicalOf(code)).toBe(code);
    expect(canonicalOf(OWN)).toBe('EXECUTION_ERROR');
    // the registry forces the choice (at run time too: a JavaScript caller without types)
    expect(() => defineCodes('test', 'CANONICAL_TEST', { NONE: { summary: 's', hint: 'h' } } as never)).toThrow(/no canonical code/);
    expect(codeInfo('CANONICAL_TEST_NONE')).toBeUndefined();
  });

  it('holds on every surface: code canonical, reason precise and mapped by its registry', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const annotations: ToolAnnotations = { permissions: ['proc:exec'], ...(c.confirm ? { approval: 'confirm' as const } : {}) };
        const tool: Tool = createTool(spec.name, spec.description, spec.schema, implementation(c.behaviour), { annotations });
        const policies: Policies = c.denied ? { permissions: { allowed: [] } } : {};
        const approver = APPROVERS[c.approver];
        const gate = { policies, ...(approver !== undefined ? { approver } : {}) };
        const args = { command: c.valid ? 'go' : 7 };
        const bound = bindTool(spec, toolLibrary([tool]));
        if (bound._tag === 'Left') throw new Error(JSON.stringify(bound.left));
        const check = (surface: string, r: { readonly ok: boolean; readonly error?: Codes }): void => {
          if (!r.ok) lawful(surface, r.error as Codes, c.behaviour);
        };

        check('invoke', await invoke(bound.right, args));
        check('invoker', await createInvoker([gateStep(gate)])(bound.right, args));
        check('invokeGated', await invokeGated(bound.right, args, gate));
        const wrapped = bindTool(spec, toolLibrary([withPolicies(tool, gate)]));
        if (wrapped._tag === 'Left') throw new Error(JSON.stringify(wrapped.left));
        check('withPolicies', await invoke(wrapped.right, args));

        const model = scriptedModel([{ toolCalls: [{ name: spec.name, arguments: args }] }, { text: 'done' }]);
        const run = await runAgent(agent, toolLibrary([tool]), 'go', { model, policies, ...(approver !== undefined ? { approve: approver } : {}) });
        if (!run.ok) throw new Error(`${run.error.reason}: ${run.error.message}`);
        for (const u of run.value.toolsUsed) check('agent', u.result);
        for (const m of run.value.messages)
          if (m.role === 'tool' && m.isError === true) lawful('agent tool message', (JSON.parse(m.content) as { error: Codes }).error, c.behaviour);

        const h = createMcpHttpHandler(staticToolSource([bound.right]), { policies, ...(approver !== undefined ? { approver } : {}) });
        handlers.push(h);
        const mcp = await mcpCall(h, args);
        if (mcp !== undefined) lawful('mcp', mcp, c.behaviour);

        const sdk = toAISDKTool(bound.right, { steps: [gateStep(gate)], failures: 'result' }) as unknown as {
          execute: (input: unknown, o: object) => Promise<unknown>;
        };
        const out = (await sdk.execute(args, { toolCallId: 'c1' })) as { error?: Codes };
        if (out.error !== undefined) lawful('ai-sdk', out.error, c.behaviour);
      }),
      { numRuns: 120 },
    );
  });

  it('holds on the REST API: a failed result, or a problem document with code and reason', async () => {
    const behaviours = fc.sample(behaviourArb, { numRuns: 60, seed: 22 });
    const tools = behaviours.map((b, i) => createTool(`probe${i}`, 'Fails as it is told', spec.schema, implementation(b), {}));
    const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [], functions: toolLibrary(tools) });
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const discovered = await opened.value.discover();
      expect(discovered.ok).toBe(true);
      const service = createService({ catalog: opened.value });
      const post = async (id: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
        const response = await service.fetch(
          new Request(`http://127.0.0.1:8081/api/v1/tools/${id}/invoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        );
        return { status: response.status, json: (await response.json()) as Record<string, unknown> };
      };
      let failures = 0;
      for (const [i, b] of behaviours.entries()) {
        for (const args of [{ command: 'go' }, { command: 7 }]) {
          const r = await post(`probe${i}`, args);
          if (r.status === 200 && r.json['ok'] === false) lawful('rest result', r.json['error'] as Codes, b);
          else if (r.status !== 200) lawful('rest problem', r.json as unknown as Codes, b);
          if (r.status !== 200 || r.json['ok'] === false) failures++;
        }
      }
      // unknown tool: a problem too
      const missing = await post('no_such_tool', {});
      expect(missing.status).toBe(404);
      lawful('rest problem', missing.json as unknown as Codes, { kind: 'ok' });
      expect(failures).toBeGreaterThan(behaviours.length);
    } finally {
      await opened.value.close();
    }
  });
});
