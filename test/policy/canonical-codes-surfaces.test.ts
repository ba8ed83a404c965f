/**
 * Canonical codes on the surfaces test/policy/canonical-codes.test.ts does not reach (issue 22):
 * `gramkit mcp` over stdio (through the MCP SDK's client), `gramkit serve`'s `/mcp` (the catalog's
 * mount, over Streamable HTTP, with the token), and experiments (`runExperiment`: the tool calls of
 * its runs and the report's errors by code). The same law and the same generated behaviours
 * (canonical-support.ts): a failure's `code` is canonical and its `reason` the precise code its
 * registry maps to that code; on MCP, `retryable` is also the registry's when it says true or false.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { codeInfo } from '../../src/core/codes.js';
import { ALL_SCOPES, catalogMcpMount, createService, startServer } from '../../src/entries/server.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { createTool, runExperiment, type ToolAnnotations, toolLibrary } from '../../src/index.js';
import {
  APPROVERS,
  agent,
  type Behaviour,
  type Codes,
  caseArb,
  implementation,
  lawful,
  openProbeCatalog,
  probeBehaviours,
  spec,
  writeProbes,
} from './canonical-support.js';

const CLI = new URL('../../dist/cli.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'gramkit-canonical-surfaces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const behaviours: ReadonlyArray<Behaviour> = probeBehaviours(24);
/** The probes' behaviours by tool name; `guarded` and `confirmed` run fine when they run. */
const behaviourOf = (name: string): Behaviour => behaviours[Number(name.replace('probe', ''))] ?? { kind: 'ok' };

interface CallResult {
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

/** The law over an MCP client: each tool called with good and bad arguments; a failed call's `_meta["gramkit/error"]` is lawful. */
const mcpLaw = async (surface: string, client: Client, names: ReadonlyArray<string>): Promise<number> => {
  let failures = 0;
  for (const name of names)
    for (const args of [{ command: 'go' }, { command: 7 }]) {
      const r = (await client.callTool({ name, arguments: args })) as CallResult;
      if (r.isError !== true) continue;
      failures++;
      const e = r._meta?.['gramkit/error'] as (Codes & { retryable?: unknown }) | undefined;
      expect(e, `${surface} ${name}: _meta["gramkit/error"]`).toBeDefined();
      lawful(`${surface} ${name}`, e as Codes, behaviourOf(name));
      const retry = codeInfo(e?.reason as string)?.retryable;
      if (typeof retry === 'boolean') expect(e?.retryable, `${surface} ${name}: retryable of ${String(e?.reason)}`).toBe(retry);
    }
  return failures;
};

describe('canonical codes on the MCP servers and in experiments', () => {
  it('holds on `gramkit mcp` over stdio', async () => {
    const { gram, library, names } = writeProbes(dir, behaviours);
    const client = new Client({ name: 'canonical', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', gram, '--library', library, '--no-watch'],
        cwd: dir,
        stderr: 'pipe',
        env: { PATH: process.env['PATH'] ?? '', ALLOWED_TOOL_PERMS: 'net:read' },
      }),
    );
    try {
      const listed = (await client.listTools()).tools.map((t) => t.name);
      expect([...listed].sort()).toEqual([...names].sort());
      const failures = await mcpLaw('gramkit mcp', client, names);
      // every probe fails with bad arguments, and most with good ones; guarded and confirmed are refused
      expect(failures).toBeGreaterThan(names.length + 2);
    } finally {
      await client.close();
    }
  });

  it("holds on `gramkit serve`'s /mcp (the catalog's tools, with the token)", async () => {
    const catalog = await openProbeCatalog(join(dir, 'serve-data'), behaviours);
    const TOKEN = 'canonical-codes-token-0123456789abcdef';
    const mounted = await catalogMcpMount(catalog, { local: true });
    if (!mounted.ok) throw new Error(mounted.error.message);
    const server = await startServer(createService({ catalog, mounts: [mounted.value.mount], tokens: [{ name: 'test', token: TOKEN, scopes: ALL_SCOPES }] }), {
      port: 0,
    });
    const client = new Client({ name: 'canonical', version: '1.0.0' });
    try {
      // without the token: a problem, UNAUTHENTICATED
      const refused = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(401);
      lawful('/mcp without the token', (await refused.json()) as Codes, { kind: 'ok' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('guarded');
      const failures = await mcpLaw('serve /mcp', client, names);
      expect(failures).toBeGreaterThan(behaviours.length + 2);
    } finally {
      await client.close();
      await server.close();
      await mounted.value.close();
      await catalog.close();
    }
  });

  it("holds in experiments: each run's tool calls, and the report's tool errors by code", async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const annotations: ToolAnnotations = { permissions: ['proc:exec'], ...(c.confirm ? { approval: 'confirm' as const } : {}) };
        const library = toolLibrary([createTool(spec.name, spec.description, spec.schema, implementation(c.behaviour), { annotations })]);
        const args = { command: c.valid ? 'go' : 7 };
        const approver = APPROVERS[c.approver];
        const result = await runExperiment({
          agent,
          variants: { base: library, other: library },
          inputs: ['go'],
          model: () => scriptedModel([{ toolCalls: [{ name: spec.name, arguments: args }] }, { text: 'done' }]),
          ...(c.denied ? { policies: { permissions: { allowed: [] } } } : {}),
          ...(approver !== undefined ? { approve: approver } : {}),
        });
        if (!result.ok) throw new Error(`${result.error.reason}: ${result.error.message}`);
        let failed = 0;
        for (const run of result.value.results)
          for (const call of run.toolCalls)
            if (!call.ok) {
              failed++;
              lawful(`experiment run ${run.variant}`, { code: call.code, reason: call.reason }, c.behaviour);
            }
        // the report counts tool errors by precise code; each is a failure's reason
        const counted = result.value.summaries.flatMap((s) => Object.entries(s.toolErrorsByCode));
        expect(counted.reduce((n, [, k]) => n + k, 0)).toBe(failed);
        for (const [reason] of counted) expect(result.value.results.some((r) => r.toolCalls.some((t) => t.reason === reason))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
