/**
 * Who may call and what a caller may do: the Host header of a local server (DNS rebinding), the
 * bearer tokens and the scopes each grants, cross-site requests from browser pages, and the
 * programs a request may register. Each attack is made through HTTP, as an attacker would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ToolCodes } from 'gramkit';
import { CatalogCodes } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { type Harness, fullToken, harness, isProblem } from './support.js';

let h: Harness;
afterEach(async () => h?.close());

const SH_TOOL = {
  id: 'tool_sh',
  name: 'sh',
  description: 'Runs a shell command',
  input_schema: { c: 'string' },
  type: 'command',
  impl: { argv: ['sh', '-c', '{c}'], sandbox: 'none', allowLeadingDash: true },
};
const EXEC_TOOL = {
  id: 'tool_cat',
  name: 'cat',
  description: 'Prints a file',
  input_schema: { f: 'string' },
  exec: { type: 'cmd', cmd: 'cat', args: ['{f}'] },
};

describe('security', () => {
  it('a local server answers Host: localhost, 127.0.0.1, [::1] and its other loopback addresses only', async () => {
    h = await harness();
    for (const host of ['localhost:8081', '127.0.0.1', '[::1]:9', '127.0.0.2:8081'])
      expect((await h.call('GET', '/healthz', { headers: { host } })).status).toBe(200);
    isProblem(await h.call('GET', '/api/v1/tools', { headers: { host: 'attacker.example:8081' } }), 403, ServiceCodes.FORBIDDEN_HOST);
    isProblem(await h.call('GET', '/healthz', { headers: { host: '127.0.0.1.nip.io' } }), 403, ServiceCodes.FORBIDDEN_HOST);
  });

  it('with tokens, every route but /healthz and /openapi.json needs Authorization: Bearer', async () => {
    h = await harness({ tokens: [fullToken('s3cret-s3cret-s3cret')], hostHeaders: 'any' });
    expect((await h.call('GET', '/healthz', { headers: { host: 'tools.example.com' } })).status).toBe(200);
    expect((await h.call('GET', '/openapi.json')).status).toBe(200);
    const no = await h.call('GET', '/api/v1/tools');
    isProblem(no, 401, ServiceCodes.UNAUTHORIZED);
    expect(no.headers.get('www-authenticate')).toBe('Bearer');
    isProblem(await h.call('GET', '/api/v1/tools', { headers: { authorization: 'Bearer s3cret-s3cret-s3creT' } }), 401, ServiceCodes.UNAUTHORIZED);
    isProblem(await h.call('GET', '/nope', { headers: {} }), 401, ServiceCodes.UNAUTHORIZED);
    expect((await h.call('GET', '/api/v1/tools', { headers: { authorization: 'Bearer s3cret-s3cret-s3cret' } })).status).toBe(200);
  });

  it('without tokens, required scopes are those X-Caller-Scopes claims: read_registry to read, invoke_tool to invoke, write_registry to write', async () => {
    h = await harness({ requireScopes: true });
    const missing = await h.call('GET', '/api/v1/tools');
    isProblem(missing, 403, ServiceCodes.MISSING_SCOPE);
    expect(missing.json.scope).toBe('read_registry');
    expect((await h.call('GET', '/api/v1/tools', { headers: { 'x-caller-scopes': 'read_registry' } })).status).toBe(200);
    isProblem(
      await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-caller-scopes': 'read_registry' } }),
      403,
      ServiceCodes.MISSING_SCOPE,
    );
    expect(
      (await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-caller-scopes': 'read_registry, invoke_tool' } })).status,
    ).toBe(200);
    isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: { 'x-caller-scopes': 'read_registry invoke_tool' } }), 403, ServiceCodes.MISSING_SCOPE);
    expect((await h.call('POST', '/api/v1/tools/discover', { headers: { 'x-caller-scopes': 'write_registry' } })).status).toBe(200);
  });

  it("attack: a token's scopes are what it grants; X-Caller-Scopes claims nothing more", async () => {
    const reader = { name: 'reader', token: 'reader-reader-reader', scopes: ['read_registry'] };
    const runner = { name: 'runner', token: 'runner-runner-runner', scopes: ['read_registry', 'invoke_tool'] };
    h = await harness({ tokens: [reader, runner] });
    const asReader = { authorization: `Bearer ${reader.token}`, 'x-caller-scopes': 'read_registry invoke_tool write_registry' };
    expect((await h.call('GET', '/api/v1/tools', { headers: asReader })).status).toBe(200);
    isProblem(await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: asReader }), 403, ServiceCodes.MISSING_SCOPE);
    isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: asReader }), 403, ServiceCodes.MISSING_SCOPE);
    const asRunner = { authorization: `Bearer ${runner.token}`, 'x-caller-scopes': 'write_registry' };
    expect((await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: asRunner })).status).toBe(200);
    isProblem(await h.call('POST', '/api/v1/tools', { body: EXEC_TOOL, headers: asRunner }), 403, ServiceCodes.MISSING_SCOPE);
  });

  describe('attack: cross-site requests from a page of another origin (a server without tokens)', () => {
    const form = (origin: string | undefined): Record<string, string> => ({
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin !== undefined ? { origin } : {}),
    });

    it('a body-less form POST runs no tool and triggers no discovery', async () => {
      h = await harness();
      const before = (await h.call('GET', '/api/v1/tools')).json.tools.length;
      const invoked = await h.call('POST', '/api/v1/tools/ls/invoke', { headers: form('http://evil.example') });
      isProblem(invoked, 403, ServiceCodes.CROSS_ORIGIN);
      isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: form('http://evil.example') }), 403, ServiceCodes.CROSS_ORIGIN);
      isProblem(
        await h.call('POST', '/api/v1/tools/discover', { headers: { origin: 'null', 'content-type': 'application/json' } }),
        403,
        ServiceCodes.CROSS_ORIGIN,
      );
      // a browser that sends no Origin (an old one, an extension) still cannot declare JSON without a preflight
      isProblem(await h.call('POST', '/api/v1/tools/ls/invoke', { headers: form(undefined) }), 415, ServiceCodes.UNSUPPORTED_MEDIA_TYPE);
      isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: { 'content-type': 'text/plain' } }), 415, ServiceCodes.UNSUPPORTED_MEDIA_TYPE);
      isProblem(await h.call('POST', `/tools/tools/search`, { headers: form('http://127.0.0.1:8081.evil.example') }), 403, ServiceCodes.CROSS_ORIGIN);
      // nothing was registered
      expect((await h.call('GET', '/api/v1/tools')).json.tools.length).toBe(before);
      expect(h.catalog.store.kind).toBe('files');
      // the server's own page (same origin) and programs (no Origin) may
      expect((await h.call('POST', '/api/v1/tools/discover', { headers: { origin: 'http://127.0.0.1:8081' } })).status).toBe(200);
      expect((await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' } })).json.ok).toBe(true);
    });

    it('with the token, a request needs no Origin check', async () => {
      h = await harness({ tokens: [fullToken('t'.repeat(20))] });
      const r = await h.call('POST', '/api/v1/tools/discover', { headers: { authorization: `Bearer ${'t'.repeat(20)}`, origin: 'http://other.example' } });
      expect(r.status).toBe(200);
      isProblem(await h.call('POST', '/api/v1/tools/discover', { headers: { origin: 'http://other.example' } }), 401, ServiceCodes.UNAUTHORIZED);
    });
  });

  it('attack: --max-body holds for mounted handlers (/mcp) too, declared or streamed', async () => {
    h = await harness({ maxBodyBytes: 100, mounts: [{ path: '/mcp', handler: async (r) => new Response(`read ${(await r.arrayBuffer()).byteLength}`) }] });
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      h.service.fetch(
        new Request('http://127.0.0.1:8081/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
          duplex: 'half',
        } as RequestInit),
      );
    expect((await post('x'.repeat(200))).status).toBe(413);
    const stream = (n: number) =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let i = 0; i < n; i++) c.enqueue(new Uint8Array(50));
          c.close();
        },
      });
    const streamed = await post(stream(100));
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { code: string; reason: string }).reason).toBe(ServiceCodes.BODY_TOO_LARGE);
    expect(await (await post(stream(2))).text()).toBe('read 100');
    expect(await (await post('x'.repeat(100))).text()).toBe('read 100');
  });

  it('attack: 60,000 unknown argument names get a bounded error', async () => {
    h = await harness();
    const args: Record<string, number> = { text: 1 };
    for (let i = 0; i < 60_000; i++) args[`k${i}`] = 0;
    const r = await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: args });
    isProblem(r, 400, ToolCodes.INVALID_ARGUMENTS);
    expect(r.json.issues.length).toBeLessThanOrEqual(101);
    expect(r.json.issues.at(-1).message).toContain('more problems');
    expect(r.text.length).toBeLessThan(100_000);
  });

  it('attack: agents\' usage histories never mix: ids sharing a 100-byte prefix, and the id "global"', async () => {
    h = await harness({}, { usageFlushMs: 0 });
    const prefix = 'a'.repeat(100);
    const invokeAs = (agent: string) => h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-agent-id': agent } });
    await invokeAs(`${prefix}-one`);
    await invokeAs(`${prefix}-two`);
    await invokeAs('global');
    await h.catalog.flush();
    const usage = async (agent: string) =>
      (await h.call('GET', `/api/v1/tools/usage?agent_id=${encodeURIComponent(agent)}`)).json.usage.map((u: { agent_id: string }) => u.agent_id);
    expect(await usage(`${prefix}-one`)).toEqual([`${prefix}-one`]);
    expect(await usage(`${prefix}-two`)).toEqual([`${prefix}-two`]);
    expect(await usage('global')).toEqual(['global']);
    expect((await h.call('GET', '/api/v1/tools/usage')).json.usage).toHaveLength(3);
  });

  it('attack: registry ids a URL cannot reach (., .., usage, discover) are refused', async () => {
    h = await harness();
    for (const id of ['.', '..', 'usage', 'discover']) {
      const r = await h.call('POST', '/api/v1/tools', { body: { id, description: 'Parse', type: 'builtin', impl: { builtin: 'json_parse' } } });
      isProblem(r, 400, CatalogCodes.INVALID_REGISTRY_ID);
      expect(r.json.detail).toContain('a URL cannot name those');
    }
    expect(
      (await h.call('POST', '/api/v1/tools', { body: { id: 'a.b', description: 'Parse', type: 'builtin', impl: { builtin: 'json_parse' } } })).status,
    ).toBe(201);
  });

  describe('attack: a request registers a program that runs on the host', () => {
    it('a command tool is refused unless the server allows command tools', async () => {
      h = await harness();
      isProblem(await h.call('POST', '/api/v1/tools', { body: SH_TOOL }), 403, CatalogCodes.PROGRAM_REFUSED);
      isProblem(await h.call('POST', '/api/v1/tools', { body: EXEC_TOOL }), 403, CatalogCodes.PROGRAM_REFUSED);
      const bundle = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
      expect((await h.call('PUT', `/tools/bundles/${bundle}`, { body: { slug: 'mine' } })).status).toBe(201);
      const gram = '[shout:Tool {description: "Runs sh", command: {argv: ["sh", "-c", "{c}"], sandbox: "none"}} | (c::String)==>(::Any)]';
      isProblem(await h.call('PUT', `/tools/bundles/${bundle}/tools/shout/version/1`, { body: { gram } }), 403, CatalogCodes.PROGRAM_REFUSED);
      const impl = {
        type: 'command',
        description: 'Runs sh',
        argSchema: { type: 'object', properties: { c: { type: 'string' } } },
        impl: { argv: ['sh', '-c', '{c}'] },
      };
      isProblem(await h.call('PUT', `/tools/bundles/${bundle}/tools/shout/version/2`, { body: impl }), 403, CatalogCodes.PROGRAM_REFUSED);
      const invoked = await h.call('POST', '/api/v1/tools/tool_sh/invoke', { body: { c: 'id' } });
      isProblem(invoked, 404, CatalogCodes.TOOL_NOT_FOUND);
    });

    it('with --allow-command-tools, sandbox "none" is still refused, and an unset sandbox is stored as bwrap', async () => {
      h = await harness({ allowCommandTools: true });
      isProblem(await h.call('POST', '/api/v1/tools', { body: SH_TOOL }), 403, CatalogCodes.PROGRAM_REFUSED);
      const registered = await h.call('POST', '/api/v1/tools', { body: EXEC_TOOL });
      expect(registered.status, registered.text).toBe(201);
      const tool = await h.call('GET', `/tools/bundles/${registered.json.bundle_id}/tools/${registered.json.slug}/version/${registered.json.version}`);
      expect(tool.json.impl.sandbox).toBe('bwrap');
      expect(tool.json.impl.argv).toEqual(['cat', '{f}']);
    });

    it("the operator's own files may hold any command tool (the bootstrap)", async () => {
      h = await harness();
      const boot = await h.catalog.bootstrap({ tools: [SH_TOOL] });
      expect(boot.ok && boot.value.discovered).toEqual(['tool_sh']);
    });
  });
});
