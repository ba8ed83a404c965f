/**
 * `gramkit catalog …`, `gramkit serve`, and `--catalog` for `gramkit run` and `gramkit ab`, in
 * process (`runCli`).
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogCodes } from 'gramkit/catalog';
import { PolicyCodes } from 'gramkit/policy';
import { cli, startCli } from '../support/cli.js';
import { httpClient } from '../mcp/support.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-cli-catalog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const repo = new URL('../../', import.meta.url).pathname;

const tokenOf = (out: string): string => /token: (\S+)/.exec(out)?.[1] as string;

const fresh = (name: string): string => {
  const dir = join(root, name);
  writeFileSync(join(root, `${name}.keep`), '');
  return dir;
};

describe('gramkit catalog', () => {
  it('adds .gram files, tool.json and registry Tool JSON; lists; searches; toggles; removes', async () => {
    const data = fresh('basic');
    const gram = join(root, 'tools.gram');
    writeFileSync(
      gram,
      `[word_count:Tool {description: "Counts the words of a text", command: {argv: ["wc", "-w"], stdin: "text", env: ["PATH"]}} | (text::String)==>(::Any)]

[shout:Tool {description: "Upper-cases a text", version: "2", tags: ["text"], command: {argv: ["tr", "a-z", "A-Z"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]
`,
    );
    const toolJson = join(root, 'weather.json');
    writeFileSync(
      toolJson,
      JSON.stringify({
        slug: 'weather',
        version: 'v2',
        description: 'Weather of a city',
        type: 'http',
        argSchema: { type: 'object', properties: { city: { type: 'string' } } },
        impl: { urlTemplate: 'https://api.example.com/?q=${city}' },
      }),
    );
    const registry = join(root, 'registry.json');
    writeFileSync(registry, JSON.stringify([{ id: 'tool_ls', description: 'List' }]));

    const add = await cli(['catalog', 'add', 'tools.gram', 'weather.json', 'registry.json', '--data', data], { cwd: root });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('added word_count@1 ('); // a snake_case name is kept as the slug
    expect(add.stdout).toContain('added shout@2');
    expect(add.stdout).toContain('added weather@v2');
    expect(add.stdout).toContain('registered tool_ls');
    // adding again: conflicts, named, exit 1
    const again = await cli(['catalog', 'add', 'tools.gram', '--data', data], { cwd: root });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(CatalogCodes.CONFLICT);

    const ls = await cli(['catalog', 'ls', '--bundle', 'default', '--data', data], { cwd: root });
    expect(ls.stdout).toMatch(/word_count\s+1\s+default\s+command\s+enabled/);
    const search = await cli(['catalog', 'search', 'upper', '--data', data], { cwd: root });
    expect(search.stdout).toMatch(/shout\s+2\s+default\s+command\s+enabled\s+word/);

    expect((await cli(['catalog', 'disable', 'default/shout@2', '--data', data], { cwd: root })).stdout).toBe('disabled shout@2\n');
    expect((await cli(['catalog', 'ls', '--data', data, '--json'], { cwd: root })).stdout).not.toContain('"shout"');
    expect((await cli(['catalog', 'ls', '--all', '--data', data, '--json'], { cwd: root })).stdout).toContain('"shout"');
    expect((await cli(['catalog', 'enable', 'shout', '--data', data], { cwd: root })).code).toBe(0);
    expect((await cli(['catalog', 'disable', '--bundle', 'default', '--data', data], { cwd: root })).stdout).toBe('disabled bundle default\n');
    expect((await cli(['catalog', 'ls', '--bundles', '--all', '--data', data], { cwd: root })).stdout).toMatch(/default\s+3\s+disabled/);
    expect((await cli(['catalog', 'enable', '--bundle', 'default', '--data', data], { cwd: root })).code).toBe(0);
    expect((await cli(['catalog', 'rm', 'weather@v2', '--data', data], { cwd: root })).stdout).toBe('deleted weather@v2\n');
    const missing = await cli(['catalog', 'rm', 'weather', '--data', data], { cwd: root });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(CatalogCodes.TOOL_NOT_FOUND);
    expect((await cli(['catalog', 'rm', '--data', data], { cwd: root })).code).toBe(2);
  });

  it('exports as JSON (imported with ids kept) and as gram (added back)', async () => {
    const data = fresh('export');
    writeFileSync(
      join(root, 'one.gram'),
      '[upper:Tool {description: "Upper-cases a text", command: {argv: ["tr", "a-z", "A-Z"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]\n',
    );
    expect((await cli(['catalog', 'add', 'one.gram', '--bundle', 'text', '--data', data], { cwd: root })).code).toBe(0);
    const exported = await cli(['catalog', 'export', '--data', data, '-o', 'export.json'], { cwd: root });
    expect(exported.stdout).toBe('exported 1 tool to export.json\n');
    const gram = await cli(['catalog', 'export', '--format', 'gram', '--data', data], { cwd: root });
    expect(gram.stdout).toContain('[upper:Tool {description: "Upper-cases a text", version: "1"');

    const other = fresh('imported');
    const imported = await cli(['catalog', 'import', 'export.json', '--data', other], { cwd: root });
    expect(imported.stdout).toBe('imported 1 bundle and 1 tool\n');
    const a = JSON.parse((await cli(['catalog', 'ls', '--json', '--data', data, '--bundle', 'text'], { cwd: root })).stdout) as Array<Record<string, unknown>>;
    const b = JSON.parse((await cli(['catalog', 'ls', '--json', '--data', other, '--bundle', 'text'], { cwd: root })).stdout) as Array<Record<string, unknown>>;
    expect(b.map((t) => [t['toolID'], t['createdAt'], t['signature']])).toEqual(a.map((t) => [t['toolID'], t['createdAt'], t['signature']]));
    expect((await cli(['catalog', 'import', 'export.json', '--data', other], { cwd: root })).stdout).toBe(
      'imported 0 bundles and 0 tools (1 bundle and 1 tool already there)\n',
    );

    writeFileSync(join(root, 'exported.gram'), gram.stdout);
    const third = fresh('from-gram');
    expect((await cli(['catalog', 'add', 'exported.gram', '--data', third], { cwd: root })).stdout).toContain('added upper@1');
  });

  it('an export round-trips exactly: a disabled bundle keeps its tools, a deleted bundle stays deleted, timestamps are kept', async () => {
    const data = fresh('roundtrip');
    writeFileSync(
      join(root, 'rt.gram'),
      '[upper:Tool {description: "Upper-cases a text", command: {argv: ["tr", "a-z", "A-Z"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]\n[lower:Tool {description: "Lower-cases a text", command: {argv: ["tr", "A-Z", "a-z"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]\n',
    );
    for (const bundle of ['live', 'off', 'gone'])
      expect((await cli(['catalog', 'add', 'rt.gram', '--bundle', bundle, '--data', data], { cwd: root })).code).toBe(0);
    expect((await cli(['catalog', 'disable', 'live/lower', '--data', data], { cwd: root })).code).toBe(0);
    expect((await cli(['catalog', 'disable', '--bundle', 'off', '--data', data], { cwd: root })).code).toBe(0);
    expect((await cli(['catalog', 'rm', '--bundle', 'gone', '--data', data], { cwd: root })).code).toBe(0);
    const first = await cli(['catalog', 'export', '--data', data], { cwd: root });
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(root, 'rt.json'), first.stdout);
    const exported = JSON.parse(first.stdout) as { bundles: Array<Record<string, unknown>>; tools: Array<Record<string, unknown>> };
    expect(exported.tools).toHaveLength(6);
    expect(exported.bundles.filter((b) => b['softDeletedAt'] !== null)).toHaveLength(1);

    // imported into a fresh catalog a second later (timestamps the import would make differ)
    await new Promise((done) => setTimeout(done, 1100));
    const other = fresh('roundtrip-imported');
    const imported = await cli(['catalog', 'import', 'rt.json', '--data', other], { cwd: root });
    expect(imported.stderr).toBe('');
    expect(imported.stdout).toBe('imported 3 bundles and 6 tools\n');
    const second = await cli(['catalog', 'export', '--data', other], { cwd: root });
    expect(JSON.parse(second.stdout)).toEqual(exported);
    // and again: nothing new, nothing changed
    expect((await cli(['catalog', 'import', 'rt.json', '--data', other], { cwd: root })).stdout).toBe(
      'imported 0 bundles and 0 tools (3 bundles and 6 tools already there)\n',
    );
    expect(JSON.parse((await cli(['catalog', 'export', '--data', other], { cwd: root })).stdout)).toEqual(exported);
  });

  it('an import refuses what an export could not hold, even where a good tool with the same signature came first', async () => {
    const data = fresh('tampered');
    const tools = ['good', 'schema', 'sig', 'field', 'when', 'impl'].map(
      (n) => `[${n}:Tool {description: "Tool ${n}", command: {argv: ["cat"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]`,
    );
    writeFileSync(join(root, 'tampered.gram'), `${tools.join('\n')}\n`);
    expect((await cli(['catalog', 'add', 'tampered.gram', '--data', data], { cwd: root })).code).toBe(0);
    const exported = JSON.parse((await cli(['catalog', 'export', '--data', data], { cwd: root })).stdout) as {
      bundles: unknown[];
      tools: Array<Record<string, unknown>>;
    };
    const bySlug = (slug: string) => exported.tools.find((t) => t['slug'] === slug) as Record<string, unknown>;
    // the good one first: its signature is compiled (and kept) before the tampered ones are read
    exported.tools.sort((a, b) => (a['slug'] === 'good' ? -1 : b['slug'] === 'good' ? 1 : 0));
    bySlug('schema')['argSchema'] = { type: 'object', properties: { text: { type: 'integer' } } };
    bySlug('sig')['signature'] = '(text::String)==>(';
    bySlug('field')['colour'] = 'red';
    bySlug('when')['createdAt'] = 'yesterday';
    bySlug('impl')['impl'] = { argv: [] };
    writeFileSync(join(root, 'tampered.json'), JSON.stringify(exported));
    const other = fresh('tampered-imported');
    const r = await cli(['catalog', 'import', 'tampered.json', '--data', other], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('imported 1 bundle and 1 tool\n');
    for (const said of [
      'argSchema is not the schema the signature compiles to',
      'signature: ',
      '"colour" is not a field of',
      'createdAt: "yesterday" is not an ISO 8601 instant',
      'impl@1: ',
    ])
      expect(r.stderr).toContain(said);
    expect(r.stderr.match(new RegExp(`error\\[${CatalogCodes.INVALID_RECORD}\\]`, 'g'))).toHaveLength(5);
    const listed = JSON.parse((await cli(['catalog', 'ls', '--json', '--all', '--data', other], { cwd: root })).stdout) as Array<Record<string, unknown>>;
    expect(listed.map((t) => t['slug']).filter((s) => bySlug(s as string) !== undefined)).toEqual(['good']);
  });

  it('adds the registry\'s bootstrap file ({"tools": [...]}), as import and serve --bootstrap take it', async () => {
    const data = fresh('bootstrap-add');
    writeFileSync(
      join(root, 'boot.json'),
      JSON.stringify({
        tools: [
          { id: 'tool_json_parse', description: 'Parse JSON text' },
          { id: 'tool_ls', description: 'List' },
        ],
      }),
    );
    const add = await cli(['catalog', 'add', 'boot.json', '--data', data], { cwd: root });
    expect(add.code, add.stderr).toBe(0);
    expect(add.stdout).toContain('registered tool_json_parse');
    expect(add.stdout).toContain('registered tool_ls');
  });

  it('gramkit check reads the gram the catalog writes without warnings', async () => {
    writeFileSync(
      join(root, 'seed-tool.json'),
      JSON.stringify({
        slug: 'weather',
        version: '1.0.0',
        displayName: 'Weather',
        description: 'Current weather',
        type: 'http',
        tags: ['weather'],
        permissions: ['net:read'],
        safetyLevel: 'low',
        argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        impl: { method: 'GET', urlTemplate: 'https://api.example.com/w?q=${city}', allowedHosts: ['api.example.com'] },
      }),
    );
    const imported = await cli(['import', 'seed-tool.json'], { cwd: root });
    expect(imported.code, imported.stderr).toBe(0);
    writeFileSync(join(root, 'seed-tool.gram'), imported.stdout);
    const checked = await cli(['check', 'seed-tool.gram'], { cwd: root });
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout + checked.stderr).not.toContain('warning[');
    expect(checked.stdout).toContain('0 warnings');
  });

  it('usage errors and unreadable stores', async () => {
    expect((await cli(['catalog', 'ls', '--data', 'x', '--store', 'redis://127.0.0.1:1'], { cwd: root })).code).toBe(2);
    expect((await cli(['catalog', 'ls', '--store', 'not-a-url'], { cwd: root })).code).toBe(2);
    const down = await cli(['catalog', 'ls', '--store', 'redis://127.0.0.1:1'], { cwd: root });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot connect to Redis');
  });
});

describe('gramkit run and ab with --catalog', () => {
  it("binds the agent's tools from the catalog; the agent names them without defining them", async () => {
    const data = fresh('agent');
    writeFileSync(
      join(root, 'capital.gram'),
      '[capital_of:Tool {description: "The capital city of a country", command: {argv: ["echo", "Paris"], output: "text", env: ["PATH"]}} | (country::String)==>(::Any)]\n',
    );
    expect((await cli(['catalog', 'add', 'capital.gram', '--data', data], { cwd: root })).code).toBe(0);
    writeFileSync(
      join(root, 'agent.gram'),
      '[geo:Agent {description: "Answers geography questions", instruction: "Use capital_of to answer questions about capitals."} | capital_of]\n',
    );
    const noCatalog = await cli(['run', 'agent.gram', 'What is the capital of France?'], { cwd: root });
    expect(noCatalog.code).toBe(1);
    const r = await cli(['run', 'agent.gram', 'What is the capital of France?', '--catalog', data, '--json'], {
      cwd: root,
      env: { PATH: process.env['PATH'] },
    });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { value: { toolsUsed: Array<{ name: string; result: unknown }> } };
    expect(result.value.toolsUsed[0]).toMatchObject({ name: 'capital_of', result: { ok: true, value: { output: 'Paris\n' } } });

    writeFileSync(join(root, 'inputs.jsonl'), '"What is the capital of France?"\n');
    const ab = await cli(['ab', 'agent.gram', '--catalog', data, '--inputs', 'inputs.jsonl', '--json'], { cwd: root, env: { PATH: process.env['PATH'] } });
    expect(ab.code, ab.stderr).toBe(0);
    expect(JSON.parse(ab.stdout).variants).toEqual(['agent']);
  });
});

describe('gramkit serve', () => {
  const serve = (argv: ReadonlyArray<string>, env: Record<string, string> = {}) => startCli(['serve', ...argv], { env, cwd: root });

  it('serves the catalog on a free port, bootstraps the nucleus, honours ALLOWED_TOOL_PERMS, and stops on a signal', async () => {
    const s = await serve(['--port', '0', '--data', fresh('serve')], { ALLOWED_TOOL_PERMS: 'fs:read' });
    const url = /listening on (\S+)/.exec(s.out())?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.out()).toContain('bootstrap: default nucleus');
    const auth = { authorization: `Bearer ${tokenOf(s.out())}` };
    expect(await (await fetch(`${url}/healthz`)).json()).toMatchObject({ status: 'ok' });
    const ok = await fetch(`${url}/api/v1/tools/tool_ls/invoke`, { method: 'POST', headers: auth });
    expect(((await ok.json()) as { ok: boolean }).ok).toBe(true);
    const denied = await fetch(`${url}/api/v1/tools/tool_file_write/invoke`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"path": "x", "content": "y"}',
    });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string; reason: string }).reason).toBe(PolicyCodes.DENIED);
    s.stop();
    expect(await s.done).toBe(0);
    expect(s.err()).toContain('SIGTERM: stopping');
  });

  it('attack: authentication is on by default: a token generated at start, printed once, saved for its owner only, removed at stop', async () => {
    const s = await serve(['--port', '0', '--data', fresh('auth')]);
    const url = s.url() as string;
    const token = tokenOf(s.out());
    expect(token.length).toBeGreaterThanOrEqual(43);
    const file = join(root, '.gramkit', `serve-${new URL(url).port}.token`);
    expect(s.out()).toContain(`saved in ${file}`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // a local process without the token registers nothing and runs nothing
    const sh = { id: 'tool_sh', description: 'Runs sh', input_schema: { c: 'string' }, type: 'command', impl: { argv: ['sh', '-c', '{c}'], sandbox: 'none' } };
    const anonymous = await fetch(`${url}/api/v1/tools`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sh) });
    expect(anonymous.status).toBe(401);
    expect((await fetch(`${url}/api/v1/tools/tool_ls/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' } })).status).toBe(401);
    // with the token, still no program on the host: command tools need --allow-command-tools, and sandbox "none" never comes from a request
    const authed = await fetch(`${url}/api/v1/tools`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(sh),
    });
    expect(((await authed.json()) as { code: string; reason: string }).reason).toBe(CatalogCodes.PROGRAM_REFUSED);
    s.stop();
    expect(await s.done).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('takes tokens from --token-file (one, or several with their scopes) or $GRAMKIT_TOKEN, never from the command line', async () => {
    const tokens = join(root, 'tokens.json');
    writeFileSync(
      tokens,
      JSON.stringify({
        tokens: [
          { name: 'ci', token: 'ci-token-0123456789', scopes: ['read_registry'] },
          { name: 'admin', token: 'admin-token-0123456789', scopes: ['read_registry', 'invoke_tool', 'write_registry'] },
        ],
      }),
    );
    chmodSync(tokens, 0o644);
    const open = await cli(['serve', '--port', '0', '--data', fresh('tf0'), '--token-file', tokens], { cwd: root });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('chmod 600');
    chmodSync(tokens, 0o600);
    const s = await serve(['--port', '0', '--data', fresh('tf1'), '--token-file', tokens]);
    const url = s.url() as string;
    expect(s.out()).toContain('2 tokens from');
    expect(s.out()).not.toContain('ci-token-0123456789');
    const call = (token: string) =>
      fetch(`${url}/api/v1/tools/json_parse/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-caller-scopes': 'invoke_tool' },
        body: '{"text": "1"}',
      });
    expect((await call('ci-token-0123456789')).status).toBe(403);
    expect((await call('admin-token-0123456789')).status).toBe(200);
    s.stop();
    expect(await s.done).toBe(0);
    const env = await serve(['--port', '0', '--data', fresh('tf2')], { GRAMKIT_TOKEN: 'env-token-0123456789' });
    expect((await fetch(`${env.url() as string}/api/v1/tools`, { headers: { authorization: 'Bearer env-token-0123456789' } })).status).toBe(200);
    env.stop();
    expect(await env.done).toBe(0);
    expect((await cli(['serve', '--token', 'x'], { cwd: root })).code).not.toBe(0);
    expect((await cli(['serve', '--port', '0', '--data', fresh('tf3')], { cwd: root, env: { GRAMKIT_TOKEN: 'short' } })).code).toBe(2);
  });

  it('--no-auth says what it allows', async () => {
    const s = await serve(['--port', '0', '--data', fresh('noauth'), '--no-auth']);
    expect(s.err()).toMatch(/^warning\[CLI_NO_AUTH\]: --no-auth: no token\. Any process of this machine/m);
    expect((await fetch(`${s.url() as string}/api/v1/tools`)).status).toBe(200);
    s.stop();
    expect(await s.done).toBe(0);
  });

  it('serves the enabled catalog tools over MCP at /mcp, and tells listening clients when a PUT changes them', async () => {
    const s = await serve(['--port', '0', '--data', fresh('mcp'), '--no-auth', '--allow-command-tools']);
    const url = /listening on (\S+)/.exec(s.out())?.[1] as string;
    let changed!: () => void;
    const told = new Promise<void>((resolve) => (changed = resolve));
    const client = await httpClient('v2-modern', new URL(`${url}/mcp`), () => changed());
    try {
      const before = (await client.listTools()).tools.map((t) => t['name'] as string);
      expect(before).toContain('json-parse');
      expect(before).not.toContain('shout');
      // a call goes through the catalog: its result, and its usage in the history
      const parsed = await client.callTool('json-parse', { text: '{"a": 1}' });
      expect(parsed['isError']).not.toBe(true);
      expect(JSON.stringify(parsed['structuredContent'] ?? parsed['content'])).toContain('"a"');
      const bundle = await fetch(`${url}/tools/bundles/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slug: 'text', displayName: 'Text' }),
      });
      expect(bundle.status, await bundle.text()).toBe(201);
      const put = await fetch(`${url}/tools/bundles/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b/tools/shout/version/1`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          gram: '[shout:Tool {description: "Upper-cases a text", command: {argv: ["tr", "a-z", "A-Z"], stdin: "text", env: ["PATH"], output: "text"}} | (text::String)==>(::Any)]',
        }),
      });
      const created = (await put.json()) as { tool: { toolID: string } };
      expect(put.status, JSON.stringify(created)).toBe(201);
      await told;
      const after = (await client.listTools()).tools.map((t) => t['name'] as string);
      expect(after).toContain('shout');
      const shouted = await client.callTool('shout', { text: 'hi' });
      expect(JSON.stringify(shouted['content'])).toContain('HI');
      // the calls went through the catalog: they are in the usage history
      const usage = (await (await fetch(`${url}/api/v1/tools/usage?limit=5`)).json()) as {
        usage: ReadonlyArray<{ toolID: string; tool: string; ok: boolean }>;
      };
      expect(usage.usage.map((u) => [u.tool, u.ok])).toEqual([
        [created.tool.toolID, true],
        ['json_parse', true],
      ]);
    } finally {
      await client.close();
      s.stop();
    }
    expect(await s.done).toBe(0);
  });

  it('loads a bootstrap file from the working directory', async () => {
    writeFileSync(join(root, 'tools_bootstrap.json'), JSON.stringify({ tools: [{ id: 'tool_json_parse', description: 'Parse JSON text' }] }));
    const s = await serve(['--port', '0', '--data', fresh('boot')]);
    expect(s.out()).toContain(`bootstrap: ${join(root, 'tools_bootstrap.json')}, 1 registered`);
    s.stop();
    expect(await s.done).toBe(0);
    rmSync(join(root, 'tools_bootstrap.json'));
  });

  it('refuses another host without a token, and bad options, before listening', async () => {
    const open = await cli(['serve', '--host', '0.0.0.0', '--no-auth', '--data', fresh('open')], { cwd: root });
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('--no-auth is for 127.0.0.1 only');
    expect((await cli(['serve', '--port', 'http', '--data', fresh('port')], { cwd: root })).code).toBe(2);
    expect((await cli(['serve', '--data', 'a', '--store', 'redis://x'], { cwd: root })).code).toBe(2);
    expect((await cli(['serve', '--bootstrap', 'missing.json', '--port', '0', '--data', fresh('boot2')], { cwd: root })).code).toBe(1);
  });

  it('is listed in the help', async () => {
    const help = await cli(['--help'], { cwd: repo });
    expect(help.stdout).toContain('serve');
    expect(help.stdout).toContain('catalog');
  });
});
