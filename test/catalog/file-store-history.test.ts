/**
 * Agents' usage histories in the flat-file store: one file per agent id, bounded in number (the
 * least recently used go first) and expiring after their last call, as the Redis store's keys do
 * (30 days). A caller who sends a new `X-Agent-ID` with every call cannot fill the disk with files.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileStore, type UsageEntry } from 'gramkit/catalog';
import { type Harness, harness } from '../server/support.js';

let h: Harness | undefined;
let data: string | undefined;
afterEach(async () => {
  await h?.close();
  if (data !== undefined) rmSync(data, { recursive: true, force: true });
  h = undefined;
  data = undefined;
});

const agentFiles = (dir: string): string[] => readdirSync(join(dir, 'history', 'agents'));

describe("the file store's agents' histories", () => {
  it('attack: a new agent id on every call leaves at most the cap of files, the most recent kept', async () => {
    data = mkdtempSync(join(tmpdir(), 'gramkit-history-'));
    h = await harness({}, { store: openFileStore(data, { maxAgentHistories: 3 }) });
    for (let i = 0; i < 8; i++) {
      const answer = await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: `[${i}]` }, headers: { 'x-agent-id': `agent-${i}` } });
      expect(answer.status).toBe(200);
      await h.catalog.flush();
    }
    const newest = await h.catalog.usage({ agentId: 'agent-7' });
    expect(newest.ok && newest.value.length).toBe(1);
    await h.catalog.close();
    expect(agentFiles(data).length).toBeLessThanOrEqual(3);
    expect(agentFiles(data).length).toBeGreaterThan(0);
  });

  it('an agent history untouched for longer than the expiry is removed', async () => {
    data = mkdtempSync(join(tmpdir(), 'gramkit-history-'));
    mkdirSync(join(data, 'history', 'agents'), { recursive: true });
    const stale = join(data, 'history', 'agents', `${'a'.repeat(64)}.jsonl`);
    writeFileSync(stale, '{"ts":"2026-01-01T00:00:00.000Z","type":"invoke","tool":"json_parse","ok":true}\n');
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    utimesSync(stale, old, old);
    h = await harness({}, { store: openFileStore(data) });
    expect((await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '[1]' }, headers: { 'x-agent-id': 'fresh' } })).status).toBe(200);
    await h.catalog.close();
    expect(agentFiles(data)).toHaveLength(1);
    expect(agentFiles(data)).not.toContain(`${'a'.repeat(64)}.jsonl`);
  });

  it('the global history keeps the newest `historyCap` calls once it passes its size bound, in order (a model of the file)', async () => {
    data = mkdtempSync(join(tmpdir(), 'gramkit-history-'));
    const store = openFileStore(data, { durable: false });
    const file = join(data, 'history', 'global.jsonl');
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 150 }),
          fc.array(fc.record({ size: fc.integer({ min: 1, max: 400 }), pad: fc.integer({ min: 0, max: 300 }) }), { minLength: 1, maxLength: 6 }),
          async (cap, batches) => {
            rmSync(file, { force: true });
            let model: string[] = [];
            let n = 0;
            for (const b of batches) {
              const entries: UsageEntry[] = Array.from({ length: b.size }, () => {
                n++;
                return { ts: '2026-01-01T00:00:00.000Z', type: 'invoke', tool: `t${n}${'x'.repeat(b.pad)}`, toolID: 'id', ok: true, durationMs: 1 };
              });
              await store.recordUsage([], entries, cap);
              // the store's rule: past max(64 KiB, cap × 600) bytes, the file keeps its newest `cap` lines
              model = [...model, ...entries.map((e) => JSON.stringify(e))];
              if (Buffer.byteLength(`${model.join('\n')}\n`) > Math.max(64 * 1024, cap * 600) && model.length > cap) model = model.slice(-cap);
              expect(
                readFileSync(file, 'utf8')
                  .split('\n')
                  .filter((l) => l !== ''),
              ).toEqual(model);
            }
            const newest = await store.readHistory(undefined, cap);
            expect(newest.map((e) => e.tool)).toEqual(
              model
                .slice(-cap)
                .reverse()
                .map((l) => (JSON.parse(l) as UsageEntry).tool),
            );
          },
        ),
        { numRuns: 25 },
      );
    } finally {
      await store.close();
    }
  });
});
