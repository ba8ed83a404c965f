/**
 * The binary runs the CLI's bundle through V8's code cache, kept in the user's cache folder
 * (`$XDG_CACHE_HOME/gramkit/v8`, src/cli/bin.ts). The cache is code that runs: V8 checks only the
 * length of the source an entry was made from, so an entry made from any other text of that length
 * runs that text instead of the CLI. The attack tests plant such an entry and check that it runs
 * from no folder others could have written to.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
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

/** Runs the built CLI (`binary`: another copy's `dist/cli.js`; `wrap`: a command to run it under) with `cache` as XDG_CACHE_HOME. */
const gramkit = (cache: string, args: ReadonlyArray<string>, binary = cli, wrap: ReadonlyArray<string> = []): Promise<CliRun> =>
  new Promise((resolve) => {
    execFile(
      wrap[0] ?? process.execPath,
      [...wrap.slice(1), ...(wrap.length > 0 ? [process.execPath] : []), binary, ...args],
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

/** A copy of `dist/` whose bundle differs by a byte (another build of gramkit); its binary. */
const otherBuild = (name: string): string => {
  const copy = join(home, name);
  cpSync(join(root, 'dist'), join(copy, 'dist'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  appendFileSync(join(copy, 'dist', 'cli-main.cjs'), '\n');
  return join(copy, 'dist', 'cli.js');
};

/** The bundle (CRC-32 and length, hex) each entry of `folder` was made from, by name. */
const bundlesOf = (folder: string): Readonly<Record<string, string>> =>
  Object.fromEntries(
    readdirSync(folder)
      .filter((f) => f.endsWith('.bin'))
      .map((f) => [f, readFileSync(join(folder, f)).subarray(8, 16).toString('hex')]),
  );

const DAY = 24 * 60 * 60;

/** Sets the modification time of `path` `days` days back. */
const age = (path: string, days: number): void => {
  const t = Date.now() / 1000 - days * DAY;
  utimesSync(path, t, t);
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

  describe('is bounded: having written an entry, the binary prunes the folder', () => {
    it("keeps the entries of the bundle that wrote last: another build's go, and entries unused for 30 days; a used entry is marked so", async () => {
      const cache = join(home, 'bounded');
      const folder = join(cache, 'gramkit', 'v8');
      const other = otherBuild('bounded-build');
      expect((await gramkit(cache, ['--version'], other)).stdout.trim()).toBe(version);
      expect((await gramkit(cache, ['check', join('examples', 'hello.gram')], other)).code).toBe(0);
      const theirs = Object.values(bundlesOf(folder));
      expect(theirs).toHaveLength(2);
      expect(new Set(theirs).size).toBe(1);

      expect((await gramkit(cache, ['check', join('examples', 'hello.gram')])).code).toBe(0);
      const ours = bundlesOf(folder);
      expect(Object.keys(ours)).toHaveLength(1);
      expect(Object.values(ours)[0]).not.toBe(theirs[0]);

      // the check entry, unused for 31 days, goes when --version writes its own
      const check = join(folder, Object.keys(ours)[0] ?? '');
      age(check, 31);
      expect((await gramkit(cache, ['--version'])).stdout.trim()).toBe(version);
      const left = Object.keys(bundlesOf(folder));
      expect(left).toHaveLength(1);
      expect(left[0]?.startsWith('--')).toBe(true);

      // used two days after it was last marked: marked again
      const entry = join(folder, left[0] ?? '');
      age(entry, 2);
      expect((await gramkit(cache, ['--version'])).stdout.trim()).toBe(version);
      expect(statSync(entry).mtimeMs).toBeGreaterThan(Date.now() - (DAY / 2) * 1000);

      // the other build again: its entry replaces this one's
      expect((await gramkit(cache, ['--version'], other)).stdout.trim()).toBe(version);
      expect(Object.values(bundlesOf(folder))).toEqual([theirs[0]]);
    });

    it('leaves alone what is not its own: other files, a symbolic link and what it points to, a folder and its files, a temporary file being written', async () => {
      const cache = join(home, 'neighbours');
      const folder = join(cache, 'gramkit', 'v8');
      const other = otherBuild('neighbours-build');
      await gramkit(cache, ['--version'], other);
      const foreign = entryOf(folder);
      const outside = join(home, 'outside.bin');
      cpSync(foreign, outside);
      const kept = {
        unrelated: join(folder, 'notes.txt'),
        named: join(folder, 'run-0123abcd.bin'),
        link: join(folder, 'serve-89abcdef.bin'),
        inner: join(folder, 'check-76543210.bin', 'check-01234567.bin'),
        writing: join(folder, 'check-1234abcd.bin.999.abc.tmp'),
      };
      writeFileSync(kept.unrelated, 'mine\n');
      writeFileSync(kept.named, 'not an entry, though named like one');
      symlinkSync(outside, kept.link);
      mkdirSync(join(folder, 'check-76543210.bin'));
      cpSync(foreign, kept.inner);
      writeFileSync(kept.writing, readFileSync(foreign).subarray(0, 100));
      // left by a write that never finished, two hours ago
      const abandoned = join(folder, 'check-1234abcd.bin.998.def.tmp');
      writeFileSync(abandoned, readFileSync(foreign).subarray(0, 100));
      age(abandoned, 2 / 24);

      expect((await gramkit(cache, ['--version'])).stdout.trim()).toBe(version);
      expect(existsSync(foreign)).toBe(false);
      expect(existsSync(abandoned)).toBe(false);
      for (const path of Object.values(kept)) expect(lstatSync(path).isSymbolicLink() || lstatSync(path).isFile()).toBe(true);
      expect(lstatSync(kept.link).isSymbolicLink()).toBe(true);
      expect(readFileSync(outside).equals(readFileSync(kept.inner))).toBe(true);
      expect(readFileSync(kept.unrelated, 'utf8')).toBe('mine\n');
    });

    it('CLIs of two builds writing and pruning at once do not break each other', async () => {
      const cache = join(home, 'concurrent');
      const folder = join(cache, 'gramkit', 'v8');
      const other = otherBuild('concurrent-build');
      const commands: ReadonlyArray<ReadonlyArray<string>> = [
        ['--version'],
        ['check', join('examples', 'hello.gram')],
        ['types', join('examples', 'hello.gram')],
      ];
      const runs = await Promise.all([cli, other].flatMap((binary) => commands.map((args) => gramkit(cache, args, binary))));
      for (const r of runs) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      // whoever pruned last, every file left is a whole entry of one of the two builds
      const sums = new Set(Object.values(bundlesOf(folder)));
      expect(readdirSync(folder).every((f) => f.endsWith('.bin'))).toBe(true);
      expect(sums.size).toBeGreaterThan(0);
      expect(sums.size).toBeLessThanOrEqual(2);
    });

    it('a read-only folder does not fail the command (neither the write nor the pruning can be done)', async () => {
      const cache = join(home, 'read-only');
      const folder = join(cache, 'gramkit', 'v8');
      await gramkit(cache, ['--version'], otherBuild('read-only-build'));
      const foreign = entryOf(folder);
      // root writes whatever the modes say: a read-only mount (bubblewrap) instead
      const asRoot = process.getuid?.() === 0;
      const wrap = asRoot ? ['bwrap', '--bind', '/', '/', '--ro-bind', folder, folder, '--dev', '/dev', '--proc', '/proc'] : [];
      if (!asRoot) chmodSync(folder, 0o500);
      try {
        const r = await gramkit(cache, ['check', join('examples', 'hello.gram')], cli, wrap);
        expect(r).toEqual({ code: 0, stdout: expect.stringContaining('0 errors') as unknown, stderr: '' });
      } finally {
        chmodSync(folder, 0o700);
      }
      expect(readdirSync(folder)).toEqual([foreign.slice(folder.length + 1)]);
    });
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

describe("the CLI's bundle run directly", { timeout: 60_000 }, () => {
  it('says in one line to run dist/cli.js, before the command starts (a usage error)', async () => {
    for (const args of [['--help'], ['run', join('examples', 'helloAgent.gram'), "Hello, I'm Alice"]]) {
      const r = await gramkit(join(home, 'direct'), args, bundle);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('error[CLI_USAGE]: run dist/cli.js (the gramkit binary), not dist/cli-main.cjs (the bundle it runs)\n');
    }
  });
});
