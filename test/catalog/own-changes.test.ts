/**
 * A server's own writes are announced once, as its own (issue 23: on a single server every creation
 * was followed by a phantom `changed … "remote": true` event for the same record).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVE_AUTH_ARGS, startCli } from '../support/cli.js';

const root = mkdtempSync(join(tmpdir(), 'gramkit-own-changes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const json = { 'content-type': 'application/json' };

describe('changed events of a single server', () => {
  it('each PUT is one changed event, remote: false', async () => {
    const s = await startCli(['serve', '--port', '0', '--data', join(root, 'data'), ...SERVE_AUTH_ARGS], { cwd: root });
    const url = s.url() as string;
    const controller = new AbortController();
    try {
      const stream = await fetch(`${url}/api/v1/events?types=changed`, { signal: controller.signal });
      const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
      const bundle = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
      expect((await fetch(`${url}/tools/bundles/${bundle}`, { method: 'PUT', headers: json, body: JSON.stringify({ slug: 'text' }) })).status).toBe(201);
      for (let i = 0; i < 3; i++) {
        const r = await fetch(`${url}/tools/bundles/${bundle}/tools/t${i}/version/1`, {
          method: 'PUT',
          headers: json,
          body: JSON.stringify({ description: 'Parses', type: 'builtin', impl: { builtin: 'json_parse' } }),
        });
        expect(r.status).toBe(201);
      }
      // a marker written last: every event of the PUTs above arrived before its own
      expect((await fetch(`${url}/tools/bundles/${bundle}`, { method: 'PATCH', headers: json, body: JSON.stringify({ isEnabled: false }) })).status).toBe(200);
      const events: Array<{ kind: string; action: string; recordID: string; remote: boolean }> = [];
      let buffer = '';
      const decoder = new TextDecoder();
      while (!events.some((e) => e.kind === 'bundle' && e.action === 'disabled')) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const data = /^data: (.*)$/m.exec(buffer.slice(0, end))?.[1];
          buffer = buffer.slice(end + 2);
          if (data !== undefined) events.push(JSON.parse(data));
        }
      }
      expect(events.filter((e) => e.remote)).toEqual([]);
      expect(events.map((e) => `${e.kind} ${e.action}`)).toEqual(['bundle created', 'tool created', 'tool created', 'tool created', 'bundle disabled']);
    } finally {
      controller.abort();
      s.stop();
    }
    expect(await s.done).toBe(0);
  });
});
