/**
 * The README's path for a package user, run as that user would: its `.gram` file and its library
 * written to a new project whose `node_modules/gramkit` is this package (built), and its commands
 * run there. And the contributor's path never uses `npx gramkit` inside the repository (npm would
 * install the repository into its cache and build it again).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseShell } from '../../src/entries/policy.js';
import { cli } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The text of the README section under `heading`, up to the next `## `. */
const section = (heading: string): string => {
  const start = readme.indexOf(`\n## ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
};

const blocks = (text: string): ReadonlyArray<{ readonly lang: string; readonly body: string }> =>
  [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1] ?? '', body: m[2] ?? '' }));

const project = mkdtempSync(join(tmpdir(), 'gramkit-first-project-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('README: use it in your project', () => {
  const own = blocks(section('Use it in your project'));
  const shell = own.filter((b) => b.lang === 'sh');

  it('installs the package, writes greeter.gram and greetings.mjs, and runs its commands in the new project', async () => {
    expect(shell[0]?.body.trim()).toBe('npm install gramkit\nnpx gramkit init');
    mkdirSync(join(project, 'node_modules'));
    symlinkSync(root, join(project, 'node_modules', 'gramkit'), 'dir');
    const gram = own.find((b) => b.lang === 'gram')?.body ?? '';
    const js = own.find((b) => b.lang === 'js')?.body ?? '';
    expect(gram).toContain('{library: "./greetings.mjs"}');
    writeFileSync(join(project, 'greeter.gram'), gram);
    writeFileSync(join(project, 'greetings.mjs'), js);

    const commands = (shell[1]?.body ?? '')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => parseShell(l).commands[0]?.words ?? []);
    expect(commands.length).toBeGreaterThanOrEqual(3);
    const outputs: string[] = [];
    for (const words of commands) {
      expect(words.slice(0, 2)).toEqual(['npx', 'gramkit']);
      const r = await cli(words.slice(2), { cwd: project });
      expect(r.code, `${words.join(' ')}\n${r.stderr}`).toBe(0);
      outputs.push(r.stdout);
    }
    expect(JSON.parse(outputs[2] as string)).toEqual({ ok: true, value: 'Hello, Ada!' });
    expect(outputs[3]).toBe('Hello, Ada!\n');
  });

  it('the TypeScript library with implement<Tools> loads and binds, with the types gramkit types writes', async () => {
    const text = section('Use it in your project');
    const ts = own.find((b) => b.lang === 'ts')?.body ?? '';
    const types = /`gramkit types (greeter\.gram -o greeter-tools\.d\.ts)`/.exec(text)?.[1]?.split(' ') ?? [];
    expect(types).toHaveLength(3);
    expect((await cli(['types', ...types], { cwd: project })).code).toBe(0);
    expect(text).toContain('`"type": "module"` in your `package.json`');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(project, 'greetings.ts'), ts);
    const r = await cli(['check', 'greeter.gram', '--library', 'greetings.ts'], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('checked 1 file: ok; 0 errors, 0 warnings\n');
  });
});

describe('README: from a clone of this repository', () => {
  it('the quick start is two commands: npm ci && npm run demo (the hello agent, dist/ built when stale), npm test', () => {
    const body = blocks(section('From a clone of this repository')).find((b) => b.lang === 'sh')?.body ?? '';
    expect(body.trim().split('\n')).toEqual(['npm ci && npm run demo', 'npm test']);
  });

  it('npm run demo runs the hello agent on the offline model (its command after the build check, on the dist/ the tests built)', () => {
    const demo = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['demo'] ?? '';
    const run = demo.split(' && ')[1] ?? '';
    expect(run).toMatch(/^node dist\/cli\.js run /);
    const r = spawnSync('sh', ['-c', run], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello, Alice! Nice to meet you.');
  });

  it('no shell block of the README or the docs runs npx gramkit, except the package user’s', () => {
    const docs = [
      'README.md',
      ...['agent.md', 'builtins.md', 'ecosystem.md', 'gram.md', 'implementations.md', 'library.md', 'policies.md', 'providers.md', 'specifications.md'].map(
        (d) => `docs/${d}`,
      ),
    ];
    const userSection = section('Use it in your project');
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8').replace(doc === 'README.md' ? userSection : '\u0000', '');
      for (const b of blocks(text).filter((x) => ['sh', 'bash', 'shell', 'console'].includes(x.lang))) expect(b.body, doc).not.toMatch(/(^|\s)npx gramkit\b/m);
    }
  });
});
