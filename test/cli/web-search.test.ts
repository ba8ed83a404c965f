/**
 * `web_search` configured from the environment (`GRAMKIT_WEB_SEARCH`, the key, the base URL) on
 * each surface that runs the built-ins: `gramkit invoke`, `gramkit serve` (REST) and `gramkit mcp`
 * (stdio). A real HTTP server on 127.0.0.1 poses as Brave's, Tavily's and SearXNG's APIs: what it
 * receives (path, query, key header, body) is checked, and what it answers comes back as results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuiltinCodes, webSearchFromEnv } from 'gramkit/builtins';
import { cli, SERVE_AUTH_ARGS, startCli } from '../support/cli.js';
import { CLI, stdioClient } from '../mcp/support.js';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

const root = mkdtempSync(join(tmpdir(), 'gramkit-web-search-'));
const seen: Seen[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname === '/res/v1/web/search') {
        if (req.headers['x-subscription-token'] !== 'brave-key') return void res.writeHead(401).end('{}');
        const q = url.searchParams.get('q');
        const results = [
          { title: `Brave: ${q}`, url: 'https://a.example/1', description: 'first' },
          { title: 'Two', url: 'https://a.example/2', description: 'second' },
        ];
        return void res.end(JSON.stringify({ type: 'search', web: { results } }));
      }
      if (url.pathname === '/tavily/search' && req.method === 'POST') {
        if (req.headers['authorization'] !== 'Bearer tvly-key') return void res.writeHead(401).end('{}');
        const { query } = JSON.parse(body) as { query: string };
        return void res.end(JSON.stringify({ query, results: [{ title: `Tavily: ${query}`, url: 'https://t.example/', content: 'tav', score: 0.9 }] }));
      }
      if (url.pathname === '/searx/search' && url.searchParams.get('format') === 'json') {
        return void res.end(JSON.stringify({ results: [{ title: `SearXNG: ${url.searchParams.get('q')}`, url: 'https://s.example/', content: 'sx' }] }));
      }
      res.writeHead(404).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('web_search from the environment', () => {
  it('gramkit invoke: Brave (the key in X-Subscription-Token, never in the URL)', async () => {
    const env = { GRAMKIT_WEB_SEARCH: 'brave', GRAMKIT_WEB_SEARCH_URL: `${base}/res/v1/`, BRAVE_API_KEY: 'brave-key' };
    const r = await cli(['invoke', 'builtin', '--tool', 'web_search', '--args', '{"query": "gram notation", "numResults": 1}', '--workspace', root], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      ok: true,
      value: { results: [{ title: 'Brave: gram notation', url: 'https://a.example/1', snippet: 'first' }] },
    });
    const req = seen.at(-1) as Seen;
    expect(req.url).toBe('/res/v1/web/search?q=gram+notation&count=1');
    expect(req.url).not.toContain('brave-key');
    // a wrong key: the call fails and says so
    const wrong = await cli(['invoke', 'builtin', '--tool', 'web_search', '--args', '{"query": "x"}', '--workspace', root], {
      env: { ...env, BRAVE_API_KEY: 'nope' },
    });
    expect(wrong.stdout + wrong.stderr).toContain('HTTP 401 (is its API key right?)');
  });

  it('gramkit serve: Tavily (POST, a bearer key), over REST', async () => {
    const env = { GRAMKIT_WEB_SEARCH: 'tavily', GRAMKIT_WEB_SEARCH_URL: `${base}/tavily`, GRAMKIT_WEB_SEARCH_KEY: 'tvly-key' };
    const s = await startCli(['serve', '--port', '0', '--data', join(root, 'data'), '--workspace', root, ...SERVE_AUTH_ARGS], { env, cwd: root });
    try {
      const url = s.url() as string;
      expect(url, s.err()).toBeDefined();
      const r = await fetch(`${url}/api/v1/tools/web_search/invoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'seed 002' }),
      });
      expect(await r.json()).toMatchObject({ ok: true, value: { results: [{ title: 'Tavily: seed 002', url: 'https://t.example/', snippet: 'tav' }] } });
      const req = seen.at(-1) as Seen;
      expect([req.method, req.url, JSON.parse(req.body)]).toEqual(['POST', '/tavily/search', { query: 'seed 002', max_results: 5 }]);
    } finally {
      s.stop();
      expect(await s.done).toBe(0);
    }
    // a configuration that cannot work stops serve at start, naming the variable
    const bad = await cli(['serve', '--port', '0', '--data', join(root, 'bad'), ...SERVE_AUTH_ARGS], { env: { GRAMKIT_WEB_SEARCH: 'tavily' }, cwd: root });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('GRAMKIT_WEB_SEARCH=tavily needs its API key in GRAMKIT_WEB_SEARCH_KEY or TAVILY_API_KEY');
  });

  it('gramkit mcp builtin: SearXNG, over stdio', async () => {
    const client = await stdioClient('v2', process.execPath, [CLI, 'mcp', 'builtin', '--workspace', root, '--no-watch'], {
      env: { PATH: process.env['PATH'] ?? '', GRAMKIT_WEB_SEARCH: 'searxng', GRAMKIT_WEB_SEARCH_URL: `${base}/searx` },
    });
    try {
      const r = await client.callTool('web_search', { query: 'bubblewrap' });
      expect(r['structuredContent']).toEqual({ results: [{ title: 'SearXNG: bubblewrap', url: 'https://s.example/', snippet: 'sx' }] });
    } finally {
      await client.close();
    }
  });

  it('without GRAMKIT_WEB_SEARCH there is no backend (BUILTIN_NOT_CONFIGURED says how to set one); a wrong value is named', async () => {
    const r = await cli(['invoke', 'builtin', '--tool', 'web_search', '--args', '{"query": "x"}', '--workspace', root], { env: {} });
    expect(r.stdout + r.stderr).toContain(BuiltinCodes.NOT_CONFIGURED);
    expect(r.stdout + r.stderr).toContain('GRAMKIT_WEB_SEARCH=brave|tavily|searxng');
    const unknown = webSearchFromEnv({ GRAMKIT_WEB_SEARCH: 'google' });
    expect(unknown._tag === 'Left' && unknown.left.message).toBe('GRAMKIT_WEB_SEARCH must be one of brave, tavily, searxng, got "google"');
    const noUrl = webSearchFromEnv({ GRAMKIT_WEB_SEARCH: 'searxng' });
    expect(noUrl._tag === 'Left' && noUrl.left.message).toContain('needs GRAMKIT_WEB_SEARCH_URL');
    expect(webSearchFromEnv({})).toEqual({ _tag: 'Right', right: undefined });
  });
});
