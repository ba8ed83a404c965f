/**
 * Bad input never gives a 500 or a partial write: malformed JSON, wrong types, huge bodies,
 * invalid ids and slugs, odd query strings and encodings, on every route (fast-check). Every
 * error is an RFC 9457 problem with a stable code.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogCodes, newId } from 'gramkit/catalog';
import { ServiceCodes } from 'gramkit/server';
import { type Harness, harness, isProblem } from './support.js';

let h: Harness;
let bundle: string;
beforeAll(async () => {
  h = await harness({ maxBodyBytes: 64 * 1024 });
  bundle = newId();
  await h.call('PUT', `/tools/bundles/${bundle}`, { body: { slug: 'fuzz' } });
});
afterAll(async () => h.close());

describe('problems', () => {
  it('malformed JSON, other media types, huge bodies, missing bodies', async () => {
    isProblem(await h.call('PUT', `/tools/bundles/${bundle}`, { raw: '{"slug": ' }), 400, ServiceCodes.MALFORMED_JSON);
    isProblem(
      await h.call('PUT', `/tools/bundles/${bundle}`, { raw: 'slug=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      415,
      ServiceCodes.UNSUPPORTED_MEDIA_TYPE,
    );
    isProblem(
      await h.call('PUT', `/tools/bundles/${bundle}`, { raw: JSON.stringify({ slug: 'x', description: 'y'.repeat(70_000) }) }),
      413,
      ServiceCodes.BODY_TOO_LARGE,
    );
    isProblem(await h.call('PUT', `/tools/bundles/${bundle}`), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(await h.call('PATCH', `/tools/bundles/${bundle}`, { body: { isEnabled: 'no' } }), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(await h.call('PUT', `/tools/bundles/${bundle}`, { body: [1, 2] }), 400, ServiceCodes.INVALID_REQUEST);
  });

  it('invalid ids, slugs and versions name what is wrong', async () => {
    const invalidId = await h.call('GET', '/tools/bundles/123');
    isProblem(invalidId, 400, CatalogCodes.INVALID_ID);
    expect(invalidId.json.detail).toContain('UUIDv7');
    isProblem(await h.call('PUT', `/tools/bundles/${bundle}/tools/a__b/version/1`, { body: { description: 'x' } }), 400, CatalogCodes.INVALID_SLUG);
    isProblem(
      await h.call('PUT', `/tools/bundles/${bundle}/tools/ab/version/${encodeURIComponent('1 0')}`, { body: { description: 'x' } }),
      400,
      CatalogCodes.INVALID_VERSION,
    );
    isProblem(await h.call('GET', `/tools/bundles/${bundle}/tools/%E0%A4%A/version/1`), 400, CatalogCodes.INVALID_SLUG);
    isProblem(await h.call('GET', '/tools/tools?recommendedPageSize=0'), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(await h.call('GET', '/tools/tools?includeDisabled=yes'), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(await h.call('GET', '/api/v1/tools/usage?limit=-1'), 400, ServiceCodes.INVALID_REQUEST);
    isProblem(
      await h.call('POST', '/api/v1/tools/json_parse/invoke', { body: { text: '1' }, headers: { 'x-agent-id': 'a\u0001b' } }),
      400,
      ServiceCodes.INVALID_REQUEST,
    );
  });

  it('several problems of one write are all reported', async () => {
    const r = await h.call('PUT', `/tools/bundles/${bundle}/tools/t/version/1`, {
      body: { description: '', type: 'http', impl: { urlTemplate: 'ftp://x', methd: 'GET' } },
    });
    isProblem(r, 400, CatalogCodes.INVALID_RECORD);
    expect(r.json.diagnostics.length).toBeGreaterThan(1);
  });
});

// -------------------------------------------------------------------------------------------------
// fuzzing
// -------------------------------------------------------------------------------------------------

const ROUTES: ReadonlyArray<readonly [string, (id: string, slug: string, v: string) => string]> = [
  ['GET', () => '/tools/bundles'],
  ['GET', (id) => `/tools/bundles/${id}`],
  ['PUT', (id) => `/tools/bundles/${id}`],
  ['PATCH', (id) => `/tools/bundles/${id}`],
  ['DELETE', (id) => `/tools/bundles/${id}`],
  ['GET', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}`],
  ['PUT', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}`],
  ['PATCH', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}`],
  ['DELETE', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}`],
  ['POST', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}/invoke`],
  ['GET', (id, s, v) => `/tools/bundles/${id}/tools/${s}/version/${v}/gram`],
  ['GET', () => '/tools/tools'],
  ['GET', () => '/tools/tools/search'],
  ['GET', () => '/api/v1/tools'],
  ['POST', () => '/api/v1/tools'],
  ['POST', () => '/api/v1/tools/discover'],
  ['GET', () => '/api/v1/tools/usage'],
  ['GET', (_i, s) => `/api/v1/tools/${s}`],
  ['POST', (_i, s) => `/api/v1/tools/${s}/invoke`],
  ['DELETE', (_i, s) => `/api/v1/tools/${s}`],
  ['GET', () => '/healthz'],
];

const segment = fc.oneof(
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.string({ unit: 'grapheme', maxLength: 70 }).map(encodeURIComponent),
  fc.constantFrom('%', '%E0%A4%A', '%00', '..', '.', 'a_b', 'tool_ls', 'json_parse', 'météo', 'v1.2', 'x'.repeat(300), '%2F', 'echo'),
);
const id = fc.oneof(
  fc.constant(bundle0()),
  fc.uuid().map((u) => u),
  segment,
);
function bundle0(): string {
  return '018faf50-b7b6-7a01-9a05-a22a6e0af101';
}

const jsonBody = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc
    .record(
      {
        slug: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        description: fc.oneof(fc.string(), fc.array(fc.string())),
        type: fc.constantFrom('http', 'command', 'builtin', 'function', 'go', 'rocket', 5),
        impl: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.constant({ builtin: 'json_parse' }),
          fc.constant({ urlTemplate: 'http://127.0.0.1/${x}' }),
          fc.constant({ argv: ['echo', '{x}'] }),
        ),
        argSchema: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant({ x: 'string' })),
        isEnabled: fc.oneof(fc.boolean(), fc.string()),
        gram: fc.oneof(fc.string(), fc.constant('[echo:Tool {description: "e", builtin: "json_parse"} | (x::String)==>(::Any)]')),
        id: fc.oneof(fc.string(), fc.constant('tool_fuzz')),
        args: fc.jsonValue({ maxDepth: 3 }),
      },
      { requiredKeys: [] },
    )
    .map((v) => JSON.stringify(v)),
);
const rawBody = fc.oneof(
  jsonBody,
  fc.string({ maxLength: 200 }),
  fc.constant('{"a":'),
  fc.constant(''),
  fc.constant('\u0000\uffff'),
  fc.constant(`"${'x'.repeat(70_000)}"`),
);
const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom(
        'q',
        'pageSize',
        'recommendedPageSize',
        'pageToken',
        'includeDisabled',
        'bundleIDs',
        'tags',
        'limit',
        'agent_id',
        'created_by',
        'types',
        'createdBy',
      ),
      fc.string({ maxLength: 40 }),
    )
    .map((d) => `?${new URLSearchParams(d).toString()}`),
);
const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/problem+json', '');

describe('fuzzing every route', () => {
  it('never answers 500, always answers errors as problems, never writes half a record', async () => {
    const acknowledged = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), id, segment, segment, rawBody, query, contentType, async ([method, path], i, s, v, body, q, type) => {
        const url = `${path(i, s, v)}${q}`;
        const withBody = method !== 'GET' && method !== 'DELETE';
        const r = await h.service.fetch(
          new Request(`http://127.0.0.1:8081${url}`, {
            method,
            headers: type !== '' ? { 'content-type': type } : {},
            ...(withBody ? { body } : {}),
          }),
        );
        const text = await r.text();
        expect(r.status, `${method} ${url} ${body.slice(0, 200)} → ${text.slice(0, 300)}`).toBeLessThan(500);
        if (r.status >= 400) {
          expect(r.headers.get('content-type')).toContain('application/problem+json');
          const p = JSON.parse(text) as { code: string; reason: string; status: number };
          expect(p.status).toBe(r.status);
          expect(p.reason).toMatch(/^(SERVICE|CATALOG|TOOL|POLICY)_[A-Z_]+$/);
        }
        if (r.status === 201 && method === 'PUT' && url.includes('/version/')) acknowledged.add(JSON.parse(text).tool.toolID);
        if (r.status === 201 && method === 'POST') acknowledged.add(JSON.parse(text).id);
        if (r.status === 200 && path(i, s, v) === '/api/v1/tools/discover') for (const d of JSON.parse(text).discovered) acknowledged.add(d);
      }),
      { numRuns: 400 },
    );
    // every stored record decodes; the tools are exactly the acknowledged creations (and the built-ins)
    expect(h.catalog.problems()).toEqual([]);
    const all = await h.catalog.listTools({ includeDisabled: true, pageSize: 1000 });
    const mine = all.ok ? all.value.tools.filter((t) => t['isBuiltIn'] !== true) : [];
    for (const t of mine) expect(acknowledged.has(t['toolID'] as string) || acknowledged.has(t['registryId'] as string), JSON.stringify(t)).toBe(true);
  }, 120_000);
});
