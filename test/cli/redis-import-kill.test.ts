/**
 * `gramkit catalog import --store redis://…` killed with `kill -9` in the middle of an import of
 * 15,000 tools (three batches; the next batch is decided while the previous one is written): the
 * store holds whole batches only, each record with its registry view and its unique keys, and a
 * second import of the same export completes it, counting what was there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTool, newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const BUNDLE = '018faf50-b7b6-7a01-9a05-a22a6e0af101';
const N = 15_000;
const BATCH = 5000;

/** An export of one bundle holding `n` tools (`gramkit catalog export`'s JSON); its tool ids. */
const exportOf = async (dir: string, n: number): Promise<{ readonly file: string; readonly ids: ReadonlyArray<string> }> => {
  const opened = await openCatalog({ store: openFileStore(join(dir, 'template'), { durable: false }), workspace: dir });
  if (!opened.ok) throw new Error(opened.error.message);
  await opened.value.putBundle(BUNDLE, { slug: 'kill' });
  const t = await opened.value.putTool(BUNDLE, 'template', '1', { description: 'Parses JSON text', type: 'builtin', impl: { builtin: 'json_parse' } });
  if (!t.ok) throw new Error(t.error.message);
  await opened.value.close();
  const template = encodeTool(JSON.parse(JSON.stringify(t.value.value)));
  const tools = Array.from({ length: n }, (_, i) => ({
    ...template,
    toolID: newId(),
    slug: `tool-${i}`,
    displayName: `tool-${i}`,
    description: `Parses text ${i}`,
  }));
  const now = new Date().toISOString();
  const bundle = { schemaVersion: '1', bundleID: BUNDLE, slug: 'kill', displayName: 'kill', description: '', isEnabled: true, isBuiltIn: false };
  const file = join(dir, 'export.json');
  writeFileSync(file, JSON.stringify({ bundles: [{ ...bundle, softDeletedAt: null, createdAt: now, modifiedAt: now }], tools }));
  return { file, ids: tools.map((x) => x.toolID) };
};

const importing = (file: string, url: string, cwd: string) => {
  const child = spawn(process.execPath, [CLI, 'catalog', 'import', file, '--store', url], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, out: () => stdout, err: () => stderr };
};

/** What the store holds, key by key (records, registry views, unique keys, journal position). */
const counts = async (c: ReturnType<typeof createClient>) => ({
  tools: Number(await c.sendCommand(['SCARD', 'catalog:tools'])),
  views: Number(await c.sendCommand(['SCARD', 'tools:registry'])),
  keys: Number(await c.sendCommand(['HLEN', 'catalog:keys'])),
  rev: Number(await c.sendCommand(['GET', 'catalog:rev'])),
});

describe.skipIf(redisUnavailable !== undefined)('kill -9 of gramkit catalog import on Redis', () => {
  let redis: RedisServer;
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    redis = await startRedis();
    client = createClient({ url: redis.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.close();
    await redis?.stop();
  });

  it('leaves whole batches, each tool with its view and keys; a second import completes it', { timeout: 180_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'gramkit-redis-import-kill-'));
    const { file, ids } = await exportOf(root, N);
    const first = importing(file, redis.url, root);
    // killed once the first batch landed (the bundle is revision 1, a batch 5,000 more)
    for (;;) {
      const rev = Number(await client.sendCommand(['GET', 'catalog:rev']));
      if (rev > 1) break;
      const ended = await Promise.race([first.exited, new Promise((r) => setTimeout(r, 5)).then(() => undefined)]);
      if (ended !== undefined) throw new Error(`the import ended before it was killed: ${first.err()}`);
    }
    first.child.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');

    const before = await counts(client);
    expect(before.tools, 'killed mid-import').toBeLessThan(N);
    expect(before.tools % BATCH, 'a batch is written whole or not at all').toBe(0);
    expect(before).toEqual({ tools: before.tools, views: before.tools, keys: before.tools, rev: before.tools + 1 });

    const second = importing(file, redis.url, root);
    expect(await second.exited).toEqual({ code: 0, signal: null });
    expect(second.out()).toBe(`imported 0 bundles and ${N - before.tools} tools (1 bundle and ${before.tools} tools already there)\n`);
    expect(await counts(client)).toEqual({ tools: N, views: N, keys: N, rev: N + 1 });
    const stored = ((await client.sendCommand(['SMEMBERS', 'catalog:tools'])) as string[]).sort();
    expect(stored).toEqual([...ids].sort());
  });
});
