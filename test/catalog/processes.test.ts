/**
 * Several processes on one catalog directory: racing writes keep `<slug, version>` unique across
 * processes (open-file-description locks), and after `kill -9` at any moment the store loads and
 * every acknowledged write is there.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { cli } from '../support/cli.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'gramkit-processes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }), 120_000);

const run = (script: string, args: ReadonlyArray<string>): ChildProcess =>
  spawn(process.execPath, ['--import', 'tsx', fixture(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });

const lines = (
  child: ChildProcess,
  onLine?: (line: string) => void,
): Promise<{ readonly lines: ReadonlyArray<string>; readonly code: number | null; readonly stderr: string }> =>
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

/** A catalog at `dir` with one new bundle. */
const withBundle = async (dir: string, slug: string, snapshotEvery?: number) => {
  const catalog = await openDir(dir, snapshotEvery);
  const bundleID = newId();
  expect((await catalog.putBundle(bundleID, { slug })).ok).toBe(true);
  return { catalog, bundleID };
};

describe('processes racing on one data directory', () => {
  it('6 processes × 60 racing unique PUTs: each key is won exactly once, and every process sees the winner', async () => {
    const dir = join(root, 'race');
    const { catalog, bundleID } = await withBundle(dir, 'race');
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
    const { catalog, bundleID } = await withBundle(dir, 'crash');
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
    expect(
      (await after.putTool(bundleID, 'after', '1', { gram: '[after:Tool {description: "After", builtin: "json_parse"} | (text::String)==>(::Any)]' })).ok,
    ).toBe(true);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    // the intent file stays, written in place: empty when no write is in flight
    expect(existsSync(join(dir, 'intent')) ? statSync(join(dir, 'intent')).size : 0).toBe(0);
    await after.close();
  }, 120_000);
});

describe('kill -9 with writers in several processes and snapshots taken meanwhile', () => {
  it('two processes write at once (their flushes outside the lock), snapshots every few writes: every acknowledged write survives', async () => {
    const dir = join(root, 'crash-snapshots');
    const { catalog, bundleID } = await withBundle(dir, 'crash', 3);
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

/** `gramkit catalog import` as a user runs it (the built CLI, its own process). */
const importProcess = (file: string, dir: string): ChildProcess =>
  spawn(process.execPath, [fileURLToPath(new URL('../../dist/cli.js', import.meta.url)), 'catalog', 'import', file, '--data', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** Every tool of a bundle, page after page. */
const allTools = async (catalog: Awaited<ReturnType<typeof openDir>>, bundleID: string): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const out: Array<Record<string, unknown>> = [];
  let pageToken: string | undefined;
  do {
    const page = await catalog.listTools({ bundleIDs: [bundleID], includeDisabled: true, pageSize: 1000, ...(pageToken !== undefined ? { pageToken } : {}) });
    if (!page.ok) throw new Error(page.error.message);
    out.push(...page.value.tools);
    pageToken = page.value.nextPageToken;
  } while (pageToken !== undefined);
  return out;
};

/** The size of a file, 0 when it is not there. */
const sizeOf = (path: string): number => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

describe('kill -9 during gramkit catalog import', () => {
  it('the catalog opens with no half record and every key once; the import run again completes it', async () => {
    // an export of 11,000 tools (the import writes 5,000 a transaction, flushed together)
    const source = join(root, 'import-source');
    const { catalog, bundleID } = await withBundle(source, 'imported');
    expect((await catalog.putTool(bundleID, 'template', '1', { description: 'Parses JSON', type: 'builtin', impl: { builtin: 'json_parse' } })).ok).toBe(true);
    await catalog.close();
    const file = join(root, 'import-export.json');
    expect((await cli(['catalog', 'export', '--data', source, '-o', file])).code).toBe(0);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { bundles: unknown[]; tools: Array<Record<string, unknown>> };
    const template = exported.tools[0] as Record<string, unknown>;
    const N = 11_000;
    exported.tools = Array.from({ length: N }, (_, i) => ({ ...template, toolID: newId(), slug: `tool-${i}`, description: `Parses JSON, number ${i}` }));
    writeFileSync(file, JSON.stringify(exported));

    // killed twice while a batch is being written (its intent is on disk: some of its records are in place, none journaled)
    const dir = join(root, 'import-crash');
    for (const batchesDone of [1, 0]) {
      const child = importProcess(file, dir);
      const ended = lines(child);
      let killed = false;
      while (!killed && child.exitCode === null) {
        const journaled = sizeOf(join(dir, 'journal')) / 42;
        if (sizeOf(join(dir, 'intent')) > 0 && journaled >= 1 + batchesDone * 5000) {
          child.kill('SIGKILL');
          killed = true;
        } else await new Promise((r) => setTimeout(r, 2));
      }
      const r = await ended;
      expect(killed, `the import ended before it could be killed: ${r.stderr}`).toBe(true);
      expect(r.code === null || r.code === 137, r.stderr).toBe(true);

      // it opens, every record whole, each <slug, version> once
      const after = await openDir(dir);
      expect(after.problems()).toEqual([]);
      const tools = await allTools(after, bundleID);
      expect(tools.length).toBeGreaterThanOrEqual(batchesDone * 5000);
      expect(tools.length).toBeLessThan(N);
      expect(new Set(tools.map((t) => t['slug'])).size).toBe(tools.length);
      await after.close();
    }

    // run again to the end: what the killed runs wrote counts as there, nothing twice
    const done = await lines(importProcess(file, dir));
    expect(done.code, done.stderr).toBe(0);
    const counts = /imported 0 bundles and (\d+) tools \(1 bundle and (\d+) tools already there\)/.exec(done.lines.join('\n'));
    expect(counts, done.lines.join('\n')).not.toBeNull();
    expect(Number(counts?.[1]) + Number(counts?.[2])).toBe(N);
    const final = await openDir(dir);
    expect(final.problems()).toEqual([]);
    const tools = await allTools(final, bundleID);
    expect(new Set(tools.map((t) => t['toolID']))).toEqual(new Set(exported.tools.map((t) => t['toolID'])));
    expect(new Set(tools.map((t) => t['slug'])).size).toBe(N);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
    await final.close();
    for (const d of [dir, source, file]) rmSync(d, { recursive: true, force: true });
  }, 300_000);
});
