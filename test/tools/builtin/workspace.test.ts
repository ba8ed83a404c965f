import { readFileSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeWorkspacePath, resolveWorkspacePath } from '../../../src/entries/builtins.js';
import { openDirectory } from '../../../src/tools/builtin/workspace-fs.js';
import { emptyRuleEngine, PolicyCodes } from '../../../src/entries/policy.js';
import { SECRET, caller, code, value, workspace } from './support.js';

const corpus = JSON.parse(readFileSync(new URL('../../fixtures/builtin/path-traversal.json', import.meta.url), 'utf8')) as {
  refused: string[];
  inside: string[];
};

/** Every tool argument that takes a path, with the rest of a valid call. */
const pathCalls: ReadonlyArray<readonly [string, (p: string) => Record<string, unknown>]> = [
  ['read_file', (p) => ({ path: p })],
  ['list_directory', (p) => ({ path: p })],
  ['write_file', (p) => ({ path: p, content: 'pwned', createDirs: true })],
  ['delete_file', (p) => ({ path: p, recursive: true })],
  ['move_file', (p) => ({ from: p, to: 'moved.txt' })],
  ['move_file', (p) => ({ from: 'here.txt', to: p, overwrite: true })],
  ['json_parse', (p) => ({ path: p })],
  ['text_search', (p) => ({ pattern: 'SECRET', path: p })],
  ['shell', (p) => ({ command: 'cat secret.txt', cwd: p })],
];

describe('the path-traversal corpus', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws, sandbox: { mode: 'none' } });
  const unruled = caller({ workspace: s.ws, sandbox: { mode: 'none' }, rules: emptyRuleEngine });

  it.each(corpus.refused.flatMap((p) => pathCalls.map(([tool, args]) => ({ tool, p, args: args(p) }))))('$tool refuses $p', async ({ tool, args }) => {
    s.file('here.txt', 'here');
    const r = await call(tool, args);
    // shell checks its safety rules first: a sensitive cwd is POLICY_DENIED before it is resolved
    expect(tool === 'shell' ? ['BUILTIN_INVALID_PATH', 'POLICY_DENIED'] : ['BUILTIN_INVALID_PATH']).toContain(code(r));
    expect(JSON.stringify(r)).not.toContain(SECRET);
  });

  it.each(corpus.inside)('%s stays inside the workspace', async (p) => {
    s.file('here.txt', 'here');
    for (const [tool, args] of pathCalls) {
      if (tool === 'write_file' || tool === 'delete_file' || tool === 'move_file' || tool === 'shell') continue;
      const r = await call(tool, args(p));
      expect(JSON.stringify(r)).not.toContain(SECRET);
      if (!r.ok) expect(r.error.reason).not.toBe('BUILTIN_INVALID_PATH');
    }
    const wp = await resolveWorkspacePath(s.ws, p);
    expect(wp.real.startsWith(`${s.ws}/`)).toBe(true);
    // writing creates the file inside (unless a safety rule refuses the name, as for a .ssh key); the secret is untouched
    const written = await call('write_file', { path: p, content: 'x', createDirs: true });
    if (!written.ok && written.error.reason === PolicyCodes.DENIED) {
      expect(written.error.message).toContain('no-sensitive-files');
      expect(value(await unruled('write_file', { path: p, content: 'x', createDirs: true }))).toMatchObject({ size: 1 });
    } else expect(value(written)).toMatchObject({ size: 1 });
    expect(existsSync(wp.real)).toBe(true);
    expect(readFileSync(path.join(s.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });
});

describe('symbolic links', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws, sandbox: { mode: 'none' } });
  symlinkSync(s.outside, path.join(s.ws, 'link-out'));
  symlinkSync(path.join(s.outside, 'secret.txt'), path.join(s.ws, 'link-file'));
  symlinkSync(path.join(s.outside, 'created-through-link.txt'), path.join(s.ws, 'dangling-out'));
  symlinkSync('..', path.join(s.ws, 'up'));
  symlinkSync('link-out', path.join(s.ws, 'chain'));
  symlinkSync('loop2', path.join(s.ws, 'loop1'));
  symlinkSync('loop1', path.join(s.ws, 'loop2'));
  s.file('real-dir/inner.txt', 'inner');
  symlinkSync(path.join(s.ws, 'real-dir'), path.join(s.ws, 'abs-inside'));
  symlinkSync('real-dir/inner.txt', path.join(s.ws, 'rel-inside'));
  symlinkSync('real-dir/new-target.txt', path.join(s.ws, 'dangling-in'));

  it.each([
    ['read_file', { path: 'link-out/secret.txt' }],
    ['read_file', { path: 'link-file' }],
    ['read_file', { path: 'chain/secret.txt' }],
    ['read_file', { path: 'up/outside/secret.txt' }],
    ['list_directory', { path: 'link-out' }],
    ['list_directory', { path: 'up' }],
    ['write_file', { path: 'link-file', content: 'pwned' }],
    ['write_file', { path: 'link-out/new.txt', content: 'pwned' }],
    ['write_file', { path: 'link-out/sub/new.txt', content: 'pwned', createDirs: true }],
    ['write_file', { path: 'dangling-out', content: 'pwned' }],
    ['write_file', { path: 'up/outside/new.txt', content: 'pwned' }],
    ['delete_file', { path: 'link-out/secret.txt' }],
    ['delete_file', { path: 'up/outside', recursive: true }],
    ['move_file', { from: 'link-out/secret.txt', to: 'stolen.txt' }],
    ['move_file', { from: 'real-dir/inner.txt', to: 'link-out/inner.txt' }],
    ['json_parse', { path: 'link-file' }],
    ['text_search', { pattern: 'SECRET', path: 'link-out' }],
    ['shell', { command: 'cat secret.txt', cwd: 'link-out' }],
  ])('%s %j is refused', async (tool, args) => {
    const r = await call(tool, args);
    expect(code(r)).toBe('BUILTIN_INVALID_PATH');
    expect(JSON.stringify(r)).not.toContain(SECRET);
    expect(readdirSync(s.outside)).toEqual(['secret.txt']);
    expect(readFileSync(path.join(s.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('a loop of links is refused', async () => {
    expect(code(await call('read_file', { path: 'loop1' }))).toBe('BUILTIN_INVALID_PATH');
    expect(code(await call('write_file', { path: 'loop1/x', content: '' }))).toBe('BUILTIN_INVALID_PATH');
  });

  it('links that stay inside work, absolute or relative', async () => {
    expect(value(await call('read_file', { path: 'abs-inside/inner.txt' }))).toMatchObject({ content: 'inner' });
    expect(value(await call('read_file', { path: 'rel-inside' }))).toMatchObject({ content: 'inner' });
    expect(value(await call('write_file', { path: 'dangling-in', content: 'created' }))).toEqual({ path: 'dangling-in', size: 7 });
    expect(readFileSync(path.join(s.ws, 'real-dir/new-target.txt'), 'utf8')).toBe('created');
  });

  it('listing shows links as links and never walks out through them', async () => {
    const r = value<{ entries: Array<{ name: string; type: string }> }>(await call('list_directory', { path: '.', recursive: true }));
    const byName = Object.fromEntries(r.entries.map((e) => [e.name, e.type]));
    expect(byName['link-out']).toBe('symlink');
    expect(byName['real-dir/inner.txt']).toBe('file');
    expect(r.entries.some((e) => e.name.startsWith('link-out/') || e.name.startsWith('up/'))).toBe(false);
  });

  it('searching the workspace does not read through links', async () => {
    const r = value<{ matches: unknown[] }>(await call('text_search', { pattern: 'SECRET' }));
    expect(r.matches).toEqual([]);
  });

  it('deleting or moving a link acts on the link, never its target', async () => {
    symlinkSync(s.outside, path.join(s.ws, 'to-delete'));
    expect(value(await call('delete_file', { path: 'to-delete', recursive: true }))).toEqual({ deleted: ['to-delete'] });
    symlinkSync(s.outside, path.join(s.ws, 'to-move'));
    expect(value(await call('move_file', { from: 'to-move', to: 'moved-link' }))).toEqual({ from: 'to-move', to: 'moved-link' });
    expect(readFileSync(path.join(s.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect(readdirSync(s.outside)).toEqual(['secret.txt']);
  });

  it('a workspace root given through a symbolic link is its real directory', async () => {
    const alias = path.join(path.dirname(s.ws), 'alias');
    symlinkSync(s.ws, alias);
    const c = caller({ workspace: alias, sandbox: { mode: 'none' } });
    expect(value(await c('read_file', { path: 'real-dir/inner.txt' }))).toMatchObject({ content: 'inner' });
    expect(value(await c('read_file', { path: `${alias}/real-dir/inner.txt` }))).toMatchObject({ content: 'inner' });
    expect(value(await c('read_file', { path: `${s.ws}/real-dir/inner.txt` }))).toMatchObject({ content: 'inner' });
  });

  it('a missing workspace root is an error, not a crash', async () => {
    const c = caller({ workspace: path.join(s.outside, 'nope'), sandbox: { mode: 'none' } });
    expect(code(await c('list_directory', {}))).toBe('BUILTIN_INVALID_PATH');
  });
});

describe('races', () => {
  it('a directory swapped for a link to the outside after the check is refused when opened', async () => {
    const s = workspace();
    const dir = s.dir('swap');
    const wp = await resolveWorkspacePath(s.ws, 'swap');
    // the attacker acts between the check and the use
    rmSync(dir, { recursive: true });
    symlinkSync(s.outside, dir);
    await expect(openDirectory(wp.root, wp.real, 'swap')).rejects.toMatchObject({ reason: 'BUILTIN_INVALID_PATH' });
  });

  it('reading while another task flips a directory and a link never returns the secret', async () => {
    const s = workspace();
    s.file('flip/secret.txt', 'inside content');
    const call = caller({ workspace: s.ws, sandbox: { mode: 'none' } });
    const flip = path.join(s.ws, 'flip');
    const parked = path.join(s.ws, 'parked');
    let running = true;
    let flips = 0;
    const flipper = (async () => {
      while (running && flips < 2000) {
        renameSync(flip, parked);
        symlinkSync(s.outside, flip);
        await new Promise((r) => setImmediate(r));
        rmSync(flip);
        renameSync(parked, flip);
        await new Promise((r) => setImmediate(r));
        flips += 1;
      }
    })();
    const outcomes = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const r = await call('read_file', { path: 'flip/secret.txt' });
      expect(JSON.stringify(r)).not.toContain(SECRET);
      outcomes.add(r.ok ? 'ok' : r.error.reason);
      const w = await call('write_file', { path: 'flip/written.txt', content: 'x' });
      outcomes.add(w.ok ? 'ok' : w.error.reason);
    }
    running = false;
    await flipper;
    expect(readdirSync(s.outside)).toEqual(['secret.txt']);
    expect(flips).toBeGreaterThan(0);
    expect([...outcomes].filter((o) => !['ok', 'BUILTIN_INVALID_PATH', 'BUILTIN_FILE_NOT_FOUND', 'BUILTIN_NOT_A_DIRECTORY'].includes(o))).toEqual([]);
  });
});

describe('laws of normalizeWorkspacePath', () => {
  const root = '/work/space';
  const segment = fc.constantFrom('..', '.', '', 'a', 'b', '...', '%2e%2e', 'x y', '~', '\\..');
  const pathText = fc.array(segment, { maxLength: 8 }).map((xs) => xs.join('/'));
  const anyPath = fc.oneof(
    pathText,
    pathText.map((p) => `/${p}`),
    pathText.map((p) => `${root}/${p}`),
    fc.string({ maxLength: 30 }),
  );

  it('a path it accepts is relative, has no `..` segment, and joined to the root stays inside', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const r = normalizeWorkspacePath(root, p);
        if (r._tag === 'Left') return;
        const rel = r.right;
        expect(rel.startsWith('/')).toBe(false);
        expect(rel.split('/')).not.toContain('..');
        const joined = path.posix.join(root, rel);
        expect(joined === root || joined.startsWith(`${root}/`)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
  it('it refuses exactly the paths that climb out or are absolute elsewhere', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const lexical = path.posix.isAbsolute(p) ? path.posix.normalize(p) : path.posix.join(root, p);
        const outside = !(lexical === root || lexical.startsWith(`${root}/`));
        expect(normalizeWorkspacePath(root, p)._tag === 'Left').toBe(outside || p.includes('\0'));
      }),
      { numRuns: 2000 },
    );
  });
  it('normalizing is idempotent', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const r = normalizeWorkspacePath(root, p);
        if (r._tag === 'Right') expect(normalizeWorkspacePath(root, r.right)).toEqual({ _tag: 'Right', right: r.right });
      }),
    );
  });
  it('resolving a random path in a real tree with links never leaves the root', async () => {
    const s = workspace();
    s.file('a/b/c.txt', 'c');
    symlinkSync(s.outside, path.join(s.ws, 'a/out'));
    symlinkSync('../..', path.join(s.ws, 'a/b/up2'));
    symlinkSync('b', path.join(s.ws, 'a/bb'));
    mkdirSync(path.join(s.ws, 'd'));
    writeFileSync(path.join(s.ws, 'd/e'), 'e');
    const seg = fc.constantFrom('a', 'b', 'c.txt', 'out', 'up2', 'bb', 'd', 'e', '..', '.', 'new');
    await fc.assert(
      fc.asyncProperty(fc.array(seg, { minLength: 1, maxLength: 7 }), async (segs) => {
        try {
          const wp = await resolveWorkspacePath(s.ws, segs.join('/'), { allowRoot: true });
          expect(wp.real === s.ws || wp.real.startsWith(`${s.ws}/`)).toBe(true);
        } catch (e) {
          expect((e as { reason?: string }).reason).toBe('BUILTIN_INVALID_PATH');
        }
      }),
      { numRuns: 500 },
    );
  });
});
