/**
 * The catalog on Redis, with a real `redis-server` started by the test (127.0.0.1, a free port, a
 * temporary directory) and stopped after: the shared suite, the registry's key layout, and two
 * servers sharing one catalog over HTTP. redis-server is required (as bubblewrap is; .ci/run installs
 * both): without it these tests fail, saying how to install it, rather than pass unseen.
 */
import { createClient } from '@redis/client';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId, openCatalog, openRedisStore, type Catalog } from 'gramkit/catalog';
import { createService, startServer, type RunningServer } from 'gramkit/server';
import { type RedisServer, startRedis } from '../support/redis.js';
import { echoTool, storeSuite } from './store-suite.js';

{
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const flush = async (): Promise<void> => {
    const c = createClient({ url: redis.url });
    await c.connect();
    await c.sendCommand(['FLUSHALL']);
    await c.close();
  };

  storeSuite('Redis', {
    fresh: async () => {
      await flush();
      return { open: () => openRedisStore(redis.url), cleanup: async () => undefined };
    },
  });

  describe('the Redis store', () => {
    it("keeps seed 002's key layout: tools:registry, tool:<id> (the seed's Tool JSON), usage histories; gramkit's records under catalog:", async () => {
      await flush();
      const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: mkdtempSync(join(tmpdir(), 'gramkit-ws-')), usageFlushMs: 5 });
      if (!opened.ok) throw new Error(opened.error.message);
      const catalog = opened.value;
      const r = await catalog.registerTool({ id: 'tool_ls', description: 'List', created_by: 'agent' });
      const id = r.ok ? (r.value.value['tool_id'] as string) : '';
      await catalog.invokeTool({ id: 'tool_ls' }, {}, { agentId: 'agent-7' });
      await catalog.flush();
      const c = createClient({ url: redis.url });
      await c.connect();
      expect(await c.sendCommand(['SMEMBERS', 'tools:registry'])).toEqual(['tool_ls']);
      const seed = JSON.parse((await c.sendCommand(['GET', 'tool:tool_ls'])) as string) as Record<string, unknown>;
      expect(Object.keys(seed).sort()).toEqual([
        'created_at',
        'created_by',
        'description',
        'id',
        'input_schema',
        'name',
        'output_schema',
        'permissions',
        'safety_level',
      ]);
      expect(seed).toMatchObject({ id: 'tool_ls', description: 'List', created_by: 'agent', permissions: ['fs:read'] });
      expect(await c.sendCommand(['SISMEMBER', 'catalog:tools', id])).toBe(1);
      expect(JSON.parse((await c.sendCommand(['GET', `catalog:tool:${id}`])) as string)).toMatchObject({ registryId: 'tool_ls', toolID: id });
      // an agent's history at the seed's key, expiring
      const agentKey = 'tools:agent-7:usage_history';
      expect(await c.sendCommand(['LLEN', agentKey])).toBe(1);
      expect(JSON.parse(((await c.sendCommand(['LRANGE', agentKey, '0', '0'])) as string[])[0] as string)).toMatchObject({
        type: 'invoke',
        tool: 'tool_ls',
        agent_id: 'agent-7',
      });
      expect(Number(await c.sendCommand(['TTL', agentKey]))).toBeGreaterThan(0);
      expect(await c.sendCommand(['LLEN', 'tools:global:usage_history'])).toBe(1);
      // the agent id "global" would name the global list, so it (and ids beginning with ~) get a ~ before them
      await catalog.invokeTool({ id: 'tool_ls' }, {}, { agentId: 'global' });
      await catalog.invokeTool({ id: 'tool_ls' }, {}, { agentId: '~global' });
      await catalog.flush();
      expect(await c.sendCommand(['LLEN', 'tools:global:usage_history'])).toBe(3);
      expect(await c.sendCommand(['LLEN', 'tools:~global:usage_history'])).toBe(1);
      expect(await c.sendCommand(['LLEN', 'tools:~~global:usage_history'])).toBe(1);
      // deleting the tool removes its view with the record
      expect((await catalog.deleteRegistryTool('tool_ls')).ok).toBe(true);
      expect(await c.sendCommand(['SCARD', 'tools:registry'])).toBe(0);
      expect(await c.sendCommand(['EXISTS', 'tool:tool_ls'])).toBe(0);
      await c.close();
      await catalog.close();
    });

    it('usage is recorded by one script call a flush, sent by its SHA-1 (EVALSHA), and sent again when Redis forgot it', async () => {
      await flush();
      const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: mkdtempSync(join(tmpdir(), 'gramkit-ws-')), usageFlushMs: 5 });
      if (!opened.ok) throw new Error(opened.error.message);
      const catalog = opened.value;
      const c = createClient({ url: redis.url });
      await c.connect();
      try {
        const r = await catalog.registerTool({ id: 'tool_ls', description: 'List', created_by: 'agent' });
        const id = r.ok ? (r.value.value['tool_id'] as string) : '';
        const calls = async (cmd: string): Promise<number> =>
          Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec((await c.sendCommand(['INFO', 'commandstats'])) as string)?.[1] ?? 0);
        const flushes = async (n: number, agentId: string): Promise<void> => {
          for (let i = 0; i < n; i++) {
            await catalog.invokeTool({ id: 'tool_ls' }, {}, { agentId });
            await catalog.flush();
          }
        };
        await flushes(1, 'agent-1');
        await c.sendCommand(['CONFIG', 'RESETSTAT']);
        await flushes(3, 'agent-1');
        // one EVALSHA a flush (its commands run inside it): no script text, no MULTI around several commands
        expect([await calls('evalsha'), await calls('eval'), await calls('multi'), await calls('exec')]).toEqual([3, 0, 0, 0]);
        expect(await c.sendCommand(['HGET', 'catalog:usage:count', id])).toBe('4');
        expect(await c.sendCommand(['LLEN', 'tools:agent-1:usage_history'])).toBe(4);
        expect(Number(await c.sendCommand(['TTL', 'tools:agent-1:usage_history']))).toBeGreaterThan(0);
        expect(Number(await c.sendCommand(['TTL', 'tools:global:usage_history']))).toBe(-1);
        // Redis forgot the script (a restart, SCRIPT FLUSH): the flush sends it again, once
        await c.sendCommand(['SCRIPT', 'FLUSH']);
        await c.sendCommand(['CONFIG', 'RESETSTAT']);
        await flushes(2, 'agent-2');
        expect(await calls('eval')).toBe(1);
        expect(await c.sendCommand(['HGET', 'catalog:usage:count', id])).toBe('6');
        expect(await c.sendCommand(['LLEN', 'tools:global:usage_history'])).toBe(6);
        const last = (await c.sendCommand(['HGET', 'catalog:usage:last', id])) as string;
        expect(Number.isNaN(Date.parse(last))).toBe(false);
      } finally {
        await c.close();
        await catalog.close();
      }
    });

    it('an unreachable Redis is a StoreError with the URL but not its password', async () => {
      await expect(openRedisStore('redis://user:secret@127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.toThrow(
        /cannot connect to Redis at redis:\/\/127\.0\.0\.1:1/,
      );
      await expect(openRedisStore('redis://user:secret@127.0.0.1:1', { connectTimeoutMs: 500 })).rejects.not.toThrow(/secret/);
    });

    it('a Redis that stops answering fails a request after 5 seconds (CATALOG_STORE_UNAVAILABLE), not when it answers again', async () => {
      const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: tmpdir() });
      if (!opened.ok) throw new Error(opened.error.message);
      const c = createClient({ url: redis.url });
      await c.connect();
      try {
        // every other client's commands wait 9 seconds (CLIENT PAUSE): the catalog's sync waits on its reply
        await c.sendCommand(['CLIENT', 'PAUSE', '9000', 'ALL']);
        const r = await opened.value.listTools();
        expect(r.ok ? 'answered' : r.error.reason).toBe(CatalogCodes.STORE_UNAVAILABLE);
        expect(r.ok ? '' : r.error.message).toMatch(/no reply in 5000 ms/);
      } finally {
        await c.sendCommand(['CLIENT', 'UNPAUSE']);
        await c.close();
        await opened.value.close();
      }
    }, 20_000);

    it("a new tool is written by the script's SHA-1, decided without a sync, never read back; a stale process is refused by the script; writes waiting go together", async () => {
      await flush();
      const ws = mkdtempSync(join(tmpdir(), 'gramkit-ws-'));
      const open = async (): Promise<Catalog> => {
        const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: ws });
        if (!opened.ok) throw new Error(opened.error.message);
        return opened.value;
      };
      const [a, b] = [await open(), await open()];
      const c = createClient({ url: redis.url });
      await c.connect();
      try {
        const tool = (slug: string) => ({ description: `Tool ${slug}`, type: 'builtin', impl: { builtin: 'json_parse' } });
        const bundle = newId();
        expect((await a.putBundle(bundle, { slug: 'b' })).ok).toBe(true);
        // b has not seen the bundle: its first decision (no such bundle) is made again after a sync
        expect((await b.putTool(bundle, 'one', '1', tool('one'))).ok).toBe(true);
        // a has not seen b's tool: the script refuses a's decision, and a's next one (synced) is a conflict
        const dup = await a.putTool(bundle, 'one', '1', tool('one'));
        expect(dup.ok ? 'created' : dup.error.reason).toBe(CatalogCodes.CONFLICT);
        // an import keeping a toolID that b wrote meanwhile (a does not know it) does not overwrite that record
        const theirs = await b.putTool(bundle, 'theirs', '1', tool('theirs'));
        if (!theirs.ok) throw new Error(theirs.error.message);
        const imported = await a.importTools([{ bundleID: bundle, slug: 'mine', version: '1', body: { ...tool('mine'), toolID: theirs.value.value.toolID } }]);
        expect(imported.ok && imported.value).toEqual({ created: 0, existing: 1, refused: [] });
        expect(JSON.parse((await c.sendCommand(['GET', `catalog:tool:${theirs.value.value.toolID}`])) as string)).toMatchObject({ slug: 'theirs' });

        // a's writes with a listener that syncs on every change (as the /mcp list does): one
        // EVALSHA each, and the sync finds nothing new (no journal read, no record read back)
        let listed = 0;
        const stop = a.onServedChange(() => void a.servedTools().then(() => listed++));
        await c.sendCommand(['CONFIG', 'RESETSTAT']);
        for (let i = 0; i < 3; i++) expect((await a.putTool(bundle, `w${i}`, '1', tool(`w${i}`))).ok).toBe(true);
        for (let i = 0; i < 50 && listed < 3; i++) await new Promise((r) => setTimeout(r, 10));
        let stats = (await c.sendCommand(['INFO', 'commandstats'])) as string;
        const calls = (cmd: string): number => Number(new RegExp(`cmdstat_${cmd}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
        expect([calls('evalsha'), calls('eval'), calls('xrange')]).toEqual([3, 0, 0]);
        expect(listed).toBe(3);
        stop();
        // writes waiting while one is in flight go together in one call (group commit); the
        // script checks each in order, so of four writes of one key exactly one lands
        await c.sendCommand(['CONFIG', 'RESETSTAT']);
        const group = await Promise.all([
          ...Array.from({ length: 16 }, (_, i) => a.putTool(bundle, `g${i}`, '1', tool(`g${i}`))),
          ...Array.from({ length: 4 }, () => a.putTool(bundle, 'same', '1', tool('same'))),
        ]);
        expect(group.filter((r) => r.ok)).toHaveLength(17);
        expect(group.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.error.reason))).toEqual([
          CatalogCodes.CONFLICT,
          CatalogCodes.CONFLICT,
          CatalogCodes.CONFLICT,
        ]);
        stats = (await c.sendCommand(['INFO', 'commandstats'])) as string;
        const grouped = calls('evalsha');
        expect(grouped).toBeGreaterThan(0);
        expect(grouped).toBeLessThanOrEqual(4);
        const seen = await b.listTools({ bundleIDs: [bundle], pageSize: 100 });
        expect(seen.ok && seen.value.tools.filter((t) => /^(g\d+|same)$/.test(t['slug'] as string))).toHaveLength(17);
        // Redis forgot the script (a restart, SCRIPT FLUSH): the write sends it again
        await c.sendCommand(['SCRIPT', 'FLUSH']);
        expect((await a.putTool(bundle, 'after-flush', '1', tool('after-flush'))).ok).toBe(true);
        expect((await b.listTools({ bundleIDs: [bundle] })).ok && (await b.getTool({ bundleID: bundle, slug: 'after-flush', version: '1' })).ok).toBe(true);
      } finally {
        await c.close();
        await a.close();
        await b.close();
      }
    });

    it('two servers share one catalog: a write through one is read, searched and refused as a duplicate through the other', async () => {
      await flush();
      const ws = mkdtempSync(join(tmpdir(), 'gramkit-ws-'));
      const servers: Array<{ catalog: Catalog; server: RunningServer }> = [];
      for (let i = 0; i < 2; i++) {
        const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: ws });
        if (!opened.ok) throw new Error(opened.error.message);
        servers.push({ catalog: opened.value, server: await startServer(createService({ catalog: opened.value }), { host: '127.0.0.1', port: 0 }) });
      }
      try {
        const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
        const bundle = newId();
        const put = (s: RunningServer, path: string, body: unknown) =>
          fetch(`${s.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect((await put(a.server, `/tools/bundles/${bundle}`, { slug: 'shared' })).status).toBe(201);
        expect((await put(b.server, `/tools/bundles/${bundle}/tools/echo/version/1`, echoTool())).status).toBe(201);
        const dup = await put(a.server, `/tools/bundles/${bundle}/tools/echo/version/1`, echoTool());
        expect(dup.status).toBe(409);
        expect(((await dup.json()) as { code: string; reason: string }).reason).toBe(CatalogCodes.CONFLICT);
        const found = (await (await fetch(`${a.server.url}/tools/tools/search?q=echo`)).json()) as { tools: Array<{ bundleID: string }> };
        expect(found.tools.map((t) => t.bundleID)).toContain(bundle);
        // a tool written through one server runs through the other at once (its record is applied there, and bound, on that request)
        for (let i = 0; i < 5; i++) {
          const created = await put(a.server, `/tools/bundles/${bundle}/tools/now-${i}/version/1`, echoTool(`now-${i}`));
          expect(created.status).toBe(201);
          const { toolID } = ((await created.json()) as { tool: { toolID: string } }).tool;
          const ran = await fetch(`${b.server.url}/api/v1/tools/${toolID}/invoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text: `[${i}]` }),
          });
          expect(ran.status).toBe(200);
          expect(JSON.stringify(await ran.json())).toContain(`[${i}]`);
        }
        // racing writes through both servers: exactly one wins
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => put(servers[i % 2]!.server, `/tools/bundles/${bundle}/tools/race/version/1`, echoTool('race'))),
        );
        expect(results.map((r) => r.status).filter((s) => s === 201)).toHaveLength(1);
        expect(results.map((r) => r.status).filter((s) => s === 409)).toHaveLength(7);
        // an invocation on one server is an event on the other (Redis pub/sub)
        const seen: string[] = [];
        b.catalog.subscribe((e) => seen.push(e.type));
        const inv = await fetch(`${a.server.url}/api/v1/tools/json_parse/invoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"text": "[]"}',
        });
        expect(inv.status).toBe(200);
        for (let i = 0; i < 50 && !seen.includes('result'); i++) await new Promise((r) => setTimeout(r, 20));
        expect(seen).toEqual(expect.arrayContaining(['invoked', 'result']));
      } finally {
        for (const s of servers) {
          await s.server.close();
          await s.catalog.close();
        }
      }
    });
  });
}
