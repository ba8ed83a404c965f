/**
 * `GET /api/v1/events`: the catalog's events as server-sent events, filtered by type.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { newId } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { type Harness, harness, isProblem, readEvents } from './support.js';

let h: Harness;
afterEach(async () => h?.close());

describe('the event stream', () => {
  it('streams invoked, result and changed events; ?types= filters', async () => {
    h = await harness();
    const controller = new AbortController();
    const all = await h.service.fetch(new Request('http://127.0.0.1:8081/api/v1/events', { signal: controller.signal }));
    expect(all.headers.get('content-type')).toContain('text/event-stream');
    const only = await h.service.fetch(new Request('http://127.0.0.1:8081/api/v1/events?types=result,changed'));
    const events = readEvents(all, 3);
    const filtered = readEvents(only, 2);
    await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '[1]' } });
    await h.call('PUT', `/tools/bundles/${newId()}`, { body: { slug: 'b' } });
    expect((await events).map((e) => e.event)).toEqual(['invoked', 'result', 'changed']);
    expect((await filtered).map((e) => [e.event, e.data.type])).toEqual([
      ['result', 'result'],
      ['changed', 'changed'],
    ]);
    controller.abort();
  });

  it('refuses unknown types', async () => {
    h = await harness();
    isProblem(await h.call('GET', '/api/v1/events?types=nope'), 400, ServiceCodes.INVALID_REQUEST);
  });
});

describe('a subscriber that stops reading', () => {
  it('attack: is dropped with a last event once it falls a bounded number of bytes behind, instead of growing the server', async () => {
    const { connect } = await import('node:net');
    const { startServer } = await import('gramkit/server');
    h = await harness({ eventBufferBytes: 256 * 1024 });
    const server = await startServer(h.service, { host: '127.0.0.1', port: 0 });
    const socket = connect(server.port, '127.0.0.1');
    try {
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      let received = '';
      let bytes = 0;
      const connected = new Promise<void>((resolve) =>
        socket.on('data', (d: Buffer) => {
          bytes += d.length;
          received += d.toString('latin1').slice(0, 2000) + d.toString('latin1').slice(-2000);
          if (received.includes(': connected')) resolve();
        }),
      );
      socket.write(`GET /api/v1/events?types=result HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await connected;
      // the client stops reading; 300 results of 100 KB each (30 MB) are published
      socket.pause();
      const big = JSON.stringify('x'.repeat(100_000));
      const calls = 300;
      for (let i = 0; i < calls; i++) await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: big } });
      // it reads again: what was kept is bounded, and the last event says it was dropped (without the bound, all 30 MB arrive)
      const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
      socket.resume();
      await Promise.race([
        ended,
        new Promise<void>((resolve) => socket.on('data', () => (received.includes('event: dropped') || bytes >= calls * 100_000) && resolve())),
      ]);
      expect(received).toContain('event: dropped');
      expect(bytes).toBeLessThan((calls * 100_000) / 2);
    } finally {
      socket.destroy();
      await server.close();
    }
  }, 120_000);
});
