/**
 * A reader follows the journal without looking its path up at each request (a one-byte read past
 * its position on the journal it keeps open), and still sees every write another store
 * acknowledged, at once: appends, and the journal's replacement by a compaction (which marks the
 * old journal after its rename). Two stores on one directory stand for two processes (each has its
 * own state, its own descriptors and its own lock description).
 */
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Catalog, newId, openCatalog, openFileStore } from 'gramkit/catalog';

const root = mkdtempSync(join(tmpdir(), 'gramkit-follow-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const open = async (dir: string, workspace: string): Promise<Catalog> => {
  // a journal of a few lines: replaced every few writes
  const r = await openCatalog({ store: openFileStore(dir, { durable: false, journalLimitBytes: 300 }), workspace });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('following the journal', () => {
  it('a write acknowledged by one store is seen by the other at once, across journal replacements (model)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (writers) => {
        const dir = mkdtempSync(join(root, 'run-'));
        const a = await open(join(dir, 'data'), dir);
        const b = await open(join(dir, 'data'), dir);
        try {
          // each store reads once first, so both follow the journal from a position
          expect((await a.listBundles()).ok && (await b.listBundles()).ok).toBe(true);
          for (const [i, byA] of writers.entries()) {
            const [writer, reader] = byA ? [a, b] : [b, a];
            const id = newId();
            const put = await writer.putBundle(id, { slug: `b${i}`, displayName: `b${i}`, description: 'a bundle' });
            expect(put.ok).toBe(true);
            const seen = await reader.getBundle(id);
            expect(seen.ok ? seen.value.slug : seen.error.reason).toBe(`b${i}`);
          }
        } finally {
          await a.close();
          await b.close();
        }
      }),
      { numRuns: 25 },
    );
  });
});
