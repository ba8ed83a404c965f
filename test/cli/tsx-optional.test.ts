/**
 * tsx is an optional peer dependency: the built CLI, installed without it, runs `.js` libraries,
 * and a TypeScript library is `PROJECT_LIBRARY_NEEDS_TSX` with the way to install it (never a stack trace).
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LibraryCodes } from '../../src/project/load-library.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const home = mkdtempSync(join(tmpdir(), 'gramkit-no-tsx-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * The built CLI as an install without tsx has it: in a folder with no node_modules above it, next to
 * a node_modules holding every installed package but tsx (the CLI loads some dependencies from there).
 */
const install = (): string => {
  const dist = join(home, 'dist');
  mkdirSync(dist);
  for (const f of readdirSync(join(root, 'dist')).filter((f) => f.endsWith('.js') || f.endsWith('.cjs'))) copyFileSync(join(root, 'dist', f), join(dist, f));
  writeFileSync(join(home, 'package.json'), '{"type": "module"}\n');
  const modules = join(home, 'node_modules');
  mkdirSync(modules);
  for (const p of readdirSync(join(root, 'node_modules'))) {
    if (p !== 'tsx' && !p.startsWith('.')) symlinkSync(join(root, 'node_modules', p), join(modules, p));
  }
  return join(dist, 'cli.js');
};

const gramkit = (cli: string, args: ReadonlyArray<string>): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: home, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

describe('without tsx', { timeout: 90_000 }, () => {
  it('runs a .js library, and says how to install tsx for a .ts one', async () => {
    const cli = install();
    writeFileSync(join(home, 'tools.gram'), '[double:Tool {description: "Doubles a number"} | (n::Integer)==>(::Integer)]\n');
    const tool = `{ name: 'double', description: 'Doubles a number', schema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, invoke: ({ n }) => n * 2 }`;
    writeFileSync(join(home, 'lib.mjs'), `export default [${tool}];\n`);
    writeFileSync(join(home, 'lib.ts'), `export default [${tool}];\n`);
    const js = await gramkit(cli, ['invoke', 'tools.gram', '--library', 'lib.mjs', '--args', '{"n": 21}']);
    expect(js.stderr).toBe('');
    expect(JSON.parse(js.stdout)).toEqual({ ok: true, value: 42 });
    const ts = await gramkit(cli, ['invoke', 'tools.gram', '--library', 'lib.ts', '--args', '{"n": 21}']);
    expect(ts.code).toBe(1);
    expect(ts.stderr).toContain(LibraryCodes.NEEDS_TSX);
    expect(ts.stderr).toContain('npm install --save-dev tsx');
    expect(ts.stderr).not.toMatch(/\n\s+at /);
  });
});
