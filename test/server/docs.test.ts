/**
 * docs/service.md documents every route the service answers and every code it may answer with.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogCodes } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { harness } from './support.js';

const doc = readFileSync(new URL('../../docs/service.md', import.meta.url), 'utf8');

describe('docs/service.md', () => {
  it('lists every catalog and service code with its status', () => {
    for (const code of [...Object.values(CatalogCodes), ...Object.values(ServiceCodes)]) expect(doc, code).toMatch(new RegExp(`\\| \`${code}\` \\| \\d{3} \\|`));
  });

  it('documents every route', async () => {
    const h = await harness();
    try {
      for (const r of h.service.routes) {
        const path = r.path.replace(/:([A-Za-z]+)/g, '{$1}');
        if (path === '/healthz') expect(doc).toContain('`GET /healthz`');
        else expect(doc, `${r.method} ${path}`).toContain(`| \`${r.method.toUpperCase()} ${path}\` | ${r.scope} |`);
      }
    } finally {
      await h.close();
    }
  });
});
