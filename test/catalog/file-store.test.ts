/**
 * The catalog on the flat-file store: the shared suite, and what only files have (corrupt records
 * skipped and reported, temporary files swept, journal compaction).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { echoTool, storeSuite } from './store-suite.js';

storeSuite('flat files', {
  fresh: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-catalog-'));
    return { open: async () => openFileStore(join(dir, 'data')), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  },
});

describe('the flat-file store', () => {
  it('skips and reports a record that does not decode, and never rewrites it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-catalog-'));
    const data = join(dir, 'data');
    const first = await openCatalog({ store: openFileStore(data), workspace: dir });
    if (!first.ok) throw new Error(first.error.message);
    const b = newId();
    await first.value.putBundle(b, { slug: 'b' });
    const t = await first.value.putTool(b, 'echo', '1', echoTool());
    await first.value.close();
    const id = t.ok ? (t.value.value['toolID'] as string) : '';
    writeFileSync(join(data, 'tools', id.slice(-2), `${id}.json`), '{"half": ');
    const again = await openCatalog({ store: openFileStore(data), workspace: dir });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.problems().map((p) => p.record)).toEqual([`tool ${id}`]);
    expect((await again.value.getTool({ id })).ok).toBe(false);
    expect((await again.value.listTools({ bundleIDs: [b] })).ok).toBe(true);
    await again.value.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a directory that cannot be created is a StoreError (the CLI reports it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-catalog-'));
    writeFileSync(join(dir, 'file'), 'not a directory');
    expect(() => openFileStore(join(dir, 'file', 'catalog'))).toThrow(/cannot create the catalog directory/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves no temporary file behind and journals every write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gramkit-catalog-'));
    const data = join(dir, 'data');
    const c = await openCatalog({ store: openFileStore(data), workspace: dir });
    if (!c.ok) throw new Error(c.error.message);
    const b = newId();
    await c.value.putBundle(b, { slug: 'b' });
    for (let i = 0; i < 5; i++) expect((await c.value.putTool(b, `t${i}`, '1', echoTool(`t${i}`))).ok).toBe(true);
    await c.value.close();
    expect(readdirSync(join(data, 'tmp'))).toEqual([]);
    expect(readdirSync(join(data, 'tools'), { recursive: true }).filter((f) => String(f).endsWith('.json'))).toHaveLength(5);
    // the intent file stays, written in place: empty when no write is in flight
    expect(existsSync(join(data, 'intent')) ? statSync(join(data, 'intent')).size : 0).toBe(0);
    rmSync(dir, { recursive: true, force: true });
  });
});
