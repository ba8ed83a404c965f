/**
 * `npm create gramkit [dir]`: npm installs create-gramkit (packages/create-gramkit) with gramkit
 * next to it and runs its bin. Laid out as npm lays them out (node_modules/create-gramkit, a copy;
 * node_modules/gramkit, this package), the bin runs `gramkit init` with its arguments: the project
 * is written, a second run overwrites nothing and fails as init does; without gramkit installed,
 * the bin says so.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const pkgDir = join(root, 'packages', 'create-gramkit');
const base = mkdtempSync(join(tmpdir(), 'gramkit-create-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const manifest = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

/** Installs the package into `<dir>/node_modules` (with gramkit when asked) and runs its bin there. */
const runBin = (dir: string, args: ReadonlyArray<string>, withGramkit = true): Promise<{ code: number; stdout: string; stderr: string }> => {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  const installed = join(dir, 'node_modules', 'create-gramkit');
  if (!existsSync(installed)) cpSync(pkgDir, installed, { recursive: true });
  if (withGramkit && !existsSync(join(dir, 'node_modules', 'gramkit'))) symlinkSync(root, join(dir, 'node_modules', 'gramkit'), 'dir');
  const bin = join(installed, manifest.bin['create-gramkit'] as string);
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { cwd: dir, timeout: 60_000, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });
};

describe('npm create gramkit (packages/create-gramkit)', { timeout: 120_000 }, () => {
  it('is a package npm create finds: named create-gramkit, one bin, depending on this gramkit', () => {
    expect(manifest.name).toBe('create-gramkit');
    expect(Object.keys(manifest.bin)).toEqual(['create-gramkit']);
    expect(manifest.dependencies).toEqual({ gramkit: `^${rootManifest.version}` });
  });

  it('its bin runs gramkit init with its arguments: the project is written, and never overwritten', async () => {
    const dir = join(base, 'with');
    const r = await runBin(dir, ['my-app']);
    expect(r.code, r.stderr).toBe(0);
    const files = readdirSync(join(dir, 'my-app'));
    expect(files.some((f) => f.endsWith('.gram'))).toBe(true);
    expect(files).toContain('package.json');
    expect(r.stdout).toContain('npx gramkit check');
    // a second run: init refuses to overwrite, and the bin passes its exit code on
    const again = await runBin(dir, ['my-app']);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/exist|overwrite/i);
  });

  it('says what is missing when gramkit is not installed next to it', async () => {
    const r = await runBin(join(base, 'without'), ['x'], false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('create-gramkit: the gramkit package is not installed');
    expect(existsSync(join(base, 'without', 'x'))).toBe(false);
  });
});
