/**
 * The catalog's `/mcp` tool list (issue 23: "a write does not rebuild … the tool list that `/mcp`
 * serves"). A write only marks its slug; the list binds the slugs marked since it was last read
 * when it is next read, each once however often it changed. Counted through the catalog's own
 * binding calls (the real catalog underneath), and read through `tools()` as the MCP server reads it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Catalog, newId, openCatalog, openFileStore } from '../../src/entries/catalog.js';
import { catalogToolSource } from '../../src/entries/server.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-mcp-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const tool = (n: number) => ({ description: `Parses JSON text ${n}`, type: 'builtin', impl: { builtin: 'json_parse' } });

/** The catalog, with its binding calls (either kind) counted. */
const counted = (catalog: Catalog): { readonly catalog: Catalog; readonly binds: () => number } => {
  let binds = 0;
  return {
    catalog: {
      ...catalog,
      boundTool: (ref) => {
        binds++;
        return catalog.boundTool(ref);
      },
      boundNow: (ref) => {
        binds++;
        return catalog.boundNow(ref);
      },
    },
    binds: () => binds,
  };
};

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('the /mcp list of a catalog', () => {
  it('a write binds nothing; the next read binds each changed slug once, and shows every write', async () => {
    const opened = await openCatalog({ store: openFileStore(join(root, 'lazy'), { durable: false }), workspace: root });
    if (!opened.ok) throw new Error(opened.error.message);
    const { catalog, binds } = counted(opened.value);
    const source = catalogToolSource(catalog);
    let told = 0;
    source.subscribe(() => told++);
    try {
      const bundle = newId();
      expect((await catalog.putBundle(bundle, { slug: 'own' })).ok).toBe(true);
      await source.ready();
      const before = source.tools().map((b) => b.name);
      const afterFirst = binds();
      told = 0;

      for (let i = 0; i < 20; i++) expect((await catalog.putTool(bundle, `t${i}`, '1', tool(i))).ok).toBe(true);
      // one slug written again and again: bound once, at its newest version
      for (let v = 2; v <= 5; v++) expect((await catalog.putTool(bundle, 't0', String(v), tool(v))).ok).toBe(true);
      await turn();
      expect(binds()).toBe(afterFirst);
      // the subscribers are told (once for the burst), before anything was bound
      expect(told).toBeGreaterThan(0);
      expect(told).toBeLessThan(24);

      const names = source.tools().map((b) => b.name);
      expect(binds()).toBe(afterFirst + 20);
      expect(names.length).toBe(before.length + 20);
      for (let i = 0; i < 20; i++) expect(names).toContain(`t${i}`);
      expect(source.tools().find((b) => b.name === 't0')?.spec.description).toBe('Parses JSON text 5');
      // read again with no change: the same list, nothing bound
      expect(source.tools()).toBe(source.tools());
      expect(binds()).toBe(afterFirst + 20);

      // a deletion takes the tool off at the next read
      expect((await catalog.deleteTool({ bundleID: bundle, slug: 't3', version: '1' })).ok).toBe(true);
      expect(source.tools().map((b) => b.name)).not.toContain('t3');
    } finally {
      source.close();
      await opened.value.close();
    }
  });
});
