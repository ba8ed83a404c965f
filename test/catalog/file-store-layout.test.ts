/**
 * The flat-file store's layout at scale: records spread over sub-directories (a catalog in the
 * older flat layout is moved into them when opened), and the snapshot an open reads instead of
 * every file, with the journal's tail on top; a snapshot that is corrupt, cut short or taken on an
 * older journal is not used (every file is read instead).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Catalog, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { echoTool } from './store-suite.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

const fresh = (): { readonly root: string; readonly data: string } => {
  const root = mkdtempSync(join(tmpdir(), 'gramkit-layout-'));
  roots.push(root);
  return { root, data: join(root, 'data') };
};

const open = async (root: string, data: string, snapshotEvery?: number): Promise<Catalog> => {
  const r = await openCatalog({ store: openFileStore(data, snapshotEvery !== undefined ? { snapshotEvery } : {}), workspace: root });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** The slugs of a bundle's tools, sorted. */
const slugs = async (c: Catalog, bundleID: string): Promise<ReadonlyArray<string>> => {
  const list = await c.listTools({ bundleIDs: [bundleID], includeDisabled: true, pageSize: 1000 });
  if (!list.ok) throw new Error(list.error.message);
  return list.value.tools.map((t) => t['slug'] as string).sort();
};

/** A catalog of `n` tools in one bundle; the tools' ids by slug. */
const populate = async (c: Catalog, n: number): Promise<{ readonly bundleID: string; readonly ids: ReadonlyMap<string, string> }> => {
  const bundleID = newId();
  expect((await c.putBundle(bundleID, { slug: 'b' })).ok).toBe(true);
  const ids = new Map<string, string>();
  for (let i = 0; i < n; i++) {
    const r = await c.putTool(bundleID, `t${i}`, '1', echoTool(`t${i}`));
    if (!r.ok) throw new Error(r.error.message);
    ids.set(`t${i}`, r.value.value['toolID'] as string);
  }
  return { bundleID, ids };
};

const toolFile = (data: string, id: string): string => join(data, 'tools', id.slice(-2), `${id}.json`);

describe('records in sub-directories', () => {
  it('keeps each record under the last two hex digits of its id', async () => {
    const { root, data } = fresh();
    const c = await open(root, data);
    const { ids } = await populate(c, 3);
    await c.close();
    for (const id of ids.values()) expect(existsSync(toolFile(data, id))).toBe(true);
    expect(readdirSync(join(data, 'tools')).filter((n) => n.endsWith('.json'))).toEqual([]);
  });

  it('moves a catalog of the older flat layout into place when it opens, and loses nothing', async () => {
    const { root, data } = fresh();
    const c = await open(root, data);
    const { bundleID, ids } = await populate(c, 4);
    await c.close();
    // the older layout: every record directly in tools/ and bundles/, no sub-directories
    for (const kind of ['tools', 'bundles']) {
      const top = join(data, kind);
      for (const shard of readdirSync(top)) {
        for (const f of readdirSync(join(top, shard))) renameSync(join(top, shard, f), join(top, f));
        rmdirSync(join(top, shard));
      }
    }
    expect(readdirSync(join(data, 'tools')).filter((n) => n.endsWith('.json'))).toHaveLength(4);
    const again = await open(root, data);
    expect(await slugs(again, bundleID)).toEqual(['t0', 't1', 't2', 't3']);
    expect(readdirSync(join(data, 'tools')).filter((n) => n.endsWith('.json'))).toEqual([]);
    for (const id of ids.values()) expect(existsSync(toolFile(data, id))).toBe(true);
    // and it keeps writing in the new layout
    expect((await again.putTool(bundleID, 'after', '1', echoTool('after'))).ok).toBe(true);
    expect(await slugs(again, bundleID)).toEqual(['after', 't0', 't1', 't2', 't3']);
    await again.close();
  });
});

describe('the snapshot', () => {
  it('is what an open reads: a record file removed behind the store stays listed until the snapshot is unusable', async () => {
    const { root, data } = fresh();
    const c = await open(root, data, 2);
    const { bundleID, ids } = await populate(c, 5);
    await c.close();
    expect(readFileSync(join(data, 'snapshot'), 'utf8').startsWith('gramkit-snapshot 1 ')).toBe(true);
    // a file removed without a journal line: only a full read notices
    rmSync(toolFile(data, ids.get('t0') as string));
    const fromSnapshot = await open(root, data, 2);
    expect(await slugs(fromSnapshot, bundleID)).toEqual(['t0', 't1', 't2', 't3', 't4']);
    await fromSnapshot.close();
    // a snapshot cut short in its records is not used: every file is read (the cut is in the first
    // record: a cut in a segment appended later leaves the snapshot usable up to that segment, by design)
    const text = readFileSync(join(data, 'snapshot'), 'utf8');
    const firstRow = text.indexOf('\n') + 1;
    writeFileSync(join(data, 'snapshot'), text.slice(0, firstRow + Math.floor((text.indexOf('\n', firstRow) - firstRow) / 2)));
    const full = await open(root, data, 1_000_000);
    expect(await slugs(full, bundleID)).toEqual(['t1', 't2', 't3', 't4']);
    await full.close();
  });

  it('the journal after the snapshot is read on top of it: writes and deletions made since are there', async () => {
    const { root, data } = fresh();
    const c = await open(root, data, 3);
    const { bundleID, ids } = await populate(c, 3);
    await c.close();
    // written by a catalog that never takes a snapshot (its threshold is high): only in the journal
    const writer = await open(root, data, 1_000_000);
    expect((await writer.putTool(bundleID, 'late', '1', echoTool('late'))).ok).toBe(true);
    expect((await writer.deleteTool({ id: ids.get('t1') as string })).ok).toBe(true);
    expect((await writer.patchTool({ id: ids.get('t2') as string }, { isEnabled: false })).ok).toBe(true);
    await writer.close();
    const again = await open(root, data, 1_000_000);
    expect(await slugs(again, bundleID)).toEqual(['late', 't0', 't2']);
    const t2 = await again.getTool({ id: ids.get('t2') as string });
    expect(t2.ok && t2.value['isEnabled']).toBe(false);
    await again.close();
  });

  it('a corrupt snapshot, or one taken on another journal, falls back to reading every file', async () => {
    const { root, data } = fresh();
    const c = await open(root, data, 2);
    const { bundleID, ids } = await populate(c, 4);
    await c.close();
    // a file removed behind the store: a snapshot used would still list it, a full read does not
    rmSync(toolFile(data, ids.get('t0') as string));
    const good = readFileSync(join(data, 'snapshot'), 'utf8');
    const rows = good.split('\n');
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['garbage', 'not a snapshot at all\n'],
      ['a record that does not parse', [rows[0], ...rows.slice(1, -3), `${(rows.at(-3) as string).slice(0, -5)}`, ...rows.slice(-2)].join('\n')],
      // every cursor: the header's and each appended mark's (a write may have appended to the snapshot)
      [
        'another journal',
        good.replace(/(^gramkit-snapshot 1 |^at )(\d+):(\d+)/gm, (_m, head: string, ino: string, at: string) => `${head}${Number(ino) + 1}:${at}`),
      ],
      [
        'a journal position past its end',
        good.replace(/(^gramkit-snapshot 1 |^at )(\d+):(\d+)/gm, (_m, head: string, ino: string) => `${head}${ino}:99999999`),
      ],
      ['a wrong count', [(rows[0] as string).replace(/ (\d+)$/, ' 99'), ...rows.slice(1)].join('\n')],
    ];
    writeFileSync(join(data, 'snapshot'), good);
    const used = await open(root, data, 1_000_000);
    expect(await slugs(used, bundleID)).toEqual(['t0', 't1', 't2', 't3']);
    await used.close();
    for (const [what, text] of cases) {
      writeFileSync(join(data, 'snapshot'), text);
      const again = await open(root, data, 1_000_000);
      expect(await slugs(again, bundleID), what).toEqual(['t1', 't2', 't3']);
      expect(again.problems(), what).toEqual([]);
      await again.close();
    }
  });
});
