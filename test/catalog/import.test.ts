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
});
