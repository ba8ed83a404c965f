/**
 * Agents' usage histories in the flat-file store: one file per agent id, bounded in number (the
 * least recently used go first) and expiring after their last call, as the Redis store's keys do
 * (30 days). A caller who sends a new `X-Agent-ID` with every call cannot fill the disk with files.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openFileStore } from 'gramkit/catalog';
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
});
