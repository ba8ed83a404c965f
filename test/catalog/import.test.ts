/**
 * `importTools`: an export's tools in one transaction, each decided as `putTool` decides one, ids
 * and timestamps kept; conflicts inside the batch are caught as against the store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId, openCatalog, openFileStore } from 'gramkit/catalog';

const root = mkdtempSync(join(tmpdir(), 'gramkit-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const open = async (dir: string) => {
  const c = await openCatalog({ store: openFileStore(dir), workspace: root });
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
};

describe('importTools', () => {
  it('writes a batch with ids and timestamps kept; counts what is there; refuses a key twice in the batch', async () => {
    const source = await open(join(root, 'source'));
    const bundle = newId();
    await source.putBundle(bundle, { slug: 'b' });
    for (let i = 0; i < 20; i++)
      expect((await source.putTool(bundle, `t${i}`, '1', { description: `Tool ${i}`, type: 'builtin', impl: { builtin: 'json_parse' } })).ok).toBe(true);
    const listed = await source.listTools({ bundleIDs: [bundle], pageSize: 1000 });
    if (!listed.ok) throw new Error(listed.error.message);
    const exported = listed.value.tools.map((t) => ({ bundleID: bundle, slug: t['slug'] as string, version: t['version'] as string, body: t }));

    const target = await open(join(root, 'target'));
    await target.putBundle(bundle, { slug: 'b' });
    const twice = { ...exported[0], body: { ...(exported[0]?.body as object), toolID: newId() } } as (typeof exported)[number];
    const r = await target.importTools([...exported, twice]);
    const refused = r.ok ? r.value.refused.map((e) => [e.index, e.error.reason]) : [];
    expect(r.ok && { created: r.value.created, existing: r.value.existing, refused }).toEqual({
      created: 20,
      existing: 0,
      refused: [[20, CatalogCodes.CONFLICT]],
    });
    const again = await target.importTools(exported);
    expect(again.ok && [again.value.created, again.value.existing]).toEqual([0, 20]);
    await target.close();

    // what reached the store: every tool, as exported
    const reopened = await open(join(root, 'target'));
    const back = await reopened.listTools({ bundleIDs: [bundle], pageSize: 1000 });
    if (!back.ok) throw new Error(back.error.message);
    const keep = (t: Record<string, unknown>) => [t['toolID'], t['slug'], t['createdAt'], t['modifiedAt']];
    expect(back.value.tools.map(keep)).toEqual(listed.value.tools.map(keep));
    await reopened.close();
    await source.close();
  });

  it('a batch of more than 64 tools is applied as a load (search filled later): a search, a listing and a lookup right after it see every tool', async () => {
    const source = await openCatalog({ store: openFileStore(join(root, 'many-source'), { durable: false }), workspace: root });
    if (!source.ok) throw new Error(source.error.message);
    const bundle = newId();
    await source.value.putBundle(bundle, { slug: 'many' });
    const words = ['alpha', 'bravo', 'charlie', 'delta'];
    for (let i = 0; i < 100; i++) {
      const body = { description: `Tool ${words[i % 4]} unique${i}`, type: 'builtin', impl: { builtin: 'json_parse' } };
      expect((await source.value.putTool(bundle, `m${i}`, '1', body)).ok).toBe(true);
    }
    const listed = await source.value.listTools({ bundleIDs: [bundle], pageSize: 1000 });
    if (!listed.ok) throw new Error(listed.error.message);
    await source.value.close();

    const target = await open(join(root, 'many-target'));
    await target.putBundle(bundle, { slug: 'many' });
    const r = await target.importTools(listed.value.tools.map((t) => ({ bundleID: bundle, slug: t['slug'] as string, version: '1', body: t })));
    expect(r.ok && r.value.created).toBe(100);
    /** The slugs found, in rank order. */
    const found = async (q: string): Promise<string[]> => {
      const hits = await target.searchTools({ q, pageSize: 200 });
      if (!hits.ok) throw new Error(hits.error.message);
      return hits.value.tools.filter((t) => t['bundleID'] === bundle).map((t) => t['slug'] as string);
    };
    const slugsOf = async (q: string): Promise<string[]> => (await found(q)).sort();
    const expected = (keep: (i: number) => boolean): string[] =>
      Array.from({ length: 100 }, (_, i) => i)
        .filter(keep)
        .map((i) => `m${i}`)
        .sort();
    expect((await found('unique57'))[0]).toBe('m57');
    expect(await slugsOf('bravo')).toEqual(expected((i) => i % 4 === 1));
    const page = await target.listTools({ bundleIDs: [bundle], pageSize: 1000 });
    expect(page.ok && page.value.tools.length).toBe(100);
    expect((await target.getTool({ bundleID: bundle, slug: 'm99', version: '1' })).ok).toBe(true);
    // a write and a deletion after it, then the rest filled in the background: the same answers
    expect((await target.deleteTool({ bundleID: bundle, slug: 'm5', version: '1' })).ok).toBe(true);
    target.indexInBackground();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await slugsOf('bravo')).toEqual(expected((i) => i % 4 === 1 && i !== 5));
    expect(await slugsOf('tool')).toEqual(expected((i) => i !== 5));
    await target.close();
  });
});
