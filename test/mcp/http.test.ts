/**
 * The MCP server over Streamable HTTP (stateless), mounted on a node:http server on 127.0.0.1, and
 * driven by the SDK's own clients of both lines: v2 speaking the 2025 handshake, v2 pinned to the
 * 2026-07-28 revision, and v1.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCodes } from '../../src/index.js';
import { createMcpHttpHandler, type McpHttpHandler, mutableToolSource, staticToolSource } from '../../src/entries/mcp.js';
import { approveAll, defaultRuleEngine } from '../../src/entries/policy.js';
import { cli } from '../support/cli.js';
import { CLIENT_KINDS, fixtureTools, FIXTURE, httpClient, listen, type Listening } from './support.js';
import { PolicyCodes } from '../../src/entries/policy.js';

let handler: McpHttpHandler;
let server: Listening;

beforeAll(async () => {
  handler = createMcpHttpHandler(staticToolSource(fixtureTools()), { name: 'fixture', version: '1.2.3', policies: { rules: defaultRuleEngine } });
  server = await listen(handler.node);
});
afterAll(async () => {
  await handler.close();
  await server.close();
});

const errorMeta = (r: Record<string, unknown>): Record<string, unknown> => (r['_meta'] as Record<string, unknown>)['gramkit/error'] as Record<string, unknown>;
const text = (r: Record<string, unknown>): string => ((r['content'] as Array<{ text: string }>)[0] as { text: string }).text;

describe.each(CLIENT_KINDS)('Streamable HTTP, %s client', (kind) => {
  it('lists each tool with the input schema `gramkit schema --format mcp` prints, and annotations', async () => {
    const client = await httpClient(kind, server.url);
    try {
      const { tools } = await client.listTools();
      const printed = JSON.parse((await cli(['schema', FIXTURE, '--format', 'mcp'])).stdout) as Record<string, Record<string, unknown>>;
      expect(tools.map((t) => t['name'])).toEqual(['get_weather', 'shout', 'lookup', 'erase', 'wait_for_cancel']);
      for (const t of tools) {
        const p = printed[t['name'] as string] as Record<string, unknown>;
        expect(t['inputSchema']).toEqual(p['inputSchema']);
        expect(t['description']).toBe(p['description']);
        expect(t['outputSchema']).toEqual(p['outputSchema']);
      }
      const byName = new Map(tools.map((t) => [t['name'], t]));
      expect(byName.get('get_weather')?.['annotations']).toEqual({ readOnlyHint: true, openWorldHint: true });
      expect(byName.get('erase')?.['annotations']).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
      expect(byName.get('shout')?.['annotations']).toBeUndefined();
      expect(byName.get('shout')?.['outputSchema']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('calls through invoke: defaults applied, structuredContent for object results, a string as its text', async () => {
    const client = await httpClient(kind, server.url);
    try {
      const weather = await client.callTool('get_weather', { city: 'Paris' });
      expect(weather['isError']).toBeFalsy();
      expect(weather['structuredContent']).toEqual({ city: 'Paris', days: 1, conditions: 'sunny' });
      expect(JSON.parse(text(weather))).toEqual({ city: 'Paris', days: 1, conditions: 'sunny' });
      const shouted = await client.callTool('shout', { text: 'hello' });
      expect(text(shouted)).toBe('HELLO');
      expect(shouted['structuredContent']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('invalid arguments and failures are isError results with a message a model can act on', async () => {
    const client = await httpClient(kind, server.url);
    try {
      const invalid = await client.callTool('get_weather', { city: 'Paris', days: 30 });
      expect(invalid['isError']).toBe(true);
      expect(text(invalid)).toContain('argument "days" must be at most 7, got 30');
      expect(errorMeta(invalid)['reason']).toBe(ToolCodes.INVALID_ARGUMENTS);
      const missing = await client.callTool('lookup', { word: 'gram' });
      expect(missing['isError']).toBe(true);
      expect(text(missing)).toBe('NOT_FOUND: no word "gram" in the dictionary');
      expect(errorMeta(missing)).toEqual({
        code: 'NOT_FOUND',
        reason: 'NOT_FOUND',
        message: 'no word "gram" in the dictionary',
        retryable: false,
        details: { word: 'gram' },
      });
    } finally {
      await client.close();
    }
  });

  it('an unknown tool is a JSON-RPC error naming the tools, and the server keeps serving', async () => {
    const client = await httpClient(kind, server.url);
    try {
      await expect(client.callTool('no_such_tool', {})).rejects.toThrow(/unknown tool "no_such_tool"; the tools of this server are: get_weather, shout/);
      expect(text(await client.callTool('shout', { text: 'still here' }))).toBe('STILL HERE');
    } finally {
      await client.close();
    }
  });

  it('a call that needs approval is refused when no one can approve it, saying why', async () => {
    const client = await httpClient(kind, server.url);
    try {
      const r = await client.callTool('erase', { path: 'notes.txt' });
      expect(r['isError']).toBe(true);
      expect(errorMeta(r)['reason']).toBe(PolicyCodes.APPROVAL_REQUIRED);
      expect(text(r)).toMatch(/erase/);
    } finally {
      await client.close();
    }
  });
});

describe('policies over HTTP', () => {
  it('permissions (ALLOWED_TOOL_PERMS) deny a tool, an approver lets a confirmed call run', async () => {
    const h = createMcpHttpHandler(staticToolSource(fixtureTools()), { policies: { permissions: { allowed: ['net:read'] } }, approver: approveAll });
    const s = await listen(h.node);
    try {
      const client = await httpClient('v2', s.url);
      const denied = await client.callTool('erase', { path: 'notes.txt' });
      expect(denied['isError']).toBe(true);
      expect(errorMeta(denied)['reason']).toBe(PolicyCodes.DENIED);
      expect(text(denied)).toContain('needs the permission fs:write');
      expect((await client.callTool('get_weather', { city: 'Oslo' }))['isError']).toBeFalsy();
      await client.close();
      const open = createMcpHttpHandler(staticToolSource(fixtureTools()), { policies: {}, approver: approveAll });
      const s2 = await listen(open.node);
      const c2 = await httpClient('v1', s2.url);
      expect(text(await c2.callTool('erase', { path: 'notes.txt' }))).toBe('erased notes.txt');
      await c2.close();
      await open.close();
      await s2.close();
    } finally {
      await h.close();
      await s.close();
    }
  });
});

describe('DNS-rebinding protection', () => {
  const post = (headers: Record<string, string>): Promise<number> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/mcp',
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('refuses a Host that is not an allowed name, and a browser Origin that is not allowed', async () => {
    expect(await post({ host: 'attacker.example:80' })).toBe(403);
    expect(await post({ host: `localhost:${server.port}`, origin: 'http://attacker.example' })).toBe(403);
    expect(await post({ host: `127.0.0.1:${server.port}` })).toBe(200);
    expect(await post({ host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` })).toBe(200);
  });

  it('takes the allowed hosts as an option', async () => {
    const h = createMcpHttpHandler(staticToolSource(fixtureTools()), { allowedHosts: ['tools.example'] });
    const r1 = await h.fetch(new Request('http://tools.example/mcp', { method: 'GET' }));
    expect(r1.status).not.toBe(403);
    const r2 = await h.fetch(new Request('http://127.0.0.1/mcp', { method: 'GET' }));
    expect(r2.status).toBe(403);
    await h.close();
  });
});

describe('tools/list_changed over HTTP', () => {
  it('a 2026-07-28 client listening is told when the source changes, and lists the new tools', async () => {
    const all = fixtureTools();
    const source = mutableToolSource(all);
    const h = createMcpHttpHandler(source);
    const s = await listen(h.node);
    let changed!: () => void;
    const told = new Promise<void>((resolve) => {
      changed = resolve;
    });
    const client = await httpClient('v2-modern', s.url, () => changed());
    try {
      expect((await client.listTools()).tools).toHaveLength(5);
      source.set(all.tools.slice(0, 2));
      await told;
      expect((await client.listTools()).tools.map((t) => t['name'])).toEqual(['get_weather', 'shout']);
    } finally {
      await client.close();
      await h.close();
      await s.close();
    }
  });
});
