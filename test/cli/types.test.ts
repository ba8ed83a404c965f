import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;

describe('gramkit types', () => {
  it('prints the declarations of every tool', async () => {
    const r = await cli(['types', 'examples/tools.gram'], { cwd: ROOT });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('export interface GetWeatherArgs {');
    expect(r.stdout).toContain('export interface Tools {');
  });

  it('writes one tool to a file with --tool and --out', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-types-'));
    const r = await cli(['types', join(ROOT, 'examples/tools.gram'), '--tool', 'sayHello', '-o', 'hello.d.ts'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const text = readFileSync(join(dir, 'hello.d.ts'), 'utf8');
    expect(text).toContain('export interface SayHelloArgs {\n  name: string;\n}');
    expect(text).not.toContain('GetWeather');
  });

  it('exits 1 for a file with errors', async () => {
    const r = await cli(['types', '-'], { cwd: ROOT, stdin: '[t:Tool | ()==>(::String)]' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('SPEC_MISSING_DESCRIPTION');
  });
});
