import { describe, expect, it } from 'vitest';
import { parseSpecifications } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { freePort } from '../support/redis.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = (argv: string[], stdin?: string) => cli(argv, { cwd: ROOT, ...(stdin !== undefined ? { stdin } : {}) });

describe('gramkit import', () => {
  it('writes one .gram document with every tool, and a summary', async () => {
    const r = await run(['import', 'examples/spec/mcp-tools.json']);
    expect(r.code).toBe(0);
    const specs = parseSpecifications(r.stdout);
    expect(specs._tag === 'Right' && specs.right.tools.map((t) => t.name)).toEqual(['read_text_file', 'edit_file', 'list_directory_with_sizes']);
    expect(r.stderr).toBe('imported 3 tools of 3 definitions\n');
  });

  it('an MCP server that does not answer: its MCP code (MCP_CONNECT_FAILED), once, with one hint', async () => {
    const port = await freePort();
    const r = await run(['import', `mcp:http://127.0.0.1:${port}/mcp`]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^error\\[MCP_CONNECT_FAILED\\]: cannot connect to the MCP server mcp:http://127.0.0.1:${port}/mcp: `));
    expect(lines.filter((l) => l.startsWith('  hint: '))).toHaveLength(1);
  });

  it('reports what cannot be imported per tool, writes the rest, and exits 1', async () => {
    const r = await run(['import', 'test/fixtures/spec/import/unsupported.json', '--from', 'mcp']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[annotated:Tool');
    expect(r.stderr).toContain('error[SPEC_IMPORT_RECURSIVE_REF]: tool "tree":');
    expect(r.stderr).toContain('warning[SPEC_IMPORT_KEYWORD_DROPPED]: tool "annotated":');
    expect(r.stderr).toContain('imported 1 tool of 6 definitions (5 not imported, 1 with warnings)');
  });

  it('reads stdin, names a bare schema with --name, and prints notes with --verbose', async () => {
    const schema = JSON.stringify({ description: 'Adds two numbers', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] });
    const r = await run(['import', '-', '--from', 'jsonschema', '--name', 'add', '--verbose'], schema);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[add:Tool {description: "Adds two numbers"}');
    expect(r.stderr).toContain('info[SPEC_IMPORT_TYPE_INFERRED]');
  });

  it('imports BFCL entries', async () => {
    const r = await run(['import', 'test/fixtures/bfcl/BFCL_v4_parallel.json', '--from', 'bfcl']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('imported 186 tools of 200 definitions (12 not imported, 2 identical repeats written once, 5 with warnings)');
    const specs = parseSpecifications(r.stdout);
    expect(specs._tag === 'Right' && specs.right.tools.length).toBe(186);
  });

  it('exits 2 on an unknown format, 1 on input that is not JSON', async () => {
    expect((await run(['import', '-', '--from', 'yaml'], '{}')).code).toBe(2);
    const r = await run(['import', '-'], 'not json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SPEC_IMPORT_INVALID_INPUT');
  });
});

describe("gramkit import: the catalog's tool.json and the registry's Tool JSON", () => {
  it("reads a catalog tool.json: its http impl block becomes the gram tool's http implementation", async () => {
    const r = await run(['import', 'examples/service/weather.tool.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('imported 1 tool of 1 definition\n');
    const specs = parseSpecifications(r.stdout);
    if (specs._tag === 'Left') throw new Error(specs.left.map((d) => d.message).join('\n'));
    const [tool] = specs.right.tools;
    expect(tool?.name).toBe('weather');
    expect(tool?.metadata).toMatchObject({ version: 'v2', displayName: 'Weather report', http: { method: 'GET', extractExpr: '$.current.condition.text' } });
    expect(tool?.schema).toMatchObject({ properties: { city: { type: 'string' } }, required: ['city'] });
  });

  it("reads the registry's Tool JSON (a bootstrap's {tools}): the map form as a schema, exec blocks as command tools", async () => {
    const r = await run(['import', 'examples/service/registry-tools.json']);
    expect(r.code, r.stderr).toBe(0);
    const specs = parseSpecifications(r.stdout);
    if (specs._tag === 'Left') throw new Error(specs.left.map((d) => d.message).join('\n'));
    const [get, count] = specs.right.tools;
    expect(get?.name).toBe('tool-http-get');
    expect(get?.schema).toMatchObject({ properties: { url: { type: 'string' } }, required: ['url'] });
    expect(get?.metadata).toMatchObject({ builtin: 'web_fetch', permissions: ['net:read'] });
    expect(count?.metadata).toMatchObject({ command: { argv: ['wc', '-w'], stdin: 'stdin' } });
  });

  it('the gram it writes is what the catalog stores: added to a catalog, exported back the same', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(`${tmpdir()}/gramkit-import-`);
    const dir = `${root}/data`;
    const out = `${root}/weather.gram`;
    const r = await run(['import', 'examples/service/weather.tool.json']);
    writeFileSync(out, r.stdout);
    try {
      const add = await run(['catalog', 'add', out, '--data', dir]);
      expect(add.code, add.stderr).toBe(0);
      const exported = await run(['catalog', 'export', '--format', 'gram', '--data', dir]);
      expect(exported.stdout).toContain(r.stdout.trim());
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('names what is wrong in a tool.json or Tool JSON, and --from tool-json reads a file that does not say', async () => {
    const bad = await run(
      ['import', '-', '--name', 'x'],
      JSON.stringify({ slug: 'bad slug', argSchema: { type: 'object' }, type: 'http', impl: { urlTemplate: 'ftp://x' } }),
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/CATALOG_INVALID_SLUG|CATALOG_INVALID_IMPL/);
    const plain = await run(
      ['import', '-', '--from', 'tool-json', '--name', 'echo-text'],
      JSON.stringify({ description: 'Parses JSON', type: 'builtin', impl: { builtin: 'json_parse' } }),
    );
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('[echo-text:Tool {description: "Parses JSON"');
  });
});
