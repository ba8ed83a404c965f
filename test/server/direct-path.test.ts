/**
 * The direct path of the invoke routes (server/serve-direct.ts) answers as Hono's path does: on
 * random requests to the invoke routes (methods; paths with encodings, dot segments, case, queries,
 * trailing slashes; Host, Origin, Authorization, Content-Type and identifying headers, each also
 * given twice; bodies JSON, malformed, empty, oversized, declared or chunked), a server with the
 * direct path and one without (the internal switch of serve.ts, both on the same service) answer
 * the same status, body and headers. Requests are sent raw (node:http, Host as given), as an
 * attacker would send them.
 */
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from 'gramkit/catalog';
import { type Credential, type RunningServer, Scopes } from 'gramkit/server';
import { listen } from '../../src/server/serve.js';
import { fullToken, type Harness, harness } from './support.js';

const FULL = 'direct-path-token-0123456789abcdef';
const READER = 'direct-path-reader-0123456789abcdef';
const LIMIT = 2048;

interface Raw {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Headers as raw lines (a value given twice is two lines, `Host` included). */
const rawLines = (headers: OutgoingHttpHeaders): string[] =>
  Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : Array.isArray(v) ? v.flatMap((x) => [k, x]) : [k, String(v)]));

/** A request as written, over a fresh connection: the path and the header lines exactly as given. */
const send = (port: number, method: string, path: string, headers: OutgoingHttpHeaders, body: string, chunked: boolean): Promise<Raw> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: rawLines(chunked || body === '' ? headers : { ...headers, 'content-length': Buffer.byteLength(body) }),
        setHost: false,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const kept = Object.entries(res.headers).filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k));
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(kept.map(([k, v]) => [k, String(v)])),
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== '') req.write(body);
    req.end();
  });

/** Mostly the value a client sends, else one of the others (so most requests differ from a good one in a field or two). */
const usually = <A>(good: A, ...others: A[]): fc.Arbitrary<A> =>
  fc.oneof({ weight: 4, arbitrary: fc.constant(good) }, { weight: 1, arbitrary: fc.constantFrom(...others) });
/** A header given once, twice (two lines), or not at all. */
const lines = (good: string, ...others: string[]): fc.Arbitrary<string | string[] | undefined> =>
  fc.oneof(
    { weight: 6, arbitrary: usually(good, ...others) },
    { weight: 1, arbitrary: fc.tuple(usually(good, ...others), usually(good, ...others)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

let h: Harness;
let bundle: string;
describe.each([
  ['with tokens', { tokens: [fullToken(FULL), { name: 'reader', token: READER, scopes: [Scopes.READ] } satisfies Credential] }],
  ['without tokens, scopes required', { requireScopes: true }],
  ['without tokens', {}],
] as const)('the direct path answers as Hono does (%s)', (_, options) => {
  let direct: RunningServer;
  let hono: RunningServer;
  beforeAll(async () => {
    h = await harness({ ...options, maxBodyBytes: LIMIT });
    bundle = newId();
    await h.catalog.putBundle(bundle, { slug: 'direct' });
    const put = await h.catalog.putTool(bundle, 'parse', '1.0', {
      gram: '[parse:Tool {description: "Parses JSON text", builtin: "json_parse"} | (text::String)==>(query::String {optional: true})==>(::Any)]',
    });
    if (!put.ok) throw new Error(put.error.message);
    direct = await listen(h.service, { port: 0 }, true);
    hono = await listen(h.service, { port: 0 }, false);
  });
  afterAll(async () => {
    await direct.close();
    await hono.close();
    await h.close();
  });

  const segment = fc.oneof(
    fc.constantFrom('json_parse', 'JSON_PARSE', 'json%5Fparse', 'nope', '.', '..', '%2e%2e', '.hidden', 'usage', 'discover', 'a~b', 'x'.repeat(70), ''),
    fc.stringMatching(/^[A-Za-z0-9._~%-]{1,10}$/),
  );
  const path = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: segment.map((id) => `/api/v1/tools/${id}/invoke`) },
        {
          weight: 3,
          arbitrary: fc
            .tuple(usually('BUNDLE', newId(), '123'), usually('parse', 'PARSE', 'pa%72se', '..'), usually('1.0', '1', '..', '1%2E0', '1.0.'))
            .map(([b, s, v]) => `/tools/bundles/${b}/tools/${s}/version/${v}/invoke`),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '/API/v1/tools/json_parse/invoke',
            '/api/v1/tools/x/../json_parse/invoke',
            '/api/./v1/tools/json_parse/invoke',
            '/api/v1//tools/json_parse/invoke',
            '/api/v1/tools/json_parse/invoke/..',
            '/api/v1/tools/json_parse/INVOKE',
            'http://127.0.0.1/api/v1/tools/json_parse/invoke',
            '/api/v1/tools/json_parse\\invoke',
          ),
        },
      ),
      usually('', '/', '?x=1', '?', '#f', '%20'),
    )
    .map(([p, suffix]) => p + suffix);
  const request = fc.record({
    method: usually('POST', 'GET', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'post'),
    path,
    host: lines(
      '127.0.0.1:8081',
      'localhost',
      'LOCALHOST:8081',
      '[::1]:8081',
      '127.0.0.1:80',
      'evil.example',
      '127.0.0.1.nip.io',
      'localhost:99999',
      '127.0.0.2',
    ),
    origin: fc.option(
      fc.constantFrom(
        'http://127.0.0.1:8081',
        'http://localhost',
        'http://evil.example',
        'null',
        'https://127.0.0.1:8081',
        'file://x',
        'http://LOCALHOST:8081',
      ),
      { nil: undefined, freq: 2 },
    ),
    authorization: lines(`Bearer ${FULL}`, `Bearer ${READER}`, `bearer   ${FULL}  `, 'Bearer wrong-token-0123456789abcdef', `Basic ${FULL}`, 'Bearer'),
    contentType: lines('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/merge-patch+json', ''),
    scopes: fc.option(fc.constantFrom('invoke_tool', 'read_registry', 'invoke_tool, write_registry', ''), { nil: undefined, freq: 2 }),
    agent: fc.option(fc.constantFrom('agent-1', 'x'.repeat(200), 'a b', ' lead'), { nil: undefined, freq: 2 }),
    body: fc.oneof(
      usually(
        JSON.stringify({ text: '{"city": "Paris", "days": [1, 2, 3]}' }),
        JSON.stringify({ args: { text: '[1, 2]' } }),
        '',
        JSON.stringify({ text: 5 }),
        JSON.stringify({ text: '[1', query: 'x' }),
        '{"text": ',
        'not json',
        '[]',
        'null',
        JSON.stringify({ text: JSON.stringify('y'.repeat(LIMIT)) }),
      ),
      fc.json(),
    ),
    chunked: usually(false, true),
  });

  it('the same status, body and headers for random requests to the invoke routes', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers: Record<string, string | string[]> = {};
        if (r.host !== undefined) headers['host'] = r.host;
        if (r.origin !== undefined) headers['origin'] = r.origin;
        if (r.authorization !== undefined) headers['authorization'] = r.authorization;
        if (r.contentType !== undefined) headers['content-type'] = r.contentType;
        if (r.scopes !== undefined) headers['x-caller-scopes'] = r.scopes;
        if (r.agent !== undefined) headers['x-agent-id'] = r.agent;
        const p = r.path.replace('BUNDLE', bundle);
        // a bundle route's body is {args}
        const body = r.method === 'GET' || r.method === 'HEAD' ? '' : p.startsWith('/tools/') && r.body.startsWith('{"text"') ? `{"args":${r.body}}` : r.body;
        const [a, b] = await Promise.all([send(direct.port, r.method, p, headers, body, r.chunked), send(hono.port, r.method, p, headers, body, r.chunked)]);
        expect(a).toEqual(b);
      }),
      { numRuns: 400 },
    );
  });

  it('takes the invoke routes when it can (the requests a client sends)', async () => {
    const auth = 'tokens' in options ? { authorization: `Bearer ${FULL}` } : { 'x-caller-scopes': 'invoke_tool' };
    const headers = { host: '127.0.0.1:8081', 'content-type': 'application/json', ...auth };
    const body = JSON.stringify({ text: '{"a": [1]}' });
    for (const p of ['/api/v1/tools/json_parse/invoke', `/tools/bundles/${bundle}/tools/parse/version/1.0/invoke`]) {
      const sent = p.startsWith('/tools') ? JSON.stringify({ args: { text: '{"a": [1]}' } }) : body;
      const [a, b] = await Promise.all([send(direct.port, 'POST', p, headers, sent, false), send(hono.port, 'POST', p, headers, sent, false)]);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toMatchObject({ ok: true, value: { value: { a: [1] } } });
      expect(a).toEqual(b);
    }
  });
});
