import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const run = (argv: string[], stdin?: string) => cli(argv, { cwd: ROOT, ...(stdin !== undefined ? { stdin } : {}) });

describe('gramkit schema', () => {
  it('prints every tool of a file, keyed by name', async () => {
    const r = await run(['schema', 'examples/tools.gram']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['sayHello', 'get_weather', 'create_event', 'search_docs']);
    expect(out['sayHello']).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  });

  it('prints one tool with --tool, its result schema with --output', async () => {
    const r = await run(['schema', 'examples/tools.gram', '--tool', 'get_weather']);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'object', required: ['city'] });
    const o = await run(['schema', 'examples/tools.gram', '--tool', 'sayHello', '--output']);
    expect(JSON.parse(o.stdout)).toEqual({ type: 'string' });
  });

  it('exports provider dialects', async () => {
    const openai = await run(['schema', 'examples/tools.gram', '--tool', 'sayHello', '--format', 'openai']);
    expect(JSON.parse(openai.stdout)).toMatchObject({ type: 'function', function: { name: 'sayHello', parameters: { type: 'object' } } });
    const strict = await run(['schema', 'examples/tools.gram', '--format', 'openai-strict']);
    expect(strict.code).toBe(0);
    const all = JSON.parse(strict.stdout) as Record<string, { function: { strict: boolean } }>;
    expect(Object.keys(all)).toEqual(['sayHello', 'get_weather', 'create_event', 'search_docs']);
    const mcp = await run(['schema', 'examples/tools.gram', '--tool', 'get_weather', '--format', 'mcp']);
    expect(JSON.parse(mcp.stdout)).toMatchObject({ name: 'get_weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } });
    const anthropic = await run(['schema', 'examples/tools.gram', '--tool', 'sayHello', '--format', 'anthropic']);
    expect(JSON.parse(anthropic.stdout)).toMatchObject({ name: 'sayHello', input_schema: { type: 'object' } });
  });

  it('reads stdin and JSON specification files', async () => {
    const r = await run(['schema', '-'], '[t:Tool {description: "x"} | (n::Int)==>(::Int)]');
    expect(JSON.parse(r.stdout)).toEqual({ t: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } });
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-schema-'));
    const file = join(dir, 'tools.json');
    writeFileSync(file, JSON.stringify({ tools: [JSON.parse(readFileSync(join(ROOT, 'test/fixtures/spec/golden/json/tools/sayHello.json'), 'utf8'))] }));
    const json = await run(['schema', file, '--tool', 'sayHello']);
    rmSync(dir, { recursive: true, force: true });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
  });

  it('exits 1 with rendered diagnostics for a bad file, an unknown tool or a missing file', async () => {
    const bad = await run(['schema', '-'], '[t:Tool {description: "x"} | (n::Integr)==>(::Int)]');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('error[SPEC_UNKNOWN_TYPE]: unknown type `Integr`');
    expect(bad.stderr).toContain('--> <stdin>:1:34');
    const unknown = await run(['schema', 'examples/tools.gram', '--tool', 'get_wether']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('did you mean `get_weather`?');
    const missing = await run(['schema', 'no/such.gram']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read no/such.gram');
  });

  it('exits 2 on usage errors', async () => {
    expect((await run(['schema', 'examples/tools.gram', '--format', 'yaml'])).code).toBe(2);
    expect((await run(['schema'])).code).toBe(2);
    expect((await run(['schema', 'examples/tools.gram', '--output', '--format', 'openai'])).code).toBe(2);
  });
});
