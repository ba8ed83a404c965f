import { describe, expect, it } from 'vitest';
import { parseSpecifications } from '../../src/index.js';
import { cli } from '../support/cli.js';

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
