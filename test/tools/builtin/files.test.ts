import { chmodSync, existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/entries/builtins.js';
import { systemFailure } from '../../../src/tools/builtin/errors.js';
import { caller, code, value, workspace } from './support.js';

const approvalOf = (ws: string, name: string) => builtinTools({ workspace: ws }).find((t) => t.name === name)?.annotations?.approval;
const ctx = { signal: new AbortController().signal, toolName: 'x' };
const needsApproval = async (ws: string, name: string, args: unknown): Promise<boolean> => {
  const a = approvalOf(ws, name);
  return typeof a === 'function' ? a(args, ctx) : a === 'confirm';
};

describe('list_directory', () => {
  const s = workspace();
  s.file('b.txt', 'bb');
  s.file('a/x.ts', 'x');
  s.file('a/.hidden/y', 'y');
  s.file('.env', 'K=V');
  symlinkSync('b.txt', path.join(s.ws, 'link'));
  const call = caller({ workspace: s.ws });

  it('lists one level, sorted, hidden entries left out, with types, sizes and ISO dates', async () => {
    const r = value<{ entries: Array<{ name: string; type: string; size: number; modified: string }>; truncated: boolean }>(
      await call('list_directory', { path: '.' }),
    );
    expect(r.entries.map((e) => [e.name, e.type])).toEqual([
      ['a', 'directory'],
      ['b.txt', 'file'],
      ['link', 'symlink'],
    ]);
    expect(r.entries[1]?.size).toBe(2);
    expect(new Date(r.entries[1]?.modified as string).toISOString()).toBe(r.entries[1]?.modified);
    expect(r.truncated).toBe(false);
  });
  it('recursive and hidden', async () => {
    const r = value<{ entries: Array<{ name: string }> }>(await call('list_directory', { recursive: true, includeHidden: true }));
    expect(r.entries.map((e) => e.name)).toEqual(['.env', 'a', 'a/.hidden', 'a/.hidden/y', 'a/x.ts', 'b.txt', 'link']);
  });
  it('names are relative to the listed directory', async () => {
    const r = value<{ entries: Array<{ name: string }> }>(await call('list_directory', { path: 'a', recursive: true, includeHidden: true }));
    expect(r.entries.map((e) => e.name)).toEqual(['.hidden', '.hidden/y', 'x.ts']);
  });
  it('stops at the entry limit and says so', async () => {
    const c = caller({ workspace: s.ws, limits: { listMaxEntries: 2 } });
    expect(value(await c('list_directory', { recursive: true }))).toMatchObject({ truncated: true, entries: [{ name: 'a' }, { name: 'a/x.ts' }] });
  });
  it('errors: missing directory, a file', async () => {
    expect(code(await call('list_directory', { path: 'nope' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    expect(code(await call('list_directory', { path: 'b.txt' }))).toBe('BUILTIN_NOT_A_DIRECTORY');
  });
  it('rejects unknown arguments (the schema is closed)', async () => {
    expect(code(await call('list_directory', { path: '.', depth: 3 }))).toBe('TOOL_INVALID_ARGUMENTS');
  });
});

describe('read_file', () => {
  const s = workspace();
  s.file('hello.txt', 'héllo\n');
  writeFileSync(path.join(s.ws, 'bin.dat'), Buffer.from([0, 255, 1, 0xc3]));
  writeFileSync(path.join(s.ws, 'bom.txt'), Buffer.from([0xef, 0xbb, 0xbf, 0x41]));
  s.dir('d');
  const call = caller({ workspace: s.ws, limits: { readMaxBytes: 100 } });

  it('reads UTF-8 text with size and modification time', async () => {
    const r = value<{ content: string; size: number; modified: string }>(await call('read_file', { path: 'hello.txt' }));
    expect(r.content).toBe('héllo\n');
    expect(r.size).toBe(7);
    expect(r.modified).toBe(statSync(path.join(s.ws, 'hello.txt')).mtime.toISOString());
  });
  it('keeps a byte-order mark', async () => {
    expect(value(await call('read_file', { path: 'bom.txt' }))).toMatchObject({ content: '\uFEFFA' });
  });
  it('refuses bytes that are not UTF-8 instead of altering them, and reads them as base64', async () => {
    const r = await call('read_file', { path: 'bin.dat' });
    expect(code(r)).toBe('BUILTIN_INVALID_ENCODING');
    if (!r.ok) expect(r.error.message).toContain('offset 1');
    expect(value(await call('read_file', { path: 'bin.dat', encoding: 'base64' }))).toMatchObject({ content: 'AP8Bww==', size: 4 });
  });
  it('refuses files over the limit with their size', async () => {
    s.file('big.txt', 'x'.repeat(101));
    const r = await call('read_file', { path: 'big.txt' });
    expect(code(r)).toBe('BUILTIN_TOO_LARGE');
    if (!r.ok) expect(r.error.details).toEqual({ size: 101, limit: 100 });
    s.file('edge.txt', 'x'.repeat(100));
    expect(value(await call('read_file', { path: 'edge.txt' }))).toMatchObject({ size: 100 });
  });
  it('1 MiB by default', async () => {
    const c = caller({ workspace: s.ws });
    s.file('mib.txt', 'y'.repeat(1024 * 1024));
    expect(value(await c('read_file', { path: 'mib.txt' }))).toMatchObject({ size: 1024 * 1024 });
    s.file('mib1.txt', 'y'.repeat(1024 * 1024 + 1));
    expect(code(await c('read_file', { path: 'mib1.txt' }))).toBe('BUILTIN_TOO_LARGE');
  });
  it('errors: missing, a directory, a FIFO (without blocking), root, no permission', async () => {
    expect(code(await call('read_file', { path: 'nope.txt' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    expect(code(await call('read_file', { path: 'd' }))).toBe('BUILTIN_NOT_A_FILE');
    execFileSync('mkfifo', [path.join(s.ws, 'fifo')]);
    expect(code(await call('read_file', { path: 'fifo' }))).toBe('BUILTIN_NOT_A_FILE');
    expect(code(await call('read_file', { path: '.' }))).toBe('BUILTIN_INVALID_PATH');
    expect(code(await call('read_file', { path: 'hello.txt/x' }))).toBe('BUILTIN_NOT_A_DIRECTORY');
  });
});

describe('write_file', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws, limits: { writeMaxBytes: 1000 } });

  it('creates a file, and directories only when asked', async () => {
    expect(code(await call('write_file', { path: 'n/e/w.txt', content: 'x' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    expect(value(await call('write_file', { path: 'n/e/w.txt', content: 'héllo', createDirs: true }))).toEqual({ path: 'n/e/w.txt', size: 6 });
    expect(readFileSync(path.join(s.ws, 'n/e/w.txt'), 'utf8')).toBe('héllo');
  });
  it('replaces atomically, keeping the permission bits, leaving no temporary file', async () => {
    const p = s.file('run.sh', 'old');
    chmodSync(p, 0o755);
    expect(value(await call('write_file', { path: 'run.sh', content: 'new' }))).toEqual({ path: 'run.sh', size: 3 });
    expect(readFileSync(p, 'utf8')).toBe('new');
    expect(statSync(p).mode & 0o777).toBe(0o755);
    expect(value<{ entries: Array<{ name: string }> }>(await call('list_directory', { includeHidden: true })).entries.map((e) => e.name)).toEqual([
      'n',
      'run.sh',
    ]);
  });
  it('base64 content is written as bytes; malformed base64 is refused', async () => {
    expect(value(await call('write_file', { path: 'b.bin', content: 'AP8B\nww==', encoding: 'base64' }))).toEqual({ path: 'b.bin', size: 4 });
    expect([...readFileSync(path.join(s.ws, 'b.bin'))]).toEqual([0, 255, 1, 0xc3]);
    expect(code(await call('write_file', { path: 'c.bin', content: 'not base64!', encoding: 'base64' }))).toBe('BUILTIN_INVALID_ENCODING');
    expect(existsSync(path.join(s.ws, 'c.bin'))).toBe(false);
  });
  it('refuses content UTF-8 cannot encode (a lone surrogate) instead of altering it', async () => {
    expect(code(await call('write_file', { path: 'x.txt', content: 'a\uD800b' }))).toBe('TOOL_INVALID_ARGUMENTS');
  });
  it('refuses content over the limit, directories and the root', async () => {
    expect(code(await call('write_file', { path: 'big', content: 'x'.repeat(1001) }))).toBe('BUILTIN_TOO_LARGE');
    s.dir('adir');
    expect(code(await call('write_file', { path: 'adir', content: 'x' }))).toBe('BUILTIN_NOT_A_FILE');
    expect(code(await call('write_file', { path: '.', content: 'x' }))).toBe('BUILTIN_INVALID_PATH');
    s.file('afile', '');
    expect(code(await call('write_file', { path: 'afile/x', content: 'x', createDirs: true }))).toBe('BUILTIN_NOT_A_DIRECTORY');
  });
  it('asks for approval only when it would overwrite', async () => {
    s.file('exists.txt', 'e');
    expect(await needsApproval(s.ws, 'write_file', { path: 'exists.txt', content: '' })).toBe(true);
    expect(await needsApproval(s.ws, 'write_file', { path: 'fresh.txt', content: '' })).toBe(false);
    expect(await needsApproval(s.ws, 'write_file', { path: '../escape', content: '' })).toBe(false);
  });
});

describe('delete_file', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws });

  it('deletes a file; a non-empty directory only with recursive, listing what it deleted', async () => {
    s.file('f.txt');
    expect(value(await call('delete_file', { path: 'f.txt' }))).toEqual({ deleted: ['f.txt'] });
    s.file('t/a.txt');
    s.file('t/sub/b.txt');
    s.dir('t/empty');
    expect(code(await call('delete_file', { path: 't' }))).toBe('BUILTIN_DIRECTORY_NOT_EMPTY');
    expect(value(await call('delete_file', { path: 't', recursive: true }))).toEqual({ deleted: ['t/a.txt', 't/empty', 't/sub/b.txt', 't/sub', 't'] });
    expect(existsSync(path.join(s.ws, 't'))).toBe(false);
    s.dir('e');
    expect(value(await call('delete_file', { path: 'e' }))).toEqual({ deleted: ['e'] });
  });
  it('errors: missing, the root', async () => {
    expect(code(await call('delete_file', { path: 'nope' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    expect(code(await call('delete_file', { path: '.', recursive: true }))).toBe('BUILTIN_INVALID_PATH');
    expect(code(await call('delete_file', { path: '', recursive: true }))).toBe('BUILTIN_INVALID_PATH');
    expect(existsSync(s.ws)).toBe(true);
  });
  it('reports what was deleted before a failure', async () => {
    s.file('p/a.txt');
    s.file('p/locked/b.txt');
    chmodSync(path.join(s.ws, 'p/locked'), 0o500);
    const r = await call('delete_file', { path: 'p', recursive: true });
    if (process.getuid?.() === 0) {
      // permissions do not stop root: everything goes, in order
      expect(value(r)).toEqual({ deleted: ['p/a.txt', 'p/locked/b.txt', 'p/locked', 'p'] });
      return;
    }
    chmodSync(path.join(s.ws, 'p/locked'), 0o700);
    expect(code(r)).toBe('BUILTIN_PERMISSION_DENIED');
    if (!r.ok) expect(r.error.details).toEqual({ deleted: ['p/a.txt'] });
  });
  it('always asks for approval', async () => {
    expect(await needsApproval(s.ws, 'delete_file', { path: 'x' })).toBe(true);
  });
});

describe('move_file', () => {
  const s = workspace();
  const call = caller({ workspace: s.ws });

  it('renames files and directories', async () => {
    s.file('a.txt', 'A');
    expect(value(await call('move_file', { from: 'a.txt', to: 'b.txt' }))).toEqual({ from: 'a.txt', to: 'b.txt' });
    s.file('d1/x', 'x');
    expect(value(await call('move_file', { from: 'd1', to: 'd2' }))).toEqual({ from: 'd1', to: 'd2' });
    expect(readFileSync(path.join(s.ws, 'd2/x'), 'utf8')).toBe('x');
  });
  it('does not overwrite unless asked, never replaces a directory', async () => {
    s.file('src.txt', 'new');
    s.file('dst.txt', 'old');
    expect(code(await call('move_file', { from: 'src.txt', to: 'dst.txt' }))).toBe('BUILTIN_FILE_EXISTS');
    expect(readFileSync(path.join(s.ws, 'dst.txt'), 'utf8')).toBe('old');
    expect(value(await call('move_file', { from: 'src.txt', to: 'dst.txt', overwrite: true }))).toEqual({ from: 'src.txt', to: 'dst.txt' });
    expect(readFileSync(path.join(s.ws, 'dst.txt'), 'utf8')).toBe('new');
    expect(existsSync(path.join(s.ws, 'src.txt'))).toBe(false);
    s.file('f.txt');
    s.dir('dd');
    expect(code(await call('move_file', { from: 'f.txt', to: 'dd', overwrite: true }))).toBe('BUILTIN_NOT_A_FILE');
    s.dir('dir-a');
    s.file('file-b');
    expect(code(await call('move_file', { from: 'dir-a', to: 'file-b', overwrite: true }))).toBe('BUILTIN_NOT_A_DIRECTORY');
    s.dir('dir-c');
    expect(code(await call('move_file', { from: 'dir-a', to: 'dir-c' }))).toBe('BUILTIN_FILE_EXISTS');
  });
  it('errors: missing source, missing destination directory, into itself', async () => {
    expect(code(await call('move_file', { from: 'ghost', to: 'x' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    s.file('m.txt');
    expect(code(await call('move_file', { from: 'm.txt', to: 'no/such/dir/m.txt' }))).toBe('BUILTIN_FILE_NOT_FOUND');
    s.dir('outer/inner');
    expect(code(await call('move_file', { from: 'outer', to: 'outer/inner/x' }))).toBe('BUILTIN_INVALID_PATH');
  });
  it('asks for approval only when overwriting an existing file', async () => {
    s.file('taken.txt');
    expect(await needsApproval(s.ws, 'move_file', { from: 'a', to: 'taken.txt', overwrite: true })).toBe(true);
    expect(await needsApproval(s.ws, 'move_file', { from: 'a', to: 'taken.txt' })).toBe(false);
    expect(await needsApproval(s.ws, 'move_file', { from: 'a', to: 'free.txt', overwrite: true })).toBe(false);
  });
});

describe('system errors', () => {
  it("map to the file tools' shared codes and say what to do", () => {
    const e = (code: string) => Object.assign(new Error(code), { code });
    expect(systemFailure(e('EACCES'), 'a.txt')).toMatchObject({ reason: 'BUILTIN_PERMISSION_DENIED', message: 'permission denied for "a.txt"' });
    expect(systemFailure(e('EPERM'), 'a.txt').reason).toBe('BUILTIN_PERMISSION_DENIED');
    expect(systemFailure(e('EROFS'), 'a.txt').reason).toBe('BUILTIN_PERMISSION_DENIED');
    expect(systemFailure(e('ENOENT'), 'a.txt').reason).toBe('BUILTIN_FILE_NOT_FOUND');
    expect(systemFailure(e('ENOSPC'), 'a.txt')).toMatchObject({ reason: 'TOOL_EXECUTION_ERROR', retryable: false });
    expect(systemFailure(e('EMFILE'), 'a.txt')).toMatchObject({ reason: 'TOOL_EXECUTION_ERROR', retryable: true });
    expect(systemFailure(e('ELOOP'), 'a.txt')).toMatchObject({ reason: 'BUILTIN_INVALID_PATH', retryable: true });
  });
  it('a file root cannot read is BUILTIN_PERMISSION_DENIED (when not running as root)', async () => {
    const s = workspace();
    const p = s.file('private.txt', 'p');
    chmodSync(p, 0o000);
    const r = await caller({ workspace: s.ws })('read_file', { path: 'private.txt' });
    if (process.getuid?.() === 0) expect(value(r)).toMatchObject({ content: 'p' });
    else expect(code(r)).toBe('BUILTIN_PERMISSION_DENIED');
  });
});
