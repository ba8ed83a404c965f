/**
 * The service's routes, as a client uses them: the catalog under /tools, the
 * registry under /api/v1, health, and what the admin page needs (bundles and tools with their
 * toggles, search, a tool with its gram, invocation, the agent-created filter, recent usage).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogCodes, isUuidV7, newId } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { BuiltinCodes } from 'gramkit/builtins';
import { ToolCodes } from 'gramkit';
import { type Harness, harness, isProblem, fullToken } from './support.js';

let h: Harness;
afterEach(async () => h?.close());

const weather = {
  description: 'Current weather of a city',
  type: 'http',
  argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  impl: { urlTemplate: 'https://api.example.com/weather?q=${city}' },
  tags: ['weather'],
};

describe('the catalog routes', () => {
  it('bundles: PUT 201 then 200, PATCH, GET, list, DELETE (soft)', async () => {
    h = await harness();
    const id = newId();
    expect(
      (await h.call('PUT', `/tools/bundles/${id}`, { body: { slug: 'météo', displayName: 'Weather', isEnabled: true, description: 'weather tools' } })).status,
    ).toBe(201);
    expect((await h.call('PUT', `/tools/bundles/${id}`, { body: { slug: 'météo', displayName: 'Weather!' } })).status).toBe(200);
    const patched = await h.call('PATCH', `/tools/bundles/${id}`, { body: { isEnabled: false } });
    expect(patched.json).toMatchObject({ bundleID: id, isEnabled: false, displayName: 'Weather!' });
    const list = await h.call('GET', `/tools/bundles?includeDisabled=true&bundleIDs=${id}`);
    expect(list.json.bundles.map((b: { slug: string }) => b.slug)).toEqual(['météo']);
    expect((await h.call('GET', '/tools/bundles')).json.bundles.map((b: { slug: string }) => b.slug)).toEqual(['builtin']);
    const deleted = await h.call('DELETE', `/tools/bundles/${id}`);
    expect(deleted.status).toBe(200);
    expect(typeof deleted.json.softDeletedAt).toBe('string');
  });

  it('bundles: POST creates one with an id the server assigns (no client-made UUIDv7)', async () => {
    h = await harness();
    const created = await h.call('POST', '/tools/bundles', { body: { slug: 'team', displayName: 'Team' } });
    expect(created.status).toBe(201);
    const id = created.json.bundleID as string;
    expect(isUuidV7(id)).toBe(true);
    expect((await h.call('GET', `/tools/bundles/${id}`)).json).toMatchObject({ bundleID: id, slug: 'team', displayName: 'Team' });
    expect(
      (await h.call('PUT', `/tools/bundles/${id}/tools/parse/version/1`, { body: { description: 'Parses', type: 'builtin', impl: { builtin: 'json_parse' } } }))
        .status,
    ).toBe(201);
    // another bundle of that slug is refused by name, as PUT refuses it
    expect((await h.call('POST', '/tools/bundles', { body: { slug: 'team' } })).status).toBe(409);
  });

  it('tools: POST creates one named by its body (version "1" by default), with a toolID the server assigns', async () => {
    h = await harness();
    const bundle = (await h.call('POST', '/tools/bundles', { body: { slug: 'team' } })).json.bundleID as string;
    const tool = { slug: 'parse_json', description: 'Parses', type: 'builtin', impl: { builtin: 'json_parse' } };
    const created = await h.call('POST', `/tools/bundles/${bundle}/tools`, { body: tool });
    expect(created.status).toBe(201);
    expect(created.json.tool).toMatchObject({ bundleID: bundle, slug: 'parse_json', version: '1', available: true });
    expect(isUuidV7(created.json.tool.toolID)).toBe(true);
    expect((await h.call('GET', `/tools/bundles/${bundle}/tools/parse_json/version/1`)).json.toolID).toBe(created.json.tool.toolID);
    expect((await h.call('POST', `/tools/bundles/${bundle}/tools`, { body: { ...tool, version: '2' } })).json.tool.version).toBe('2');
    // the same <slug, version> again: a conflict, as PUT answers it
    isProblem(await h.call('POST', `/tools/bundles/${bundle}/tools`, { body: tool }), 409, CatalogCodes.CONFLICT);
    // a body that does not name the tool
    isProblem(
      await h.call('POST', `/tools/bundles/${bundle}/tools`, { body: { description: 'x', type: 'builtin', impl: { builtin: 'json_parse' } } }),
      400,
      ServiceCodes.INVALID_REQUEST,
    );
  });

  it('tools: PUT (Unicode slug, dotted version), conflict 409, GET, gram, PATCH, invoke, DELETE', async () => {
    h = await harness();
    const b = newId();
    await h.call('PUT', `/tools/bundles/${b}`, { body: { slug: 'w' } });
    const path = `/tools/bundles/${b}/tools/${encodeURIComponent('météo')}/version/v1.2`;
    const created = await h.call('PUT', path, { body: weather });
    expect(created.status).toBe(201);
    // this server allows no host (allowHosts: []): the tool is stored, and said unavailable, with why
    expect(created.json.tool).toMatchObject({ slug: 'météo', version: 'v1.2', available: false, isEnabled: true });
    expect(created.json.tool.unavailableReason).toContain('api.example.com');
    expect(created.json.warnings.map((w: { code: string }) => w.code)).toContain(CatalogCodes.HOST_NOT_ALLOWED);
    const conflict = await h.call('PUT', path, { body: { ...weather, description: 'other' } });
    isProblem(conflict, 409, CatalogCodes.CONFLICT);
    expect(conflict.json.existing.toolID).toBe(created.json.tool.toolID);
    expect((await h.call('GET', path)).json.description).toBe('Current weather of a city');
    const gram = await h.call('GET', `${path}/gram`);
    expect(gram.headers.get('content-type')).toContain('text/plain');
    expect(gram.text).toContain('[`météo`:Tool');
    expect((await h.call('PATCH', path, { body: { isEnabled: false } })).json.isEnabled).toBe(false);
    isProblem(await h.call('POST', `${path}/invoke`, { body: { args: { city: 'Paris' } } }), 409, CatalogCodes.TOOL_DISABLED);
    expect((await h.call('DELETE', path)).status).toBe(200);
    isProblem(await h.call('GET', path), 404, CatalogCodes.TOOL_NOT_FOUND);
  });

  it('a PUT may carry gram instead of schemas', async () => {
    h = await harness();
    const b = newId();
    await h.call('PUT', `/tools/bundles/${b}`, { body: { slug: 'g' } });
    const r = await h.call('PUT', `/tools/bundles/${b}/tools/parse/version/1`, {
      body: { gram: '[parse:Tool {description: "Parses JSON text", builtin: "json_parse"} | (text::String)==>(query::String {optional: true})==>(::Any)]' },
    });
    expect(r.status).toBe(201);
    const inv = await h.call('POST', `/tools/bundles/${b}/tools/parse/version/1/invoke`, { body: { args: { text: '[3]', query: '$[0]' } } });
    expect(inv.status).toBe(200);
    expect(inv.json).toEqual({ ok: true, value: { value: [3], pretty: '[\n  3\n]' } });
  });

  it("check: what a PUT would say, nothing written; gram diagnostics placed in the text (the editor's route)", async () => {
    h = await harness();
    const gram = '[parse:Tool {description: "Parses JSON text", builtin: "json_parse"} |\n  (text::Strin)==>(::Any)]';
    const bad = await h.call('POST', '/tools/tools/check?slug=parse&version=1', { body: { gram } });
    expect(bad.status).toBe(200);
    expect(bad.json.ok).toBe(false);
    const d = bad.json.diagnostics.find((x: { severity: string }) => x.severity === 'error');
    expect(d).toMatchObject({ line: 2 });
    expect(gram.slice(d.start, d.end)).toContain('Strin');
    const good = await h.call('POST', '/tools/tools/check?slug=parse&version=1', { body: { gram: gram.replace('Strin', 'String') } });
    expect(good.json).toEqual({ ok: true, diagnostics: [] });
    // the route's slug is checked as PUT checks it; tool.json bodies are checked too
    const other = await h.call('POST', '/tools/tools/check?slug=other', { body: { gram: gram.replace('Strin', 'String') } });
    expect(other.json.ok).toBe(false);
    const json = await h.call('POST', '/tools/tools/check', { body: { ...weather, argSchema: { type: 'object', properties: { city: { type: 'strin' } } } } });
    expect(json.json.ok).toBe(false);
    const fine = await h.call('POST', '/tools/tools/check?slug=weather&version=1', { body: weather });
    expect(fine.json).toEqual({ ok: true, diagnostics: [] });
    // nothing was written
    expect((await h.call('GET', '/tools/tools?includeDisabled=true')).json.tools.filter((t: { isBuiltIn?: boolean }) => t.isBuiltIn !== true)).toEqual([]);
  });

  it('invoke: 400 with every argument issue; 200 {ok: false, error} when the tool fails', async () => {
    h = await harness();
    const bad = await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: 1, nope: true } });
    isProblem(bad, 400, ToolCodes.INVALID_ARGUMENTS);
    expect(bad.json.issues).toHaveLength(2);
    const failed = await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '{' } });
    expect(failed.status).toBe(200);
    expect(failed.json.ok).toBe(false);
    expect(typeof failed.json.error.code).toBe('string');
  });

  it('the global list pages with tags, bundleIDs and recommendedPageSize; search pages too', async () => {
    h = await harness();
    const b = newId();
    await h.call('PUT', `/tools/bundles/${b}`, { body: { slug: 'w' } });
    for (const v of ['1', '2', '3']) expect((await h.call('PUT', `/tools/bundles/${b}/tools/weather/version/${v}`, { body: weather })).status).toBe(201);
    const first = await h.call('GET', `/tools/tools?tags=weather&bundleIDs=${b}&recommendedPageSize=2`);
    expect(first.json.tools.map((t: { version: string }) => t.version)).toEqual(['1', '2']);
    const second = await h.call('GET', `/tools/tools?tags=weather&bundleIDs=${b}&recommendedPageSize=2&pageToken=${first.json.nextPageToken}`);
    expect(second.json.tools.map((t: { version: string }) => t.version)).toEqual(['3']);
    expect(second.json.nextPageToken).toBeUndefined();
    const found = await h.call('GET', '/tools/tools/search?q=wea&pageSize=1');
    expect(found.json.tools[0]).toMatchObject({ slug: 'weather', match: 'prefix' });
    const more = await h.call('GET', `/tools/tools/search?q=wea&pageSize=5&pageToken=${found.json.nextPageToken}`);
    expect(more.json.tools).toHaveLength(2);
    isProblem(await h.call('GET', `/tools/tools/search?q=other&pageToken=${found.json.nextPageToken}`), 400, CatalogCodes.INVALID_PAGE_TOKEN);
  });
});

describe('the registry routes', () => {
  it('registers, lists (with the agent-created filter), gets, invokes, and deletes agent tools only', async () => {
    h = await harness({ allowCommandTools: true });
    const reg = await h.call('POST', '/api/v1/tools', {
      body: {
        id: 'tool_count',
        name: 'Count',
        description: 'Counts words',
        input_schema: { stdin: 'string' },
        exec: { type: 'cmd', cmd: 'wc', args: ['-w'] },
        created_by: 'agent',
      },
    });
    expect(reg.status).toBe(201);
    expect(reg.json).toMatchObject({ id: 'tool_count', created_by: 'agent', type: 'command', input_schema: { stdin: 'string' } });
    expect(
      (await h.call('POST', '/api/v1/tools', { body: { id: 'tool_sys', description: 'Parse', type: 'builtin', impl: { builtin: 'json_parse' } } })).json
        .created_by,
    ).toBe('system');
    const agents = await h.call('GET', '/api/v1/tools?created_by=agent');
    expect(agents.json.tools.map((t: { id: string }) => t.id)).toEqual(['tool_count']);
    const all = await h.call('GET', '/api/v1/tools');
    expect(all.json.tools.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining(['tool_count', 'tool_sys', 'read_file']));
    expect((await h.call('GET', '/api/v1/tools/tool_count')).json.id).toBe('tool_count');
    const inv = await h.call('POST', '/api/v1/tools/tool_count/invoke', {
      body: { stdin: 'a b c d' },
      headers: { 'x-agent-id': 'agent-1', 'x-project-id': 'p' },
    });
    expect(inv.json).toEqual({ ok: true, value: 4 });
    isProblem(await h.call('DELETE', '/api/v1/tools/tool_sys'), 403, CatalogCodes.NOT_AGENT_CREATED);
    expect((await h.call('DELETE', '/api/v1/tools/tool_count')).status).toBe(200);
    isProblem(
      await h.call('POST', '/api/v1/tools', { body: { id: 'tool_img', description: 'x', exec: { type: 'image', image: 'alpine' } } }),
      400,
      CatalogCodes.EXEC_IMAGE_UNSUPPORTED,
    );
  });

  it('an empty body (JSON declared) invokes with no parameters; usage lists recent calls by agent', async () => {
    h = await harness();
    await h.call('POST', '/api/v1/tools/discover');
    const r = await h.service.fetch(
      new Request('http://127.0.0.1:8081/api/v1/tools/tool_ls/invoke', {
        method: 'POST',
        headers: { 'x-agent-id': 'ada', 'content-type': 'application/json' },
      }),
    );
    expect(r.status).toBe(200);
    expect(((await r.json()) as { ok: boolean }).ok).toBe(true);
    await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-agent-id': 'bob' } });
    const ada = await h.call('GET', '/api/v1/tools/usage?agent_id=ada&limit=10');
    expect(ada.json).toMatchObject({ agent_id: 'ada', usage: [{ tool: 'tool_ls', ok: true, agent_id: 'ada' }] });
    const everyone = await h.call('GET', '/api/v1/tools/usage?limit=10');
    expect(everyone.json.usage.map((u: { tool: string }) => u.tool)).toEqual(['json_parse', 'tool_ls']);
    const tool = await h.call('GET', '/api/v1/tools/tool_ls');
    expect(tool.json.call_count).toBe(1);
  });

  it('discover registers the nucleus once', async () => {
    h = await harness({ discoverUsable: (b) => b !== 'shell' });
    const first = await h.call('POST', '/api/v1/tools/discover');
    expect(first.json.discovered).toEqual(expect.arrayContaining(['tool_http_get', 'tool_file_read', 'tool_ls']));
    expect(first.json.discovered).not.toContain('tool_exec');
    const again = await h.call('POST', '/api/v1/tools/discover');
    expect(again.json.discovered).toEqual([]);
  });
});

describe('the service', () => {
  it('/healthz answers with the store kind', async () => {
    h = await harness();
    expect((await h.call('GET', '/healthz')).json).toMatchObject({ status: 'ok', store: 'files' });
  });

  it('unknown routes and methods are 404 and 405 problems (405 with Allow)', async () => {
    h = await harness();
    isProblem(await h.call('GET', '/nothing/here'), 404, ServiceCodes.NOT_FOUND);
    const m = await h.call('DELETE', '/tools/tools');
    isProblem(m, 405, ServiceCodes.METHOD_NOT_ALLOWED);
    expect(m.headers.get('allow')).toBe('GET, HEAD');
  });

  it('a path asked again answers as the first time, its parameters its own, after more other paths than the router remembers', async () => {
    h = await harness();
    await h.call('POST', '/api/v1/tools/discover');
    const ids = async (): Promise<unknown[]> => [
      (await h.call('GET', '/api/v1/tools/tool_ls')).json.id,
      (await h.call('GET', '/api/v1/tools/json_parse')).json.id,
    ];
    expect(await ids()).toEqual(['tool_ls', 'json_parse']);
    for (let i = 0; i < 1100; i += 100) {
      const missing = await Promise.all(Array.from({ length: 100 }, (_, j) => h.call('GET', `/api/v1/tools/none_${i + j}`)));
      for (const m of missing) isProblem(m, 404, CatalogCodes.TOOL_NOT_FOUND);
      expect(await ids()).toEqual(['tool_ls', 'json_parse']);
    }
    isProblem(await h.call('PUT', '/api/v1/tools/tool_ls'), 405, ServiceCodes.METHOD_NOT_ALLOWED);
    expect((await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '[1]' } })).json).toMatchObject({ ok: true, value: { value: [1] } });
  });

  it('mounts extra handlers (MCP, the admin page) behind the same host and token checks', async () => {
    h = await harness({ tokens: [fullToken('t0k')], mounts: [{ path: '/mcp', handler: async (r) => new Response(`mcp ${new URL(r.url).pathname}`) }] });
    expect((await h.call('GET', '/mcp/x', { headers: { authorization: 'Bearer t0k' } })).text).toBe('mcp /mcp/x');
    isProblem(await h.call('GET', '/mcp', {}), 401, ServiceCodes.UNAUTHORIZED);
  });

  it('tool results keep the library codes', async () => {
    h = await harness();
    const r = await h.call('POST', '/api/v1/tools/read_file/invoke', { body: { path: 'missing.txt' } });
    expect(r.json.error.reason).toBe(BuiltinCodes.FILE_NOT_FOUND);
  });
});
