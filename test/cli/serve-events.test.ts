/**
 * `gramkit serve --events nats://…`: the catalog's events on a real NATS bus (Debian's
 * `nats-server`, started here on 127.0.0.1), under seed 002's subjects, read by a subscriber
 * through the official client: registrations by the bootstrap (`agi.tool.discovered`) and by a
 * request (`agi.tool.created`) carry the registry's Tool JSON; calls are `agi.tool.invoked`, then
 * `agi.tool.result` or `agi.tool.failed`.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { freePort, redisUnavailable, startRedis } from '../support/redis.js';
import { readEvents } from '../server/support.js';
import { type NatsServer, natsUnavailable, startNats } from '../support/nats.js';

interface Message {
  readonly subject: string;
  readonly payload: Record<string, unknown>;
}

describe('the NATS client is loaded on demand', () => {
  it('the built CLI imports nats only dynamically (start-up does not load it)', () => {
    // dist/cli-main.cjs is the CLI's one bundle; its dynamic imports go through the function the binary passes (src/cli/bin.ts)
    const bundle = readFileSync(new URL('../../dist/cli-main.cjs', import.meta.url), 'utf8');
    expect(bundle).toMatch(/\$gkImp\(\s*["']nats["']\s*\)/);
    expect(bundle).not.toMatch(/require\(\s*["']nats["']\s*\)|from\s*["']nats["']/);
  });
});

describe.skipIf(natsUnavailable !== undefined)('gramkit serve --events nats://', () => {
  const root = mkdtempSync(join(tmpdir(), 'gramkit-serve-events-'));
  let nats: NatsServer;
  let subscriber: NatsConnection;
  const seen: Message[] = [];
  const waiters: Array<() => void> = [];
  /** Resolves once a message satisfying `pred` has arrived (the test's timeout bounds the wait). */
  const message = (pred: (m: Message) => boolean): Promise<Message> =>
    new Promise((resolve) => {
      const check = (): boolean => {
        const m = seen.find(pred);
        if (m !== undefined) resolve(m);
        return m !== undefined;
      };
      if (!check()) waiters.push(() => void check());
    });

  beforeAll(async () => {
    nats = await startNats();
    subscriber = await connect({ servers: nats.url });
    const sub = subscriber.subscribe('agi.tool.>');
    void (async () => {
      for await (const m of sub) {
        seen.push({ subject: m.subject, payload: JSON.parse(new TextDecoder().decode(m.data)) as Record<string, unknown> });
        for (const w of waiters) w();
      }
    })();
    await subscriber.flush();
  });

  afterAll(async () => {
    await subscriber?.close();
    await nats?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it("publishes seed 002's subjects and payloads: discovered, created, invoked, result, failed", async () => {
    const s = await startCli(['serve', '--port', '0', '--data', join(root, 'data'), ...SERVE_AUTH_ARGS, '--events', nats.url], { cwd: root });
    const url = s.url() as string;
    expect(url, s.err()).toBeDefined();
    try {
      // the bootstrap's nucleus, as discovered tools, in the registry's Tool JSON
      const ls = await message((m) => m.subject === 'agi.tool.discovered' && m.payload['id'] === 'tool_ls');
      expect(ls.payload).toMatchObject({ id: 'tool_ls', name: 'List directory', permissions: ['fs:read'], safety_level: 'low', created_by: 'system' });
      expect(typeof ls.payload['created_at']).toBe('string');
      expect(typeof ls.payload['event_id']).toBe('string');
      expect(typeof ls.payload['input_schema']).toBe('object');

      expect(s.out()).toContain(`events: ${nats.url}`);
      // a tool an agent registers
      const post = await fetch(`${url}/api/v1/tools`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: 'tool_word_parse',
          name: 'Parse',
          description: 'Parses JSON text',
          input_schema: { text: 'string' },
          type: 'builtin',
          impl: { builtin: 'json_parse' },
          created_by: 'agent',
        }),
      });
      expect(post.status, await post.clone().text()).toBe(201);
      const created = await message((m) => m.subject === 'agi.tool.created');
      expect(created.payload).toMatchObject({
        id: 'tool_word_parse',
        name: 'Parse',
        description: 'Parses JSON text',
        input_schema: { text: 'string' },
        created_by: 'agent',
      });

      // a call: invoked, then its result, with the caller's agent
      const headers = { 'content-type': 'application/json', 'x-agent-id': 'agent-7', 'x-project-id': 'p1' };
      const call = (text: string) => fetch(`${url}/api/v1/tools/tool_json_parse/invoke`, { method: 'POST', headers, body: JSON.stringify({ text }) });
      expect(((await (await call('[1, 2]')).json()) as { ok: boolean }).ok).toBe(true);
      const invoked = await message((m) => m.subject === 'agi.tool.invoked');
      expect(invoked.payload).toMatchObject({ type: 'invoked', tool: 'tool_json_parse', agent_id: 'agent-7', project_id: 'p1', args: { text: '[1, 2]' } });
      const result = await message((m) => m.subject === 'agi.tool.result' && m.payload['call_id'] === invoked.payload['call_id']);
      expect(result.payload).toMatchObject({ type: 'result', tool: 'tool_json_parse', agent_id: 'agent-7', tool_id: invoked.payload['tool_id'] });
      expect(result.payload['result']).toBeDefined();
      expect(typeof result.payload['duration_ms']).toBe('number');

      // a call that fails
      expect(((await (await call('not json')).json()) as { ok: boolean }).ok).toBe(false);
      const failed = await message((m) => m.subject === 'agi.tool.failed');
      expect(failed.payload).toMatchObject({ type: 'failed', tool: 'tool_json_parse', agent_id: 'agent-7' });
      expect(typeof (failed.payload['error'] as { code: unknown }).code).toBe('string');
      // nothing but the seed's subjects
      expect(new Set(seen.map((m) => m.subject))).toEqual(
        new Set(['agi.tool.discovered', 'agi.tool.created', 'agi.tool.invoked', 'agi.tool.result', 'agi.tool.failed']),
      );
    } finally {
      s.stop();
      expect(await s.done).toBe(0);
    }
  });

  it.skipIf(redisUnavailable !== undefined)(
    'two servers on one Redis: each call is published once, by the server it ran on (not again by the one that relays it)',
    async () => {
      const redis = await startRedis();
      const serve = () => startCli(['serve', '--port', '0', '--store', redis.url, ...SERVE_AUTH_ARGS, '--events', nats.url], { cwd: root });
      const a = await serve();
      const b = await serve();
      try {
        const call = (url: string, text: string) =>
          fetch(`${url}/api/v1/tools/tool_json_parse/invoke`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ text }),
          });
        // B relays A's events to its own subscribers (SSE): once it has, a second copy on the bus would come before B's own next call
        const relayed = readEvents(await fetch(`${b.url() as string}/api/v1/events?types=result`), 1);
        expect(((await (await call(a.url() as string, '"on a"')).json()) as { ok: boolean }).ok).toBe(true);
        expect((await relayed)[0]?.data).toMatchObject({ type: 'result', tool: 'tool_json_parse' });
        await message((m) => m.subject === 'agi.tool.invoked' && (m.payload['args'] as { text?: string }).text === '"on a"');
        expect(((await (await call(b.url() as string, '"on b"')).json()) as { ok: boolean }).ok).toBe(true);
        const onB = await message((m) => m.subject === 'agi.tool.invoked' && (m.payload['args'] as { text?: string }).text === '"on b"');
        await message((m) => m.subject === 'agi.tool.result' && m.payload['call_id'] === onB.payload['call_id']);
        const onA = seen.filter((m) => m.subject === 'agi.tool.invoked' && (m.payload['args'] as { text?: string }).text === '"on a"');
        expect(onA).toHaveLength(1);
      } finally {
        a.stop();
        b.stop();
        expect([await a.done, await b.done]).toEqual([0, 0]);
        await redis.stop();
      }
    },
  );

  it('refuses an --events value that is not a NATS address (2), and a bus it cannot reach (1)', async () => {
    const bad = await cli(['serve', '--port', '0', '--data', join(root, 'bad'), ...SERVE_AUTH_ARGS, '--events', 'http://127.0.0.1:4222'], { cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nats://host:port');
    const port = await freePort();
    const down = await cli(['serve', '--port', '0', '--data', join(root, 'down'), ...SERVE_AUTH_ARGS, '--events', `nats://127.0.0.1:${port}`], { cwd: root });
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`error[CLI_EVENTS_UNAVAILABLE]: cannot connect to NATS at nats://127.0.0.1:${port}`);
  });
});
