/**
 * Attack class: scopes ignored on `/mcp` (issue 18, item 3). With `--require-scopes`, a caller
 * whose scopes lack `invoke_tool` was refused by REST (403) but ran tools, writes included, through
 * `/mcp`. The service now carries the caller's scopes (the one function of the request,
 * `readScopes`) to the `/mcp` mount, and the catalog's invoker checks them with the same step on
 * every call: a call without `invoke_tool` is a failed call (`SERVICE_MISSING_SCOPE`) and runs
 * nothing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogMcpMount, createService } from 'gramkit/server';
import { harness } from '../server/support.js';

const rpc = async (fetch: (r: Request) => Promise<Response>, scopes: string, method: string, params: unknown): Promise<Record<string, unknown>> => {
  const response = await fetch(
    new Request('http://127.0.0.1:8081/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        'x-caller-scopes': scopes,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    }),
  );
  const text = await response.text();
  const data = text.includes('data: ') ? (text.split('\n').find((l) => l.startsWith('data: ')) ?? '').slice(6) : text;
  return JSON.parse(data) as Record<string, unknown>;
};

describe('attack: /mcp under --require-scopes', () => {
  it('a caller without invoke_tool runs nothing through /mcp, as REST refuses it; with the scope the call runs', async () => {
    const h = await harness();
    const mounted = await catalogMcpMount(h.catalog, { local: true });
    if (!mounted.ok) throw new Error(mounted.error.message);
    await mounted.value.source.ready();
    const service = createService({ catalog: h.catalog, requireScopes: true, mounts: [mounted.value.mount] });
    try {
      const listed = (await rpc(service.fetch, 'read_registry', 'tools/list', {}))['result'] as { tools: Array<{ name: string }> };
      const write = listed.tools.find((t) => t.name.replace(/-/g, '_') === 'write_file')?.name as string;
      expect(write).toBeDefined();

      // REST refuses the caller
      const rest = await service.fetch(
        new Request('http://127.0.0.1:8081/api/v1/tools/write_file/invoke', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-caller-scopes': 'read_registry' },
          body: JSON.stringify({ path: 'rest.txt', content: 'x' }),
        }),
      );
      expect(rest.status).toBe(403);

      // so does /mcp now: a failed call, nothing written
      const refused = (await rpc(service.fetch, 'read_registry', 'tools/call', { name: write, arguments: { path: 'pwned.txt', content: 'x' } }))[
        'result'
      ] as Record<string, unknown>;
      expect(refused['isError']).toBe(true);
      expect((refused['_meta'] as Record<string, { code: string; reason: string }>)['gramkit/error']?.reason).toBe('SERVICE_MISSING_SCOPE');
      expect(existsSync(join(h.dir, 'pwned.txt'))).toBe(false);

      // a caller with the scope runs it
      const ran = (await rpc(service.fetch, 'read_registry invoke_tool', 'tools/call', { name: write, arguments: { path: 'allowed.txt', content: 'x' } }))[
        'result'
      ] as Record<string, unknown>;
      expect(ran['isError']).toBeFalsy();
      expect(existsSync(join(h.dir, 'allowed.txt'))).toBe(true);
    } finally {
      await mounted.value.close();
      await h.close();
    }
  });
});
