/**
 * docs/service.md documents every route the service answers and every code it may answer with, and
 * its JSON examples are records the service takes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogCodes } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { harness } from './support.js';

const doc = readFileSync(new URL('../../docs/service.md', import.meta.url), 'utf8');

describe('docs/service.md', () => {
  it('lists every catalog and service code with its status', () => {
    for (const code of [...Object.values(CatalogCodes), ...Object.values(ServiceCodes)])
      expect(doc, code).toMatch(new RegExp(`\\| \`${code}\` \\| \\d{3} \\|`));
  });

  it('its tool.json and Tool JSON examples are taken by the service, and the Tool JSON runs', async () => {
    const examples = [...doc.matchAll(/^```json\n([\s\S]*?)^```/gm)].map((m) => JSON.parse(m[1] as string) as Record<string, unknown>);
    expect(examples.map((e) => (e['id'] !== undefined ? 'registry' : 'tool.json'))).toEqual(['tool.json', 'registry']);
    const h = await harness({ allowCommandTools: true }, { allowHosts: ['api.weather.example'] });
    try {
      const bundle = '018faf50-b7b6-7a01-9a05-a22a6e0af101';
      expect((await h.call('PUT', `/tools/bundles/${bundle}`, { body: { slug: 'examples' } })).status).toBe(201);
      const [toolJson, registry] = examples as [Record<string, unknown>, Record<string, unknown>];
      const put = await h.call('PUT', `/tools/bundles/${bundle}/tools/${String(toolJson['slug'])}/version/${String(toolJson['version'])}`, { body: toolJson });
      expect(put.status, put.text).toBe(201);
      const registered = await h.call('POST', '/api/v1/tools', { body: registry });
      expect(registered.status, registered.text).toBe(201);
      const invoked = await h.call('POST', `/api/v1/tools/${String(registry['id'])}/invoke`, { body: { pattern: 'o', stdin: 'one\ntwo\nsix\n' } });
      expect(invoked.json, invoked.text).toEqual({ ok: true, value: { output: 'one\ntwo\n' } });
    } finally {
      await h.close();
    }
  });

  it('documents every route', async () => {
    const h = await harness();
    try {
      for (const r of h.service.routes) {
        const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
        if (r.public === true) expect(doc).toContain(`\`GET ${path}\``);
        else expect(doc, `${r.method} ${path}`).toContain(`| \`${r.method.toUpperCase()} ${path}\` | ${r.scope} |`);
      }
    } finally {
      await h.close();
    }
  });
});
