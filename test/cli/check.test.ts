import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'gramkit-check-'));
mkdirSync(join(dir, 'specs', 'deep'), { recursive: true });
writeFileSync(join(dir, 'specs', 'a.gram'), '(a)-->(b)\n');
writeFileSync(join(dir, 'specs', 'deep', 'b.gram'), '(s {fields: [{name: "a"}], k: 1, k: 2})\n');
writeFileSync(join(dir, 'specs', 'notes.txt'), 'not gram');
writeFileSync(join(dir, 'bad.gram'), '(a {k: })\n(b), (c)\n');

describe('gramkit check', () => {
  it('checks files and directories and prints a summary', async () => {
    const r = await cli(['check', 'specs'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('checked 2 files: ok; 0 errors, 1 warning\n');
    expect(r.stderr).toContain('warning[GRAM_DUPLICATE_KEY]: the key `k` is given twice; the last value wins');
    expect(r.stderr).toContain(`--> ${join('specs', 'deep', 'b.gram')}:1:34`);
  });
  it('fails with every error of every file', async () => {
    const r = await cli(['check', 'bad.gram', 'specs/a.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('checked 2 files: 1 with errors; 2 errors, 0 warnings\n');
    expect(r.stderr.match(/^error\[/gm)).toHaveLength(2);
  });
  it('applies --strict', async () => {
    const r = await cli(['check', '--strict', 'specs'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('checked 2 files (strict): 1 with errors; 1 error, 1 warning\n');
  });
  it('prints diagnostics as JSON with positions', async () => {
    const r = await cli(['check', '--json', 'bad.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    const ds = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
    expect(ds.map((d) => [d.code, d.line, d.column])).toEqual([
      ['GRAM_EXPECTED_VALUE', 1, 8],
      ['GRAM_TOP_LEVEL_SEQUENCE', 2, 4],
    ]);
    expect(ds[0]).toMatchObject({ file: 'bad.gram', severity: 'error', span: { start: 7, end: 8 }, endLine: 1, endColumn: 9 });
  });
  it('reports unreadable files and empty directories', async () => {
    const r = await cli(['check', 'missing.gram', 'specs/a.gram'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot read missing.gram: no such file');
    mkdirSync(join(dir, 'empty'), { recursive: true });
    const e = await cli(['check', 'empty'], { cwd: dir });
    expect(e.code).toBe(1);
    expect(e.stderr).toBe('gramkit: no .gram files found\n');
  });
  it('checks the README quick-start example', async () => {
    const r = await cli(['check', 'examples/hello.gram']);
    expect(r).toEqual({ code: 0, stdout: 'checked 1 file: ok; 0 errors, 0 warnings\n', stderr: '' });
  });
});
