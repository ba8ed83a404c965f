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
