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
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CANONICAL_CODES, canonicalOf, codeInfo, defineCodes, isCanonicalCode } from '../../src/core/codes.js';
import { isLeft } from '../../src/core/either.js';
import { toAISDKTool } from '../../src/entries/ai-sdk.js';
import { newId } from '../../src/entries/catalog.js';
import { createMcpHttpHandler, type McpHttpHandler, staticToolSource } from '../../src/entries/mcp.js';
import { gateStep, invokeGated, type Policies, withPolicies } from '../../src/entries/policy.js';
import { createService, startServer } from '../../src/entries/server.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { bindTool, createInvoker, createTool, invoke, runAgent, type Tool, type ToolAnnotations, toolLibrary } from '../../src/index.js';
import { REGISTRY_FILES, SRC } from '../support/registries.js';
import {
  APPROVERS,
  agent,
  type Behaviour,
  type Codes,
  caseArb,
  implementation,
  lawful,
  lawfulHttp,
  OWN,
  registries,
  openProbeCatalog,
  probeBehaviours,
  spec,
} from './canonical-support.js';

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

  it('the binary and the root entry load every registry (cli/registries.ts, registries.ts), so each maps every registered code', () => {
    const imports = (file: string, dir: string): string[] =>
      [...readFileSync(join(SRC, file), 'utf8').matchAll(/^import '(\.\.?\/[^']+)\.js';$/gm)].map((m) => `${join(dir, m[1] as string)}.ts`);
    expect(imports(join('cli', 'registries.ts'), 'cli').sort()).toEqual([...REGISTRY_FILES].sort());
    expect(imports('registries.ts', '.').sort()).toEqual(REGISTRY_FILES.filter((f) => !f.startsWith('cli/')).sort());
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
        if (isLeft(bound)) throw new Error(JSON.stringify(bound.left));
        const check = (surface: string, r: { readonly ok: boolean; readonly error?: Codes }): void => {
          if (!r.ok) lawful(surface, r.error as Codes, c.behaviour);
        };

        check('invoke', await invoke(bound.right, args));
        check('invoker', await createInvoker([gateStep(gate)])(bound.right, args));
        check('invokeGated', await invokeGated(bound.right, args, gate));
        const wrapped = bindTool(spec, toolLibrary([withPolicies(tool, gate)]));
        if (isLeft(wrapped)) throw new Error(JSON.stringify(wrapped.left));
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

  it("holds on both REST APIs, on both paths: the status and retryable of a failure are its registry entry's", async () => {
    const behaviours = probeBehaviours(60);
    const catalog = await openProbeCatalog(join(dir, 'data'), behaviours);
    const service = createService({ catalog });
    const server = await startServer(service, { port: 0 });
    try {
      // each request through Hono's path (the service's fetch) and through the server (the invoke routes' direct path)
      const send = async (path: string, body: unknown): Promise<Array<{ via: string; status: number; json: Record<string, unknown> }>> =>
        Promise.all(
          [
            ['hono', (r: Request) => service.fetch(r)],
            ['server', (r: Request) => fetch(r)],
          ].map(async ([via, f]) => {
            const base = via === 'hono' ? 'http://127.0.0.1:8081' : server.url;
            const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
            const response = await (f as (r: Request) => Promise<Response>)(new Request(`${base}${path}`, init));
            return { via: via as string, status: response.status, json: (await response.json()) as Record<string, unknown> };
          }),
        );
      const refOf = async (name: string): Promise<string> => {
        const tool = (await (await service.fetch(new Request(`http://127.0.0.1:8081/api/v1/tools/${name}`))).json()) as Record<string, string>;
        return `/tools/bundles/${tool['bundle_id']}/tools/${tool['slug']}/version/${tool['version']}`;
      };
      const check = (surface: string, r: { status: number; json: Record<string, unknown> }, b: Behaviour): boolean => {
        if (r.status === 200 && r.json['ok'] !== false) return false;
        const result = r.status === 200;
        const e = (result ? r.json['error'] : r.json) as Codes & { retryable?: unknown };
        lawful(surface, e, b);
        lawfulHttp(surface, r.status, e, result);
        return true;
      };
      let failures = 0;
      const named: Array<[string, Behaviour]> = [
        ...behaviours.map((b, i): [string, Behaviour] => [`probe${i}`, b]),
        ['guarded', { kind: 'ok' }],
        ['confirmed', { kind: 'ok' }],
      ];
      for (const [name, b] of named) {
        const ref = await refOf(name);
        for (const args of [{ command: 'go' }, { command: 7 }]) {
          for (const r of await send(`/api/v1/tools/${name}/invoke`, args)) if (check(`registry API (${r.via}) ${name}`, r, b)) failures++;
          for (const r of await send(`${ref}/invoke`, { args })) if (check(`catalog API (${r.via}) ${name}`, r, b)) failures++;
        }
      }
      // an unknown tool: a problem too, on both APIs
      for (const path of ['/api/v1/tools/no_such_tool/invoke', `/tools/bundles/${newId()}/tools/none/version/1.0/invoke`])
        for (const r of await send(path, {})) {
          expect(r.status, path).toBe(404);
          check(`${path} (${r.via})`, r, { kind: 'ok' });
        }
      expect(failures).toBeGreaterThan(4 * behaviours.length);
    } finally {
      await server.close();
      await catalog.close();
    }
  });
});
