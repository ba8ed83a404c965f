import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const messy = '( a:Person {name:"x"} ) - [ :KNOWS ]->( b ) // note\n\n\n[g|a,b]\n';
const clean = '(a:Person {name: "x"})-[:KNOWS]->(b) // note\n\n[g | a, b]\n';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gramkit-fmt-'));
  writeFileSync(join(dir, 'messy.gram'), messy);
  writeFileSync(join(dir, 'clean.gram'), clean);
  writeFileSync(join(dir, 'bad.gram'), '(a\n');
});

describe('gramkit fmt', () => {
  it('prints the formatted text', async () => {
    expect(await cli(['fmt', 'messy.gram'], { cwd: dir })).toEqual({ code: 0, stdout: clean, stderr: '' });
    expect((await cli(['fmt', '-'], { stdin: messy })).stdout).toBe(clean);
  });
  it('--check lists the files that would change and exits 1', async () => {
    const r = await cli(['fmt', '--check', 'messy.gram', 'clean.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('not formatted: messy.gram\n');
    expect(r.stderr).toBe('1 file would be reformatted (run gramkit fmt --write)\n');
    expect(await cli(['fmt', '--check', 'clean.gram'], { cwd: dir })).toEqual({ code: 0, stdout: 'checked 1 file: all formatted\n', stderr: '' });
  });
  it('--write rewrites only the files that change', async () => {
    const r = await cli(['fmt', '--write', '.'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('formatted messy.gram\n');
    expect(r.stderr).toContain('error[GRAM_UNCLOSED_NODE]');
    expect(readFileSync(join(dir, 'messy.gram'), 'utf8')).toBe(clean);
    expect(readFileSync(join(dir, 'bad.gram'), 'utf8')).toBe('(a\n');
    expect((await cli(['fmt', '--check', 'messy.gram', 'clean.gram'], { cwd: dir })).code).toBe(0);
  });
  it('honours --width', async () => {
    const r = await cli(['fmt', '--width', '20', 'messy.gram'], { cwd: dir });
    expect(r.stdout).toBe('(a:Person {name: "x"}) -[:KNOWS]->\n  (b) // note\n\n[g | a, b]\n');
  });
  it('rejects conflicting options with exit 2', async () => {
    expect((await cli(['fmt', '--write', '--check', 'messy.gram'], { cwd: dir })).code).toBe(2);
    expect((await cli(['fmt', '--write', '-'], { cwd: dir })).code).toBe(2);
    expect((await cli(['fmt', '--width', 'wide', 'messy.gram'], { cwd: dir })).code).toBe(2);
  });
  it('keeps the examples formatted', async () => {
    expect((await cli(['fmt', '--check', 'examples/hello.gram', 'examples/notation.gram'])).code).toBe(0);
  });
});
