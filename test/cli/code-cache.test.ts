/**
 * The binary runs the CLI's bundle through V8's code cache, kept in the user's cache folder
 * (`$XDG_CACHE_HOME/gramkit/v8`, src/cli/bin.ts). The cache is code that runs: V8 checks only the
 * length of the source an entry was made from, so an entry made from any other text of that length
 * runs that text instead of the CLI. The attack tests plant such an entry and check that it runs
 * from no folder others could have written to.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliRun, SERVE_AUTH_ARGS } from '../support/cli.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'dist', 'cli.js');
const bundle = join(root, 'dist', 'cli-main.cjs');
const home = mkdtempSync(join(tmpdir(), 'gramkit-code-cache-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

/** Runs the built CLI with `cache` as XDG_CACHE_HOME. */
const gramkit = (cache: string, args: ReadonlyArray<string>): Promise<CliRun> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [cli, ...args],
      { cwd: root, env: { ...process.env, XDG_CACHE_HOME: cache, NO_COLOR: '1' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }),
    );
  });

/** The one entry of a cache folder. */
const entryOf = (folder: string): string => {
  const entries = readdirSync(folder).filter((f) => f.endsWith('.bin'));
  expect(entries).toHaveLength(1);
  return join(folder, entries[0] ?? '');
};

/**
 * V8's cached data for a program of the bundle's length that prints `forged` and exits, under the
 * header of the genuine entry `genuine`, made by a plain `node` as the binary runs (V8 refuses data
 * made under other flags).
 */
const forge = (genuine: string): Buffer => {
  const length = statSync(bundle).size;
  const body = "process.stdout.write('forged\\n'); process.exit(0);";
  const make = `
    const { Script } = require('node:vm');
    const source = ${JSON.stringify(body)}.padEnd(${length}, ' ');
    const script = new Script('(function (exports, require, module, __filename, __dirname, $gkImp) {\\n' + source + '\\n})', { filename: ${JSON.stringify(bundle)}, lineOffset: -1 });
    process.stdout.write(script.createCachedData().toString('base64'));`;
  const data = Buffer.from(execFileSync(process.execPath, ['-e', make], { encoding: 'utf8' }), 'base64');
  return Buffer.concat([readFileSync(genuine).subarray(0, 16), data]);
};

describe("the CLI's code cache", { timeout: 120_000 }, () => {
  it('is written private on the first run and used, unchanged, by the next', async () => {
    const cache = join(home, 'plain');
    const first = await gramkit(cache, ['run', join('examples', 'helloAgent.gram'), "Hello, I'm Alice"]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('Hello, Alice!');
    const folder = join(cache, 'gramkit', 'v8');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    const entry = entryOf(folder);
    expect(statSync(entry).mode & 0o777).toBe(0o600);
    const written = readFileSync(entry);
    const second = await gramkit(cache, ['run', join('examples', 'helloAgent.gram'), "Hello, I'm Bob"]);
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain('Hello, Bob!');
    // accepted: a refused entry would have been written again
    expect(readFileSync(entry).equals(written)).toBe(true);
  });

  it('each command has an entry of its own (the functions it compiled); a refused command line (a usage error) writes none', async () => {
    const cache = join(home, 'commands');
    const folder = join(cache, 'gramkit', 'v8');
    const bins = (): ReadonlyArray<string> => readdirSync(folder).filter((f) => f.endsWith('.bin'));
    expect((await gramkit(cache, ['no-such-command'])).code).not.toBe(0);
    expect(bins()).toEqual([]);
    expect((await gramkit(cache, ['--version'])).stdout.trim()).toBe(version);
    expect((await gramkit(cache, ['check', join('examples', 'hello.gram')])).code).toBe(0);
    expect(bins()).toHaveLength(2);
  });

  it('a server writes its entry once it has run a while, before it stops', async () => {
    const cache = join(home, 'server');
    const folder = join(cache, 'gramkit', 'v8');
    const env = { ...process.env, XDG_CACHE_HOME: cache, XDG_DATA_HOME: join(home, 'server-data'), HOME: home, NO_COLOR: '1' };
    const child = spawn(process.execPath, [cli, 'serve', ...SERVE_AUTH_ARGS, '--host', '127.0.0.1', '--port', '0'], { cwd: home, env });
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          if (out.includes('listening on')) resolve();
        });
        child.on('exit', (code) => reject(new Error(`serve ended (${code}): ${out}`)));
      });
      const written = (): boolean => existsSync(folder) && readdirSync(folder).some((f) => f.startsWith('serve-') && f.endsWith('.bin'));
      for (let i = 0; i < 100 && !written(); i++) await new Promise((r) => setTimeout(r, 100));
      expect(written()).toBe(true);
      expect(child.exitCode).toBe(null);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('a damaged or foreign entry is compiled without, and replaced', async () => {
    const cache = join(home, 'damaged');
    await gramkit(cache, ['--version']);
    const entry = entryOf(join(cache, 'gramkit', 'v8'));
    const genuine = readFileSync(entry);
    for (const bad of [Buffer.from('not a cache'), Buffer.concat([genuine.subarray(0, 16), Buffer.alloc(64)])]) {
      writeFileSync(entry, bad);
      const r = await gramkit(cache, ['--version']);
      expect(r.stdout.trim()).toBe(version);
      expect(readFileSync(entry).subarray(16).equals(bad.subarray(16))).toBe(false);
    }
  });

  describe('attacks: an entry planted by someone else', () => {
    it('runs from the private folder (what the checks below guard against)', async () => {
      const cache = join(home, 'private');
      await gramkit(cache, ['--version']);
      const entry = entryOf(join(cache, 'gramkit', 'v8'));
      writeFileSync(entry, forge(entry));
      expect((await gramkit(cache, ['--version'])).stdout).toBe('forged\n');
    });

    it('is not used from a folder others may write to', async () => {
      const cache = join(home, 'shared');
      await gramkit(cache, ['--version']);
      const folder = join(cache, 'gramkit', 'v8');
      const entry = entryOf(folder);
      writeFileSync(entry, forge(entry));
      chmodSync(folder, 0o777);
      try {
        const r = await gramkit(cache, ['--version']);
        expect(r.stdout.trim()).toBe(version);
      } finally {
        chmodSync(folder, 0o700);
      }
    });

    it('is not used through a symbolic link to another folder', async () => {
      const cache = join(home, 'linked');
      await gramkit(cache, ['--version']);
      const folder = join(cache, 'gramkit', 'v8');
      const entry = entryOf(folder);
      const elsewhere = join(home, 'elsewhere');
      mkdirSync(elsewhere, { mode: 0o700 });
      writeFileSync(join(elsewhere, entry.slice(folder.length + 1)), forge(entry));
      renameSync(folder, join(cache, 'gramkit', 'v8-moved'));
      symlinkSync(elsewhere, folder);
      const r = await gramkit(cache, ['--version']);
      expect(r.stdout.trim()).toBe(version);
    });
  });
});
