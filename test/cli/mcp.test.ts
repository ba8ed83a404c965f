/**
 * `gramkit mcp` (a server over stdio, started as a process and driven by the SDK's clients of both
 * lines) and MCP servers wherever a specification file or a library goes (`schema`, `types`,
 * `invoke`, `import`, `run`, `ab`), through `runCli`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSpecifications, printSpecifications, ToolCodes } from '../../src/index.js';
import { createMcpHttpHandler, McpCodes, staticToolSource } from '../../src/entries/mcp.js';
import { cli } from '../support/cli.js';
import { CLI, CLIENT_KINDS, FIXTURE, fixtureTools, listen, type Listening, ROOT, stdioClient } from '../mcp/support.js';
import { PolicyCodes } from '../../src/entries/policy.js';
import { BuiltinCodes } from '../../src/entries/builtins.js';

const errorCode = (r: Record<string, unknown>): unknown =>
  ((r['_meta'] as Record<string, Record<string, unknown>>)['gramkit/error'] as Record<string, unknown>)['reason'];
const text = (r: Record<string, unknown>): string => ((r['content'] as Array<{ text: string }>)[0] as { text: string }).text;

describe.each(CLIENT_KINDS)('gramkit mcp over stdio, %s client', (kind) => {
  it('serves the file’s tools through the policies of gramkit run', async () => {
    const client = await stdioClient(kind, process.execPath, [CLI, 'mcp', FIXTURE, '--no-watch']);
    try {
      const { tools } = await client.listTools();
      const printed = JSON.parse((await cli(['schema', FIXTURE, '--format', 'mcp'])).stdout) as Record<string, Record<string, unknown>>;
      for (const t of tools) expect(t['inputSchema']).toEqual(printed[t['name'] as string]?.['inputSchema']);
      expect((await client.callTool('get_weather', { city: 'Oslo', days: 2 }))['structuredContent']).toEqual({ city: 'Oslo', days: 2, conditions: 'sunny' });
      const invalid = await client.callTool('get_weather', { city: 'Oslo', days: 0 });
      expect([invalid['isError'], errorCode(invalid)]).toEqual([true, ToolCodes.INVALID_ARGUMENTS]);
      const refused = await client.callTool('erase', { path: 'a.txt' });
      expect(errorCode(refused)).toBe(PolicyCodes.DENIED);
      expect(text(refused)).toContain('start it with --yes to approve such calls');
      await expect(client.callTool('nope', {})).rejects.toThrow(/unknown tool "nope"/);
      expect(text(await client.callTool('shout', { text: 'ok' }))).toBe('OK');
    } finally {
      await client.close();
    }
  });
});

describe('gramkit mcp: policies and options', () => {
  it('ALLOWED_TOOL_PERMS restricts the tools; --yes approves calls that need approval', async () => {
    const restricted = await stdioClient('v2', process.execPath, [CLI, 'mcp', FIXTURE, '--no-watch', '--yes'], { env: { ALLOWED_TOOL_PERMS: 'net:read' } });
    try {
      const denied = await restricted.callTool('erase', { path: 'a.txt' });
      expect(errorCode(denied)).toBe(PolicyCodes.DENIED);
      expect(text(denied)).toContain('needs the permission fs:write');
      expect((await restricted.callTool('get_weather', { city: 'Rome' }))['isError']).toBeFalsy();
    } finally {
      await restricted.close();
    }
    const open = await stdioClient('v1', process.execPath, [CLI, 'mcp', FIXTURE, '--no-watch', '--yes']);
    try {
      expect(text(await open.callTool('erase', { path: 'a.txt' }))).toBe('erased a.txt');
    } finally {
      await open.close();
    }
  });

  it('serves the built-in tools confined to --workspace: a path outside is an isError result', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'gramkit-mcp-ws-'));
    writeFileSync(join(ws, 'note.txt'), 'hello');
    const client = await stdioClient('v2', process.execPath, [CLI, 'mcp', 'builtin', '--workspace', ws]);
    try {
      const read = await client.callTool('read_file', { path: 'note.txt' });
      expect(read['isError']).toBeFalsy();
      const outside = await client.callTool('read_file', { path: '../../etc/hostname' });
      expect([outside['isError'], errorCode(outside)]).toEqual([true, BuiltinCodes.INVALID_PATH]);
    } finally {
      await client.close();
      rmSync(ws, { recursive: true, force: true });
    }
  });

  it('tells the client tools/list_changed when the file changes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-mcp-watch-'));
    const gram = (names: string[]) => names.map((n) => `[${n}:Tool {description: "Echoes as ${n}"} | (text::String)==>(::String)]\n`).join('');
    const specs = parseSpecifications(gram(['echo_a', 'echo_b']));
    if (specs._tag === 'Left') throw new Error('bad gram');
    // a library in plain JavaScript: tools are recognized by shape
    writeFileSync(
      join(dir, 'library.mjs'),
      specs.right.tools
        .map(
          (s) =>
            `export const ${s.name} = { name: ${JSON.stringify(s.name)}, description: ${JSON.stringify(s.description)}, schema: ${JSON.stringify(s.schema)}, invoke: (a) => a.text };\n`,
        )
        .join(''),
    );
    writeFileSync(join(dir, 'tools.gram'), `{library: "./library.mjs"}\n${gram(['echo_a', 'echo_b'])}`);
    for (const kind of ['v2', 'v2-modern', 'v1'] as const) {
      let changed!: () => void;
      const told = new Promise<void>((resolve) => {
        changed = resolve;
      });
      const client = await stdioClient(kind, process.execPath, [CLI, 'mcp', join(dir, 'tools.gram')], { onListChanged: () => changed() });
      try {
        expect((await client.listTools()).tools.map((t) => t['name'])).toEqual(['echo_a', 'echo_b']);
        writeFileSync(join(dir, 'tools.gram'), `{library: "./library.mjs"}\n${gram(['echo_b'])}`);
        await told;
        expect((await client.listTools()).tools.map((t) => t['name'])).toEqual(['echo_b']);
        await expect(client.callTool('echo_a', { text: 'x' })).rejects.toThrow(/unknown tool "echo_a".*list the tools again/);
      } finally {
        await client.close();
        writeFileSync(join(dir, 'tools.gram'), `{library: "./library.mjs"}\n${gram(['echo_a', 'echo_b'])}`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports what keeps it from serving, with exit 1 (2 for usage)', async () => {
    expect((await cli(['mcp', '-'])).code).toBe(2);
    const missing = await cli(['mcp', 'no/such/file.gram']);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('no/such/file.gram')]);
    const unbound = await cli(['mcp', 'examples/ab/capitals.gram'], { cwd: ROOT });
    expect([unbound.code, unbound.stderr]).toEqual([1, expect.stringContaining('no library implements the tools of examples/ab/capitals.gram (capital_of)')]);
  });
});

describe('MCP servers where a specification file or a library goes', () => {
  let server: Listening;
  let handler: ReturnType<typeof createMcpHttpHandler>;
  let url: string;
  beforeAll(async () => {
    handler = createMcpHttpHandler(staticToolSource(fixtureTools()));
    server = await listen(handler.node);
    url = `mcp:${server.url.href}`;
  });
  afterAll(async () => {
    await handler.close();
    await server.close();
  });

  it('schema and types read the server’s tools as the file’s', async () => {
    for (const format of ['mcp', 'jsonschema', 'openai-strict']) {
      const remote = await cli(['schema', url, '--format', format]);
      const local = await cli(['schema', FIXTURE, '--format', format]);
      expect(remote.code, remote.stderr).toBe(0);
      expect(remote.stdout).toBe(local.stdout);
    }
    // the same declarations, result types included (gramkit sends non-object output schemas in _meta)
    const body = (t: string): string => t.split('\n').slice(1).join('\n');
    const types = await cli(['types', url]);
    expect(body(types.stdout)).toBe(body((await cli(['types', FIXTURE])).stdout));
  });

  it('import writes the server’s tools as gram', async () => {
    const r = await cli(['import', url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('imported 5 tools of 5 definitions');
    const back = parseSpecifications(r.stdout);
    if (back._tag === 'Left') throw new Error(r.stdout);
    expect(back.right.tools.map((t) => t.schema)).toEqual(fixtureTools().tools.map((b) => b.spec.schema));
    expect(r.stdout).toBe(printSpecifications({ tools: back.right.tools }));
  });

  it('invoke calls a server’s tool, as the source of specifications or as the library', async () => {
    const asSource = await cli(['invoke', url, '--tool', 'shout', '--args', '{"text": "remote"}']);
    expect([asSource.code, JSON.parse(asSource.stdout)]).toEqual([0, { ok: true, value: 'REMOTE' }]);
    const asLibrary = await cli(['invoke', FIXTURE, '--tool', 'lookup', '--library', url, '--args', '{"word": "x"}']);
    expect([asLibrary.code, JSON.parse(asLibrary.stdout).error.code]).toEqual([1, 'NOT_FOUND']);
    const stdio = await cli(['invoke', `mcp+stdio:node ${CLI} mcp builtin`, '--tool', 'json_parse', '--args', '{"text": "[1,2]"}'], { cwd: ROOT });
    expect(stdio.code, stdio.stderr).toBe(0);
  });

  it('run and ab use a server as a library: an A/B of a local library against an MCP server', async () => {
    const agent = join(ROOT, 'test/fixtures/mcp/agent.gram');
    const run = await cli(['run', agent, 'What is the weather in London?', '--library', url]);
    expect([run.code, run.stdout]).toEqual([0, expect.stringContaining('rain')]);
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-mcp-ab-'));
    const inputs = join(dir, 'inputs.jsonl');
    writeFileSync(inputs, '{"message": "What is the weather in Paris?"}\n{"message": "What is the weather in London?"}\n');
    const out = join(dir, 'report.json');
    const ab = await cli(['ab', agent, '--library', join(ROOT, 'test/fixtures/mcp/library.ts'), '--library', url, '--inputs', inputs, '--out', out]);
    expect(ab.code, ab.stderr).toBe(0);
    expect(ab.stdout).toContain(`mcp:127.0.0.1:${server.port}`);
    expect(ab.stdout).toContain('answers: the same from every library');
    const report = JSON.parse(readFileSync(out, 'utf8')) as { variants: string[]; summaries: Array<{ succeeded: number }> };
    expect(report.variants).toEqual(['library', `mcp:127.0.0.1:${server.port}`]);
    expect(report.summaries.map((v) => v.succeeded)).toEqual([2, 2]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('gramkit mcp re-serves an MCP server (a proxy with gramkit’s policies)', async () => {
    const client = await stdioClient('v2', process.execPath, [CLI, 'mcp', url]);
    try {
      expect((await client.listTools()).tools.map((t) => t['name'])).toEqual(['get_weather', 'shout', 'lookup', 'erase', 'wait_for_cancel']);
      expect(text(await client.callTool('shout', { text: 'proxied' }))).toBe('PROXIED');
      const refused = await client.callTool('erase', { path: 'a.txt' });
      expect(errorCode(refused)).toBe(PolicyCodes.DENIED);
    } finally {
      await client.close();
    }
  });

  it('a server that cannot be reached is an error with exit 1, for every command', async () => {
    const down = await listen(() => undefined);
    const gone = `mcp:${down.url.href}`;
    await down.close();
    for (const argv of [
      ['schema', gone],
      ['import', gone],
      ['invoke', gone, '--tool', 'x'],
      ['invoke', FIXTURE, '--tool', 'shout', '--library', gone],
    ]) {
      const r = await cli(argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.stderr, argv.join(' ')).toContain('cannot connect to the MCP server');
    }
    const bad = await cli(['schema', 'mcp:ftp://nowhere']);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining(McpCodes.INVALID_ADDRESS)]);
  });
});
