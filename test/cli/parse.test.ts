import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-parse-'));
writeFileSync(join(dir, 'ok.gram'), '{v: 1}\n(a:Person {name: "Alice"})-[:KNOWS]->(b)\n');
writeFileSync(join(dir, 'nested.gram'), '(s {fields: [{name: "a"}]})\n');
writeFileSync(join(dir, 'bad.gram'), '(a)\n(b {k 1})\n(c)-[r]=>(d)\n');
writeFileSync(join(dir, 'dup.gram'), '({a: 1, a: 2})\n');

describe('gramkit parse', () => {
  it('prints canonical JSON, the header first', async () => {
    const r = await cli(['parse', 'ok.gram'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual([
      { subject: { identity: '', labels: [], properties: { v: 1 } }, elements: [] },
      {
        subject: { identity: '', labels: ['KNOWS'], properties: {} },
        elements: [
          { subject: { identity: 'a', labels: ['Person'], properties: { name: 'Alice' } }, elements: [] },
          { subject: { identity: 'b', labels: [], properties: {} }, elements: [] },
        ],
      },
    ]);
    expect(r.stdout.endsWith('}]\n')).toBe(true);
  });
  it('indents with --pretty and prints gram with --format gram', async () => {
    expect((await cli(['parse', 'ok.gram', '--pretty'], { cwd: dir })).stdout).toMatch(/^\[\n {2}\{\n {4}"subject"/);
    const g = await cli(['parse', 'ok.gram', '--format', 'gram'], { cwd: dir });
    expect(g.stdout).toBe('{v: 1}\n(a:Person {name: "Alice"})-[:KNOWS]->(b)\n');
  });
  it('reads standard input for -', async () => {
    const r = await cli(['parse', '-', '--format', 'gram'], { stdin: '( a )-->( b )' });
    expect(r).toEqual({ code: 0, stdout: '(a)-->(b)\n', stderr: '' });
  });
  it('exits 1 with every diagnostic on stderr for invalid input', async () => {
    const r = await cli(['parse', 'bad.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error[GRAM_EXPECTED_COLON]: expected `:` after the key `k`, found the number `1`');
    expect(r.stderr).toContain(' --> bad.gram:2:7');
    expect(r.stderr).toContain('error[GRAM_MIXED_ARROW]');
  });
  it('reports nested values only with --strict', async () => {
    expect((await cli(['parse', 'nested.gram'], { cwd: dir })).code).toBe(0);
    const strict = await cli(['parse', 'nested.gram', '--strict'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('error[GRAM_NESTED_VALUE]');
  });
  it('prints warnings but succeeds', async () => {
    const r = await cli(['parse', 'dup.gram'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning[GRAM_DUPLICATE_KEY]');
    expect(JSON.parse(r.stdout)[0].subject.properties).toEqual({ a: 2 });
  });
  it('exits 1 for a missing file and 2 for usage errors', async () => {
    const missing = await cli(['parse', 'nope.gram'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('error[CLI_UNREADABLE]: cannot read nope.gram: no such file\n  hint: check the path and its permissions\n');
    expect((await cli(['parse', 'ok.gram', '--format', 'yaml'], { cwd: dir })).code).toBe(2);
    expect((await cli(['parse'], { cwd: dir })).code).toBe(2);
  });
});
