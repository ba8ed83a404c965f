/**
 * Attack corpus: regular expressions that stall the process (issue 13, weak items). Patterns from
 * data (an HTTP tool's `extractExpr`, a schema's `pattern`) ran on V8's backtracking engine on the
 * main thread: a 27-character input blocked it for 7.5 s. They run on a linear-time engine now,
 * which refuses what it cannot run in linear time (backreferences, lookaround). A backtracking
 * engine would take minutes on these inputs, so a regression shows as a test that times out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolCodes, bindTool, compileSchema, createTool, invoke, toolLibrary, type JsonObject, type ToolSpecification } from '../../src/index.js';
import { HttpCodes, httpTool } from '../../src/entries/tools.js';
import { startServer, type TestServer } from '../tools/server-support.js';

const EVIL_INPUT = `${'a'.repeat(40)}!`;

let api: TestServer;
beforeAll(async () => {
  api = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(EVIL_INPUT);
  });
});
afterAll(() => api.close());

const spec: ToolSpecification = {
  name: 'fetch_text',
  description: 'fetches text',
  typeSignature: '',
  schema: { type: 'object', properties: {} } as JsonObject,
  outputSchema: {},
};

describe('attack: extractExpr', () => {
  it('a catastrophic pattern on a hostile response answers at once', async () => {
    for (const extractExpr of ['/^(a+)+$/', '/^(a|aa)+$/', '/(a*)*b/', '/^(\\w+\\s?)*$/']) {
      const t = httpTool(spec, { urlTemplate: `${api.origin}/`, responseEncoding: 'text', extractExpr, errorMode: 'fail', allowedHosts: ['127.0.0.1'] });
      if (t._tag === 'Left') throw new Error(JSON.stringify(t.left));
      const b = bindTool(spec, toolLibrary([t.right]));
      if (b._tag === 'Left') throw new Error('bind');
      expect(await invoke(b.right, {}), extractExpr).toMatchObject({ ok: false, error: { reason: HttpCodes.EXTRACT_NO_MATCH } });
    }
  });

  it('a pattern that needs backtracking is refused when the tool is made, with the reason', () => {
    for (const extractExpr of ['/(a)\\1/', '/(?=a)a/', '/(?<!x)y/']) {
      const t = httpTool(spec, { urlTemplate: `${api.origin}/`, responseEncoding: 'text', extractExpr, allowedHosts: ['127.0.0.1'] });
      expect(t._tag).toBe('Left');
      if (t._tag === 'Left') expect(t.left[0]?.message).toMatch(/backreference|lookahead|lookbehind/);
    }
  });
});

describe('attack: schema pattern', () => {
  it('a catastrophic pattern on a hostile argument answers at once', async () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(\\w+\\s?)*$' } }, required: ['name'] } as JsonObject;
    const s: ToolSpecification = { name: 'named', description: 'takes a name', typeSignature: '', schema, outputSchema: {} };
    const b = bindTool(s, toolLibrary([createTool('named', 'takes a name', schema, () => 'ok')]));
    if (b._tag === 'Left') throw new Error('bind');
    expect(await invoke(b.right, { name: `${'a'.repeat(40)}!` })).toMatchObject({ ok: false, error: { reason: ToolCodes.INVALID_ARGUMENTS } });
    expect(await invoke(b.right, { name: 'a b c' })).toMatchObject({ ok: true });
  });

  it('a pattern that needs backtracking makes the schema invalid, with the reason', () => {
    const r = compileSchema({ type: 'string', pattern: '^(?!admin).*$' } as JsonObject);
    expect(r._tag).toBe('Left');
    if (r._tag === 'Left') expect(r.left.message).toMatch(/lookahead/);
  });
});
