/**
 * `/openapi.json` passes a real OpenAPI linter: Redocly's (`@redocly/openapi-core`, the engine of
 * `redocly lint`) with its `recommended` rules, on the document of a server with tokens and of one
 * without. No error; the one warning allowed is the shared 405 response, which no operation can
 * refer to (a 405 is a path's answer to a method it does not have, and OpenAPI has no place for a
 * path's own responses; every path's description names it).
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, harness, fullToken } from './support.js';

let secured: Harness;
let open: Harness;
beforeAll(async () => {
  secured = await harness({ tokens: [fullToken('t'.repeat(16))], experiments: tmpdir() });
  open = await harness();
});
afterAll(async () => {
  await secured.close();
  await open.close();
});

const lint = async (h: Harness): Promise<ReadonlyArray<{ severity: string; rule: string; message: string; where: string }>> => {
  const served = await h.call('GET', '/openapi.json');
  expect(served.status).toBe(200);
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: served.text, absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({ severity: p.severity, rule: p.ruleId, message: p.message, where: p.location[0]?.pointer ?? '' }));
};

const ALLOWED = [{ severity: 'warn', rule: 'no-unused-components', where: '#/components/responses/MethodNotAllowed' }];

describe('the OpenAPI document, linted by Redocly (recommended rules)', () => {
  it('has no error and no warning but the shared 405, on a server with tokens (and experiments)', async () => {
    const found = await lint(secured);
    expect(found.filter((p) => p.severity === 'error')).toEqual([]);
    expect(found.map(({ severity, rule, where }) => ({ severity, rule, where }))).toEqual(ALLOWED);
  });

  it('and on a server without tokens', async () => {
    const found = await lint(open);
    expect(found.filter((p) => p.severity === 'error')).toEqual([]);
    expect(found.map(({ severity, rule, where }) => ({ severity, rule, where }))).toEqual(ALLOWED);
  });

  it('finds what it should: the linter is live (a document without servers and with an operation without 4xx is refused)', async () => {
    const doc = JSON.parse((await open.call('GET', '/openapi.json')).text);
    delete doc.servers;
    doc.paths['/healthz'].get.responses = { 200: doc.paths['/healthz'].get.responses['200'] };
    const config = await createConfig({ extends: ['recommended'] });
    const rules = (await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config })).map((p) => p.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['no-empty-servers', 'operation-4xx-response']));
  });
});
