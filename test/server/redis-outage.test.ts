/**
 * A Redis outage under `gramkit serve --store redis://…` (a real redis-server, stopped and started
 * again by the test): the server keeps running, answers 503 with a retryable code where it needs
 * the store, says so in /healthz, and recovers when Redis returns.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId, openCatalog, openRedisStore } from 'gramkit/catalog';
import { createService, type RunningServer, startServer } from 'gramkit/server';
import { type RedisServer, redisUnavailable, startRedis } from '../support/redis.js';

const until = async (what: string, ok: () => Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}`);
};

describe.skipIf(redisUnavailable !== undefined)('a Redis outage', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => redis?.stop());

  it('attack: stopping Redis does not stop the server; writes answer 503 retryable, /healthz says why, and it recovers', async () => {
    const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: mkdtempSync(join(tmpdir(), 'gramkit-ws-')) });
    if (!opened.ok) throw new Error(opened.error.message);
    const server: RunningServer = await startServer(createService({ catalog: opened.value }), { host: '127.0.0.1', port: 0 });
    const health = async () => fetch(`${server.url}/healthz`);
    const put = (slug: string) =>
      fetch(`${server.url}/tools/bundles/${newId()}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ slug }) });
    try {
      expect((await health()).status).toBe(200);
      expect((await put('before')).status).toBe(201);
      await redis.pause();
      await until('/healthz reports the outage', async () => (await health()).status === 503);
      const down = (await (await health()).json()) as { code: string; retryable?: boolean };
      expect(down).toMatchObject({ reason: CatalogCodes.STORE_UNAVAILABLE, retryable: true });
      const write = await put('during');
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).not.toBeNull();
      expect(((await write.json()) as { code: string; reason: string }).reason).toBe(CatalogCodes.STORE_UNAVAILABLE);
      // what needs no store still answers
      expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
      await redis.resume();
      await until('/healthz is ok again', async () => (await health()).status === 200);
      await until('writes work again', async () => (await put('after')).status === 201);
    } finally {
      await server.close();
      await opened.value.close();
    }
  }, 60_000);

  it('attack: the agent id "global" and ids sharing a long prefix get histories of their own (Redis)', async () => {
    const opened = await openCatalog({ store: await openRedisStore(redis.url), workspace: mkdtempSync(join(tmpdir(), 'gramkit-ws-')), usageFlushMs: 0 });
    if (!opened.ok) throw new Error(opened.error.message);
    const service = createService({ catalog: opened.value });
    const call = (path: string, init: RequestInit = {}) => service.fetch(new Request(`http://127.0.0.1${path}`, init));
    try {
      const before = ((await (await call('/api/v1/tools/usage?limit=1000')).json()) as { usage: unknown[] }).usage.length;
      for (const agent of ['global', `${'b'.repeat(100)}-1`, `${'b'.repeat(100)}-2`]) {
        await call('/api/v1/tools/json_parse/invoke', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-agent-id': agent },
          body: '{"text": "1"}',
        });
      }
      await opened.value.flush();
      const of = async (agent?: string) =>
        (
          (await (await call(`/api/v1/tools/usage?limit=1000${agent !== undefined ? `&agent_id=${agent}` : ''}`)).json()) as {
            usage: Array<{ agent_id?: string }>;
          }
        ).usage;
      expect((await of('global')).map((u) => u.agent_id)).toEqual(['global']);
      expect((await of(`${'b'.repeat(100)}-1`)).map((u) => u.agent_id)).toEqual([`${'b'.repeat(100)}-1`]);
      expect((await of()).length).toBe(before + 3);
    } finally {
      await opened.value.close();
    }
  });
});
