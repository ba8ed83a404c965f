/**
 * `/openapi.json`: OpenAPI 3.1 made from the schemas that validate the requests. Every route is
 * documented with its parameters, body and responses; every schema in it compiles; every
 * documented error is a problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileSchema } from 'gramkit';
import { type Harness, harness, fullToken } from './support.js';

let h: Harness;
beforeAll(async () => {
  h = await harness({ tokens: [fullToken('t'.repeat(16))] });
});
afterAll(async () => h.close());

interface Operation {
  readonly operationId: string;
  readonly parameters?: ReadonlyArray<{ name: string; in: string; required: boolean; schema: object }>;
  readonly requestBody?: { content: Record<string, { schema: object }> };
  readonly responses: Record<string, { $ref?: string; content?: Record<string, { schema: object }> }>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);
const operationsOf = (item: Record<string, Operation>): Operation[] => Object.entries(item).flatMap(([k, o]) => (METHODS.has(k) ? [o] : []));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const sharedResponse = (doc: any, r: { $ref?: string }): { content?: Record<string, unknown> } => {
  expect(r.$ref).toMatch(/^#\/components\/responses\/\w+$/);
  return doc.components.responses[(r.$ref as string).split('/').pop() as string];
};

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with every route of the service, and bearer security', async () => {
    const doc = (await h.call('GET', '/openapi.json')).json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    const documented = new Set(
      Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    for (const r of h.service.routes)
      expect(documented.has(`${r.method.toUpperCase()} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`), `${r.method} ${r.path}`).toBe(true);
    for (const path of [
      '/tools/bundles/{bundleID}/tools/{toolSlug}/version/{v}/invoke',
      '/tools/tools/search',
      '/api/v1/tools/{id}/invoke',
      '/api/v1/tools/usage',
      '/api/v1/events',
      '/healthz',
    ])
      expect(doc.paths[path]).toBeDefined();
  });

  it('documents path parameters, queries, bodies; every schema compiles; errors are problems', async () => {
    const doc = (await h.call('GET', '/openapi.json')).json;
    const ops: Operation[] = Object.values(doc.paths as Record<string, Record<string, Operation>>).flatMap((o) => operationsOf(o));
    expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
    for (const [path, byMethod] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of operationsOf(byMethod)) {
        expect(op.parameters?.filter((p) => p.in === 'path').map((p) => p.name) ?? []).toEqual(names);
        for (const p of op.parameters ?? []) expect(compileSchema(p.schema as never)._tag, `${op.operationId} ${p.name}`).toBe('Right');
        for (const c of Object.values(op.requestBody?.content ?? {})) expect(compileSchema(c.schema as never)._tag).toBe('Right');
        for (const [status, r] of Object.entries(op.responses)) {
          // an error is one of the shared responses, each a problem
          if (Number(status) >= 400)
            expect(Object.keys(sharedResponse(doc, r).content ?? {}), `${op.operationId} ${status}`).toEqual(['application/problem+json']);
        }
      }
    }
    const put = doc.paths['/tools/bundles/{bundleID}'].put as Operation;
    expect(put.requestBody?.content['application/json']?.schema).toMatchObject({ required: ['slug'] });
    const list = doc.paths['/tools/tools'].get as Operation;
    expect(list.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['tags', 'bundleIDs', 'includeDisabled', 'recommendedPageSize', 'pageToken']));
  });
});
