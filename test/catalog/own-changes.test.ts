/**
 * A server's own writes are announced once, as its own (issue 23: on a single server every creation
 * was followed by a phantom `changed … "remote": true` event for the same record).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CatalogEvent, newId, openCatalog, openFileStore } from 'gramkit/catalog';

const root = mkdtempSync(join(tmpdir(), 'gramkit-own-changes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('changed events of a single server', () => {
  it('each write is one changed event, remote: false, even while syncs run alongside', async () => {
    const opened = await openCatalog({ store: openFileStore(join(root, 'data')), workspace: root });
    if (!opened.ok) throw new Error(opened.error.message);
    const c = opened.value;
    const events: CatalogEvent[] = [];
    c.subscribe((e) => void events.push(e));
    const bundle = newId();
    expect((await c.putBundle(bundle, { slug: 'b' })).ok).toBe(true);
    for (let i = 0; i < 10; i++) {
      // what /mcp does on every request: a sync, here racing the write
      const write = c.putTool(bundle, `t${i}`, '1', { description: 'Parses', type: 'builtin', impl: { builtin: 'json_parse' } });
      const racing: Array<Promise<unknown>> = [];
      for (let k = 0; k < 20; k++) {
        racing.push(c.sync());
        await new Promise((r) => setImmediate(r));
      }
      expect((await write).ok).toBe(true);
      await Promise.all(racing);
      await c.sync();
    }
    const changed = events.filter((e) => e.type === 'changed');
    expect(changed.filter((e) => e.type === 'changed' && e.remote)).toEqual([]);
    expect(changed).toHaveLength(11);
    await c.close();
  });
});
