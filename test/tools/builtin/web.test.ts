import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inMemorySearchBackend, searxngBackend, type WebSearchBackend } from '../../../src/entries/builtins.js';
import { ToolFailure } from '../../../src/index.js';
import { caller, code, value, workspace } from './support.js';

/** How the allowlist refuses a host: not listed, or a private address not listed itself. */
const REFUSED = ['NET_HOST_NOT_ALLOWED', 'NET_PRIVATE_ADDRESS'];

let server: Server;
let port = 0;
let base = '';
const hits: string[] = [];

const routes: Record<string, (req: IncomingMessage, res: ServerResponse, body: string) => void> = {
  '/text': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-custom': 'yes' }).end('héllo'),
  '/json': (_q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"a":1}'),
  '/bin': (_q, r) => r.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 254, 255])),
  '/bad-utf8': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.from([0x61, 0xff, 0x62])),
  '/latin1': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' }).end(Buffer.from([0x63, 0x61, 0x66, 0xe9])),
  '/untyped': (_q, r) => r.writeHead(200).end('plain words'),
  '/big': (_q, r) => r.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(6 * 1024 * 1024)),
  '/status/404': (_q, r) => r.writeHead(404, { 'content-type': 'text/plain' }).end('not here'),
  '/redirect-in': (_q, r) => r.writeHead(302, { location: '/text' }).end(),
  '/redirect-out': (_q, r) => r.writeHead(302, { location: `http://localhost:${port}/text` }).end(),
  '/redirect-other-port': (_q, r) => r.writeHead(301, { location: `http://127.0.0.1:${port + 1 > 65535 ? 1 : port + 1}/text` }).end(),
  '/slow': () => undefined,
  '/echo': (q, r, body) =>
    r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: q.method, body, header: q.headers['x-test'] ?? null })),
  '/search': (q, r) => {
    const u = new URL(q.url ?? '/', base);
    const query = u.searchParams.get('q') ?? '';
    if (u.searchParams.get('format') !== 'json') return void r.writeHead(400).end();
    if (query === 'broken') return void r.writeHead(200, { 'content-type': 'application/json' }).end('{"nope": 1}');
    if (query === 'down') return void r.writeHead(503).end();
    const results = Array.from({ length: 8 }, (_, i) => ({
      title: `${query} result ${i}`,
      url: `https://example.com/${i}`,
      content: `about ${query} #${i}`,
      engine: 'test',
    }));
    r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, results }));
  },
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      hits.push(p);
      const route = routes[p];
      if (route === undefined) res.writeHead(404).end();
      else route(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('web_fetch', () => {
  const s = workspace();
  const call = () => caller({ workspace: s.ws, allowedHosts: [`127.0.0.1:${port}`] });

  it('fetches text, with lower-case headers and the final URL', async () => {
    const r = value<{ status: number; headers: Record<string, string>; body: string; encoding: string; url: string }>(
      await call()('web_fetch', { url: `${base}/text` }),
    );
    expect(r).toMatchObject({ status: 200, body: 'héllo', encoding: 'utf-8', url: `${base}/text` });
    expect(r.headers['x-custom']).toBe('yes');
  });
  it('JSON and other text types as text; binary, and text that is not UTF-8, as base64', async () => {
    expect(value(await call()('web_fetch', { url: `${base}/json` }))).toMatchObject({ body: '{"a":1}', encoding: 'utf-8' });
    expect(value(await call()('web_fetch', { url: `${base}/bin` }))).toMatchObject({ body: 'AAH+/w==', encoding: 'base64' });
    expect(value(await call()('web_fetch', { url: `${base}/bad-utf8` }))).toMatchObject({ body: 'Yf9i', encoding: 'base64' });
    expect(value(await call()('web_fetch', { url: `${base}/latin1` }))).toMatchObject({ body: 'café', encoding: 'utf-8' });
    expect(value(await call()('web_fetch', { url: `${base}/untyped` }))).toMatchObject({ body: 'plain words', encoding: 'utf-8' });
  });
  it('a non-2xx status is a result the model reads', async () => {
    expect(value(await call()('web_fetch', { url: `${base}/status/404` }))).toMatchObject({ status: 404, body: 'not here' });
  });
  it('POST with a body and headers', async () => {
    const r = value<{ body: string }>(await call()('web_fetch', { url: `${base}/echo`, method: 'POST', body: 'payload', headers: { 'X-Test': 'v' } }));
    expect(JSON.parse(r.body)).toEqual({ method: 'POST', body: 'payload', header: 'v' });
  });
  it('follows redirects inside the allowlist, refuses those that leave it', async () => {
    expect(value(await call()('web_fetch', { url: `${base}/redirect-in` }))).toMatchObject({ body: 'héllo', url: `${base}/text` });
    const before = hits.filter((h) => h === '/text').length;
    // loopback targets that are not listed: refused as not allowed, or as private addresses
    expect(REFUSED).toContain(code(await call()('web_fetch', { url: `${base}/redirect-out` })));
    expect(REFUSED).toContain(code(await call()('web_fetch', { url: `${base}/redirect-other-port` })));
    expect(hits.filter((h) => h === '/text').length).toBe(before);
  });
  it('refuses hosts not on the allowlist, and everything when there is none', async () => {
    const r = await call()('web_fetch', { url: `http://localhost:${port}/text` });
    expect(REFUSED).toContain(code(r));
    if (!r.ok) expect(r.error.message).toContain('set by its operator');
    expect(REFUSED).toContain(code(await caller({ workspace: s.ws })('web_fetch', { url: `${base}/text` })));
    expect(code(await caller({ workspace: s.ws })('web_fetch', { url: 'https://example.com/' }))).toBe('NET_HOST_NOT_ALLOWED');
  });
  it('refuses other schemes and malformed URLs', async () => {
    expect(code(await call()('web_fetch', { url: 'file:///etc/passwd' }))).toBe('NET_UNSUPPORTED_SCHEME');
    expect(code(await call()('web_fetch', { url: 'not a url' }))).toBe('NET_INVALID_URL');
  });
  it('caps the response size (5 MiB by default)', async () => {
    const r = await call()('web_fetch', { url: `${base}/big` });
    expect(code(r)).toBe('NET_RESPONSE_TOO_LARGE');
  });
  it('times out (the call may ask for less than the maximum)', async () => {
    const t0 = Date.now();
    expect(code(await call()('web_fetch', { url: `${base}/slow`, timeout: 0.5 }))).toBe('NET_TIMEOUT');
    expect(Date.now() - t0).toBeLessThan(5000);
  });
  it('refuses headers that would change where or how the request goes, and header injection', async () => {
    expect(code(await call()('web_fetch', { url: `${base}/text`, headers: { Host: 'evil.example.com' } }))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call()('web_fetch', { url: `${base}/text`, headers: { 'X-A': 'v\r\nX-Injected: 1' } }))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call()('web_fetch', { url: `${base}/text`, headers: { 'Bad Name': 'v' } }))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call()('web_fetch', { url: `${base}/text`, body: 'x' }))).toBe('TOOL_INVALID_ARGUMENTS');
    expect(code(await call()('web_fetch', { url: `${base}/text`, method: 'DELETE' }))).toBe('TOOL_INVALID_ARGUMENTS');
  });
  it('an invalid allowlist is BUILTIN_NOT_CONFIGURED', async () => {
    expect(code(await caller({ workspace: s.ws, allowedHosts: ['http://with-scheme.example.com/'] })('web_fetch', { url: `${base}/text` }))).toBe(
      'BUILTIN_NOT_CONFIGURED',
    );
  });
});

describe('web_search', () => {
  const s = workspace();

  it('without a backend: BUILTIN_NOT_CONFIGURED', async () => {
    expect(code(await caller({ workspace: s.ws })('web_search', { query: 'x' }))).toBe('BUILTIN_NOT_CONFIGURED');
  });
  it('searches a SearXNG-compatible server (here a local one)', async () => {
    const call = caller({ workspace: s.ws, webSearch: searxngBackend({ baseUrl: base }) });
    const r = value<{ results: Array<{ title: string; url: string; snippet: string }> }>(await call('web_search', { query: 'gram notation' }));
    expect(r.results).toHaveLength(5);
    expect(r.results[0]).toEqual({ title: 'gram notation result 0', url: 'https://example.com/0', snippet: 'about gram notation #0' });
    expect(value<{ results: unknown[] }>(await call('web_search', { query: 'gram', numResults: 2 })).results).toHaveLength(2);
    expect(code(await call('web_search', { query: 'gram', numResults: 50 }))).toBe('TOOL_INVALID_ARGUMENTS');
  });
  it('backend failures are reported with codes', async () => {
    const call = caller({ workspace: s.ws, webSearch: searxngBackend({ baseUrl: base }) });
    expect(code(await call('web_search', { query: 'broken' }))).toBe('TOOL_EXECUTION_ERROR');
    const down = await call('web_search', { query: 'down' });
    expect(code(down)).toBe('TOOL_EXECUTION_ERROR');
    if (!down.ok) expect(down.error.retryable).toBe(true);
    const elsewhere = caller({ workspace: s.ws, webSearch: searxngBackend({ baseUrl: base, allowedHosts: ['search.example.com'] }) });
    expect(REFUSED).toContain(code(await elsewhere('web_search', { query: 'x' })));
  });
  it('an in-memory backend ranks documents by the words they share with the query', async () => {
    const backend = inMemorySearchBackend([
      { title: 'Bubblewrap', url: 'https://example.com/bwrap', text: 'Unprivileged sandboxing tool using Linux namespaces.' },
      { title: 'Gram notation', url: 'https://example.com/gram', text: 'A text format for graphs and patterns, used to write tool specifications.' },
      { title: 'Sandboxing with namespaces', url: 'https://example.com/ns', text: 'How Linux namespaces isolate a sandbox.' },
    ]);
    const call = caller({ workspace: s.ws, webSearch: backend });
    const r = value<{ results: Array<{ url: string; snippet: string }> }>(await call('web_search', { query: 'linux sandbox namespaces' }));
    expect(r.results.map((x) => x.url)).toEqual(['https://example.com/ns', 'https://example.com/bwrap']);
    expect(value<{ results: unknown[] }>(await call('web_search', { query: 'nothing matches this' })).results).toEqual([]);
  });
  it('a backend that returns malformed results or throws a coded failure', async () => {
    const bad: WebSearchBackend = { name: 'bad', search: async () => [{ title: 1, url: 'u', snippet: 's' }] as never };
    expect(code(await caller({ workspace: s.ws, webSearch: bad })('web_search', { query: 'x' }))).toBe('TOOL_EXECUTION_ERROR');
    const limited: WebSearchBackend = {
      name: 'limited',
      search: async () => {
        throw new ToolFailure('RATE_LIMITED', 'slow down', { retryable: true });
      },
    };
    const r = await caller({ workspace: s.ws, webSearch: limited })('web_search', { query: 'x' });
    expect(r).toMatchObject({ ok: false, error: { code: 'RATE_LIMITED', retryable: true } });
  });
});
