/**
 * Seed 002's Redis layout as a program reading Redis directly sees it (the seed's Monitor), with a
 * real `redis-server` started by the test on 127.0.0.1: two servers writing, deleting and invoking
 * at once keep `tools:registry`, `tool:<id>` and the usage lists consistent with gramkit's own
 * records and with `GET /api/tools`; a `FLUSHALL` under a running `gramkit serve` is noticed,
 * reported by `/healthz`, and bootstrapped again without a restart; a store of the earlier layout
 * is moved when opened.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Catalog, openCatalog, openRedisStore } from 'gramkit/catalog';
import { createService, type RunningServer, startServer } from 'gramkit/server';
import { SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';

type Client = ReturnType<typeof createClient>;

const until = async (what: string, ok: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
};

/** What a Monitor reading Redis directly finds: every id of tools:registry with its tool:<id> JSON. */
const monitorView = async (c: Client): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const ids = ((await c.sendCommand(['SMEMBERS', 'tools:registry'])) as string[]).sort();
  const out: Array<Record<string, unknown>> = [];
  for (const id of ids) {
    const v = (await c.sendCommand(['GET', `tool:${id}`])) as string | null;
    expect(v, `tool:${id} is missing although tools:registry names it`).not.toBeNull();
    out.push(JSON.parse(v as string) as Record<string, unknown>);
  }
  return out;
};

const SEED_FIELDS = ['created_at', 'created_by', 'description', 'id', 'input_schema', 'name', 'output_schema', 'permissions', 'safety_level'];

describe.skipIf(redisUnavailable !== undefined)("seed 002's Redis layout", () => {
  let redis: RedisServer;
  let c: Client;
  beforeAll(async () => {
    redis = await startRedis();
    c = createClient({ url: redis.url });
    await c.connect();
  });
  afterAll(async () => {
    await c?.close();
    await redis?.stop();
  });

  it('two servers registering, deleting and invoking at once: a Monitor reading Redis sees what GET /api/tools and the records say', async () => {
    await c.sendCommand(['FLUSHALL']);
    const ws = mkdtempSync(join(tmpdir(), 'gramkit-ws-'));
    const servers: Array<{ catalog: Catalog; server: RunningServer }> = [];
    for (let i = 0; i < 2; i++) {
      const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: ws, usageFlushMs: 5 });
      if (!opened.ok) throw new Error(opened.error.message);
      servers.push({ catalog: opened.value, server: await startServer(createService({ catalog: opened.value }), { host: '127.0.0.1', port: 0 }) });
    }
    const post = (i: number, path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${servers[i % 2]!.server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    try {
      // 24 agent tools and 6 system tools registered through both servers at once, and each
      // agent tool registered twice (one of the two is a conflict)
      const register = await Promise.all([
        ...Array.from({ length: 48 }, (_, i) =>
          post(i, '/api/v1/tools', { id: `agent_tool_${i % 24}`, description: `tool ${i % 24}`, created_by: 'agent', input_schema: { text: 'string' } }),
        ),
        ...Array.from({ length: 6 }, (_, i) =>
          post(i, '/api/v1/tools', { id: `system_tool_${i}`, description: `system ${i}`, input_schema: { text: 'string' } }),
        ),
      ]);
      expect(register.filter((r) => r.status === 201)).toHaveLength(30);
      expect(register.filter((r) => r.status === 409)).toHaveLength(24);
      // deletions and invocations, through both servers, at once
      const del = (i: number) => fetch(`${servers[i % 2]!.server.url}/api/v1/tools/agent_tool_${i}`, { method: 'DELETE' });
      const work = await Promise.all([
        ...Array.from({ length: 8 }, (_, i) => del(i)),
        ...Array.from({ length: 10 }, (_, i) => post(i, '/api/v1/tools/json_parse/invoke', { text: '[1]' }, { 'X-Agent-ID': `agent-${i % 2}` })),
      ]);
      expect(work.every((r) => r.status === 200)).toBe(true);
      for (const s of servers) await s.catalog.flush();

      const monitor = await monitorView(c);
      expect(monitor.map((t) => t['id'])).toEqual(
        [...Array.from({ length: 16 }, (_, i) => `agent_tool_${i + 8}`), ...Array.from({ length: 6 }, (_, i) => `system_tool_${i}`)].sort(),
      );
      for (const t of monitor) expect(Object.keys(t).sort()).toEqual(SEED_FIELDS);
      // what the Monitor route lists, on either server, is what Redis holds
      for (const s of servers) {
        const listed = (await (await fetch(`${s.server.url}/api/tools`)).json()) as { tools: Array<Record<string, unknown>> };
        expect(listed.tools).toEqual(monitor);
        const agents = (await (await fetch(`${s.server.url}/api/tools?created_by=agent`)).json()) as { tools: Array<Record<string, unknown>> };
        expect(agents.tools).toEqual(monitor.filter((t) => t['created_by'] === 'agent'));
        expect(agents.tools).toHaveLength(16);
      }
      expect((await fetch(`${servers[0]!.server.url}/api/tools?created_by=robot`)).status).toBe(400);
      // gramkit's records: one per view, and the same tools
      const records = (await c.sendCommand(['SMEMBERS', 'catalog:tools'])) as string[];
      const registryIds: string[] = [];
      for (const id of records) {
        const r = JSON.parse((await c.sendCommand(['GET', `catalog:tool:${id}`])) as string) as { registryId?: string; isBuiltIn: boolean };
        if (!r.isBuiltIn) registryIds.push(r.registryId ?? id);
      }
      expect(registryIds.sort()).toEqual(monitor.map((t) => t['id']));
      // the usage lists: every call in the global one, each agent's in its own, at the seed's keys
      expect(await c.sendCommand(['LLEN', 'tools:global:usage_history'])).toBe(10);
      for (const agent of ['agent-0', 'agent-1']) {
        const entries = ((await c.sendCommand(['LRANGE', `tools:${agent}:usage_history`, '0', '-1'])) as string[]).map(
          (e) => JSON.parse(e) as Record<string, unknown>,
        );
        expect(entries).toHaveLength(5);
        for (const e of entries) expect(e).toMatchObject({ type: 'invoke', tool: 'json_parse', agent_id: agent });
      }
      const usage = (await (await fetch(`${servers[1]!.server.url}/api/tools/usage?agent_id=agent-0`)).json()) as { usage: unknown[] };
      expect(usage.usage).toHaveLength(5);
    } finally {
      for (const s of servers) {
        await s.server.close();
        await s.catalog.close();
      }
    }
  });

  it('a FLUSHALL under a running gramkit serve: /healthz reports the wipe, and the server bootstraps again without a restart', async () => {
    await c.sendCommand(['FLUSHALL']);
    const root = mkdtempSync(join(tmpdir(), 'gramkit-wipe-'));
    const boot = [{ id: 'tool_json_parse' }, { id: 'boot_tool', description: 'from the bootstrap file', input_schema: { text: 'string' } }];
    writeFileSync(join(root, 'tools_bootstrap.json'), JSON.stringify({ tools: boot }));
    const s = await startCli(['serve', '--port', '0', '--store', redis.url, ...SERVE_AUTH_ARGS], { cwd: root });
    try {
      await until('the server listens', async () => s.url() !== undefined);
      const url = s.url() as string;
      const health = async () =>
        (await (await fetch(`${url}/healthz`)).json()) as { status: string; wiped?: { count: number; lastAt: string | null; restoredAt: string | null } };
      expect((await health()).wiped).toBeUndefined();
      const register = (description: string) =>
        fetch(`${url}/api/v1/tools`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: 'later_tool', description, created_by: 'agent' }),
        });
      const added = await register('registered at run time');
      expect(added.status).toBe(201);
      expect((await monitorView(c)).map((t) => t['id'])).toEqual(['boot_tool', 'later_tool', 'tool_json_parse']);

      await c.sendCommand(['FLUSHALL']);
      // nobody calls the server: it notices by itself, and bootstraps again
      await until('the server bootstrapped again after the wipe', async () => ((await c.sendCommand(['SCARD', 'tools:registry'])) as number) === 2);
      await until('/healthz reports the wipe and the bootstrap', async () => (await health()).wiped?.restoredAt != null);
      const h = await health();
      expect(h.status).toBe('ok');
      expect(h.wiped?.count).toBe(1);
      expect(typeof h.wiped?.lastAt).toBe('string');
      // the bootstrap's tools are back, in Redis and through the server; the run-time one is gone
      expect((await monitorView(c)).map((t) => t['id'])).toEqual(['boot_tool', 'tool_json_parse']);
      const listed = (await (await fetch(`${url}/api/tools`)).json()) as { tools: Array<{ id: string }> };
      expect(listed.tools.map((t) => t.id)).toEqual(['boot_tool', 'tool_json_parse']);
      expect((await fetch(`${url}/api/v1/tools/later_tool`)).status).toBe(404);
      // and the store takes writes again
      const again = await register('again');
      expect(again.status).toBe(201);
      expect(s.err()).toContain('was wiped: bootstrapping again');
    } finally {
      s.stop();
      await s.done;
    }
  });

  it('a store laid out by the earlier release (records at tool:<toolID>) is moved under catalog: and gets its registry views', async () => {
    await c.sendCommand(['FLUSHALL']);
    const ws = mkdtempSync(join(tmpdir(), 'gramkit-ws-'));
    const first = await openCatalog({ store: await openRedisStore(redis.url), workspace: ws });
    if (!first.ok) throw new Error(first.error.message);
    const r = await first.value.registerTool({ id: 'old_tool', description: 'stored before', input_schema: { text: 'string' } });
    if (!r.ok) throw new Error(r.error.message);
    const toolID = r.value.value['tool_id'] as string;
    await first.value.close();
    // the earlier layout: records at tool:<toolID> in tools:registry, bundles at bundle:<id> in bundles:registry
    await c.sendCommand(['DEL', 'tool:old_tool', 'tools:registry', 'catalog:epoch', 'catalog:indexed', 'catalog:keys', 'catalog:rids', 'catalog:brev']);
    await c.sendCommand(['RENAME', `catalog:tool:${toolID}`, `tool:${toolID}`]);
    await c.sendCommand(['RENAME', 'catalog:tools', 'tools:registry']);
    for (const id of (await c.sendCommand(['SMEMBERS', 'catalog:bundles'])) as string[])
      await c.sendCommand(['RENAME', `catalog:bundle:${id}`, `bundle:${id}`]);
    await c.sendCommand(['RENAME', 'catalog:bundles', 'bundles:registry']);

    const second = await openCatalog({ store: await openRedisStore(redis.url), workspace: ws });
    if (!second.ok) throw new Error(second.error.message);
    try {
      const t = await second.value.registryTool('old_tool');
      expect(t.ok && t.value['tool_id']).toBe(toolID);
      expect(await c.sendCommand(['SMEMBERS', 'tools:registry'])).toEqual(['old_tool']);
      expect(JSON.parse((await c.sendCommand(['GET', 'tool:old_tool'])) as string)).toMatchObject({ id: 'old_tool', description: 'stored before' });
      expect(await c.sendCommand(['EXISTS', `tool:${toolID}`, 'bundles:registry'])).toBe(0);
      // what the stored tools hold unique is indexed for the write script (catalog:keys, catalog:rids), and a second old_tool is refused
      expect(await c.sendCommand(['HGET', 'catalog:rids', 'old_tool'])).toBe(toolID);
      const dup = await second.value.registerTool({ id: 'old_tool', description: 'again' });
      expect(dup.ok ? 'registered' : dup.error.reason).toBe('CATALOG_CONFLICT');
    } finally {
      await second.value.close();
    }
  });
});
