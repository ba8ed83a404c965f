/**
 * Files planted in a catalog directory (`--data`) by someone else: a record that is a symbolic link
 * (to a record outside the directory) or a FIFO is reported, never followed or opened for reading
 * (a FIFO would hang every request). Through the service, as a client sees it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newId, openCatalog, openFileStore } from 'gramkit/catalog';
import { createService } from 'gramkit/server';
import { type Harness, harness } from '../server/support.js';

let h: Harness;
afterEach(async () => h?.close());

describe('a catalog directory with planted files', () => {
  it('attack: a linked record is not loaded and a FIFO does not hang the catalog; both are reported', async () => {
    h = await harness();
    const bundle = newId();
    expect((await h.call('PUT', `/tools/bundles/${bundle}`, { body: { slug: 'planted' } })).status).toBe(201);
    const tool = {
      description: 'Parse',
      type: 'builtin',
      impl: { builtin: 'json_parse' },
      argSchema: { type: 'object', properties: { text: { type: 'string' } } },
    };
    expect((await h.call('PUT', `/tools/bundles/${bundle}/tools/linked/version/1`, { body: tool })).status).toBe(201);
    const [path] = readdirSync(join(h.dir, 'data', 'tools'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.json'));
    const tools = join(h.dir, 'data', 'tools', dirname(path as string));
    const record = basename(path as string);
    // the record moves outside the directory and a link takes its place
    mkdirSync(join(h.dir, 'outside'));
    renameSync(join(tools, record as string), join(h.dir, 'outside', record as string));
    symlinkSync(join(h.dir, 'outside', record as string), join(tools, record as string));
    const fifo = newId();
    execFileSync('mkfifo', [join(h.dir, 'data', 'tools', fifo.slice(-2), `${fifo}.json`)]);
    const reopened = await openCatalog({ store: openFileStore(join(h.dir, 'data')), workspace: h.dir, allowHosts: [] });
    if (!reopened.ok) throw new Error(reopened.error.message);
    try {
      const service = createService({ catalog: reopened.value });
      const list = (await (await service.fetch(new Request(`http://127.0.0.1/tools/tools?bundleIDs=${bundle}`))).json()) as { tools: ReadonlyArray<unknown> };
      expect(list.tools).toEqual([]);
      const reported = reopened.value
        .problems()
        .map((p) => p.record)
        .join(' ');
      expect(reported).toContain((record as string).slice(0, -5));
      expect(reported).toContain(fifo);
    } finally {
      await reopened.value.close();
    }
  });
});

describe('a catalog directory whose journal and history are planted links', () => {
  it('attack: a write never appends through a link to a file outside the directory', async () => {
    h = await harness();
    const bundle = newId();
    expect((await h.call('PUT', `/tools/bundles/${bundle}`, { body: { slug: 'planted' } })).status).toBe(201);
    const victim = join(h.dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const data = join(h.dir, 'data');
    rmSync(join(data, 'journal'));
    symlinkSync(victim, join(data, 'journal'));
    mkdirSync(join(data, 'history'), { recursive: true });
    rmSync(join(data, 'history', 'global.jsonl'), { force: true });
    symlinkSync(victim, join(data, 'history', 'global.jsonl'));
    const tool = {
      description: 'Parse',
      type: 'builtin',
      impl: { builtin: 'json_parse' },
      argSchema: { type: 'object', properties: { text: { type: 'string' } } },
    };
    await h.call('PUT', `/tools/bundles/${bundle}/tools/linked/version/1`, { body: tool });
    await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '[1]' } });
    await h.catalog.close();
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});
