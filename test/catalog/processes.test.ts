/**
 * Several processes on one catalog directory: racing writes keep `<slug, version>` unique across
 * processes (open-file-description locks), and after `kill -9` at any moment the store loads and
 * every acknowledged write is there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId, openCatalog, openFileStore } from 'gramkit/catalog';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'gramkit-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (script: string, args: ReadonlyArray<string>): ChildProcess => spawn(process.execPath, ['--import', 'tsx', fixture(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

const lines = (child: ChildProcess, onLine?: (line: string) => void): Promise<{ readonly lines: ReadonlyArray<string>; readonly code: number | null; readonly stderr: string }> =>
  new Promise((resolve) => {
    const out: string[] = [];
    let buffer = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => {
      buffer += c.toString('utf8');
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        out.push(line);
        onLine?.(line);
      }
    });
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('exit', (code) => resolve({ lines: out, code, stderr }));
  });

const openDir = async (dir: string, snapshotEvery?: number) => {
  const r = await openCatalog({ store: openFileStore(dir, snapshotEvery !== undefined ? { snapshotEvery } : {}), workspace: root });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('processes racing on one data directory', () => {
  it('6 processes × 60 racing unique PUTs: each key is won exactly once, and every process sees the winner', async () => {
    const dir = join(root, 'race');
    const catalog = await openDir(dir);
    const bundleID = newId();
    expect((await catalog.putBundle(bundleID, { slug: 'race' })).ok).toBe(true);
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => lines(run('racer.ts', [dir, bundleID, '60', String(i)]))));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const answers = results.flatMap((r) => r.lines.map((l) => JSON.parse(l) as { key: string; ok: boolean; toolID?: string; code?: string; reason?: string }));
    expect(answers).toHaveLength(360);
    const winners = new Map<string, string>();
    for (const a of answers.filter((x) => x.ok)) {
      expect(winners.has(a.key), `${a.key} won twice`).toBe(false);
      winners.set(a.key, a.toolID as string);
    }
    expect(winners.size).toBe(60);
    expect(answers.filter((x) => !x.ok).every((x) => x.reason === CatalogCodes.CONFLICT)).toBe(true);
    const list = await catalog.listTools({ bundleIDs: [bundleID], pageSize: 1000 });
    expect(list.ok && list.value.tools.map((t) => [t['slug'], t['toolID']]).sort()).toEqual([...winners].sort());
    await catalog.close();
  }, 120_000);
});

describe('kill -9 mid-write', () => {
  it('the store loads and every acknowledged write is there, whenever the writer dies', async () => {
    const dir = join(root, 'crash');
    const catalog = await openDir(dir);
    const bundleID = newId();
    expect((await catalog.putBundle(bundleID, { slug: 'crash' })).ok).toBe(true);
    await catalog.close();
    const acknowledged: string[] = [];
    for (const [round, afterAcks] of [3, 7, 1, 12, 5].entries()) {
      const child = run('writer.ts', [dir, bundleID, `r${round}`]);
      let acks = 0;
      const done = lines(child, (line) => {
        if (line === 'ready') return;
        acknowledged.push(line);
        // kill at varying points: after some acknowledgements, plus a little, mid-way through the next write
        if (++acks === afterAcks) setTimeout(() => child.kill('SIGKILL'), round * 3);
      });
      const r = await done;
      expect(r.code === null || r.code === 137, r.stderr).toBe(true);
    }
    const after = await openDir(dir);
    expect(after.problems()).toEqual([]);
    const list = await after.listTools({ bundleIDs: [bundleID], includeDisabled: true, pageSize: 1000 });
    const stored = new Set(list.ok ? list.value.tools.map((t) => t['toolID'] as string) : []);
    for (const id of acknowledged) expect(stored.has(id), `acknowledged ${id} is missing`).toBe(true);
    // the next writer finishes what a dead one left (its intent, its temporary files)
    expect((await after.putTool(bundleID, 'after', '1', { gram: '[after:Tool {description: "After", builtin: "json_parse"} | (text::String)==>(::Any)]' })).ok).toBe(true);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    // the intent file stays, written in place: empty when no write is in flight
    expect(existsSync(join(dir, 'intent')) ? statSync(join(dir, 'intent')).size : 0).toBe(0);
    await after.close();
  }, 120_000);
});

describe('kill -9 with writers in several processes and snapshots taken meanwhile', () => {
  it('two processes write at once (their flushes outside the lock), snapshots every few writes: every acknowledged write survives', async () => {
    const dir = join(root, 'crash-snapshots');
    const catalog = await openDir(dir, 3);
    const bundleID = newId();
    expect((await catalog.putBundle(bundleID, { slug: 'crash' })).ok).toBe(true);
    await catalog.close();
    const acknowledged: string[] = [];
    for (const [round, afterAcks] of [4, 9, 2].entries()) {
      const children = [0, 1].map((w) => run('writer.ts', [dir, bundleID, `r${round}w${w}`, '3']));
      const done = children.map((child, w) => {
        let acks = 0;
        return lines(child, (line) => {
          if (line === 'ready') return;
          acknowledged.push(line);
          if (++acks === afterAcks + w) setTimeout(() => child.kill('SIGKILL'), round * 2 + w);
        });
      });
      for (const r of await Promise.all(done)) expect(r.code === null || r.code === 137, r.stderr).toBe(true);
    }
    expect(existsSync(join(dir, 'snapshot'))).toBe(true);
    for (const snapshotEvery of [3, 1_000_000]) {
      // from the snapshot and the journal after it, and from every file: the same records
      const after = await openDir(dir, snapshotEvery);
      expect(after.problems()).toEqual([]);
      const list = await after.listTools({ bundleIDs: [bundleID], includeDisabled: true, pageSize: 1000 });
      const stored = new Set(list.ok ? list.value.tools.map((t) => t['toolID'] as string) : []);
      for (const id of acknowledged) expect(stored.has(id), `acknowledged ${id} is missing`).toBe(true);
      await after.close();
      if (snapshotEvery === 3) rmSync(join(dir, 'snapshot'));
    }
  }, 120_000);
});
