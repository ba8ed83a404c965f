import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bindTool,
  invoke,
  onEvent,
  toolLibrary,
  type BoundTool,
  type InvocationEvent,
  type JsonObject,
  type Tool,
  type ToolResult,
  type ToolSpecification,
} from '../../src/index.js';
import { decodeHttpToolConfig, httpTool, type HttpToolConfigInput, type HttpToolOptions } from '../../src/entries/tools.js';
import { json, startServer, stream, type TestServer } from './server-support.js';
import { expectGolden } from '../support/golden.js';

// -------------------------------------------------------------------------------------------------
// a local API
// -------------------------------------------------------------------------------------------------

let api: TestServer;
const flaky = new Map<string, number>();

beforeAll(async () => {
  api = await startServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const p = u.pathname;
    if (p === '/weather') {
      const q = u.searchParams.get('q') ?? '';
      if (q === 'Atlantis') return json(res, 404, { error: { message: `no city named ${q}` } });
      return json(res, 200, { location: { name: q }, current: { condition: { text: `Sunny in ${q}` }, temp_c: 21 }, forecast: [{ t: 20 }, { t: 23 }] });
    }
    if (p === '/echo' || p.startsWith('/users/') || p.startsWith('/files/'))
      return json(res, 200, { method: req.method, url: req.url, headers: req.headers, body: req.body });
    if (p === '/text') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('station: north\ntemperature: 21 C\nhumidity: 40 %\n');
    }
    if (p === '/status') return json(res, Number(u.searchParams.get('code')), { error: 'status as asked' });
    if (p === '/not-json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html>maintenance</html>');
    }
    if (p === '/flaky') {
      const key = u.searchParams.get('key') ?? '';
      const n = (flaky.get(key) ?? 0) + 1;
      flaky.set(key, n);
      if (n <= Number(u.searchParams.get('fails'))) {
        res.writeHead(Number(u.searchParams.get('status') ?? 503), { 'retry-after': u.searchParams.get('after') ?? '0', 'content-type': 'text/plain' });
        return res.end('busy');
      }
      return json(res, 200, { attempt: n });
    }
    if (p === '/slow') return void setTimeout(() => json(res, 200, { late: true }), 2000);
    if (p === '/redirect') {
      res.writeHead(302, { location: u.searchParams.get('to') ?? '/echo' });
      return res.end();
    }
    if (p === '/big') return stream(res, 50 * 1024 * 1024);
    if (p === '/reflect') {
      // a careless API that echoes credentials back everywhere
      const key = u.searchParams.get('key') ?? '';
      const status = Number(u.searchParams.get('status') ?? 200);
      return json(res, status, { youSent: key, auth: req.headers['authorization'], note: `key=${key}` }, { 'x-echo': key });
    }
    return json(res, 404, { error: 'no route' });
  });
});
afterAll(() => api.close());

// -------------------------------------------------------------------------------------------------
// helpers
// -------------------------------------------------------------------------------------------------

const spec = (name: string, properties: JsonObject, required: string[] = Object.keys(properties), outputSchema: JsonObject = {}): ToolSpecification => ({
  name,
  description: `test tool ${name}`,
  typeSignature: '',
  schema: { type: 'object', properties, required, additionalProperties: false },
  outputSchema,
});

const text = { type: 'string' } as const;

const make = (s: ToolSpecification, config: HttpToolConfigInput, options: HttpToolOptions = {}): Tool => {
  const t = httpTool(s, config, options);
  if (t._tag === 'Left') throw new Error(t.left.map((d) => `${d.code}: ${d.message}`).join('\n'));
  return t.right;
};

const bindings = new WeakMap<Tool, BoundTool>();

/** Binds (once per tool) and invokes through the library, collecting every event of the call. */
const call = async (tool: Tool, s: ToolSpecification, args: unknown): Promise<{ result: ToolResult; events: InvocationEvent[] }> => {
  let bound = bindings.get(tool);
  if (bound === undefined) {
    const b = bindTool(s, toolLibrary([tool]));
    if (b._tag === 'Left') throw new Error(JSON.stringify(b.left));
    bound = b.right;
    bindings.set(tool, bound);
  }
  const events: InvocationEvent[] = [];
  const result = await invoke(bound, args, { observer: onEvent((e) => events.push(e)) });
  return { result, events };
};

const value = (r: ToolResult): unknown => {
  if (!r.ok) throw new Error(`expected success, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};
const failure = (r: ToolResult) => {
  if (r.ok) throw new Error(`expected failure, got ${JSON.stringify(r.value)}`);
  return r.error;
};

const weatherSpec = spec('weather', { city: text }, ['city'], { type: 'string' });
const weatherConfig = (): HttpToolConfigInput => ({
  method: 'GET',
  urlTemplate: `${api.origin}/weather?q=\${city}&key=\${WEATHER_API_KEY}`,
  headers: { 'User-Agent': 'gramkit-test/1' },
  successCodes: [200],
  timeoutMs: 5000,
  responseEncoding: 'json',
  extractExpr: '$.current.condition.text',
  errorMode: 'fail',
});
const secrets = (name: string): string | undefined => (name === 'WEATHER_API_KEY' ? 'wk-5ecret-v4lue' : undefined);

// -------------------------------------------------------------------------------------------------
// tests
// -------------------------------------------------------------------------------------------------

describe('httpTool: requests and results', () => {
  it('renders the request from arguments and secrets and extracts with JSONPath (the weather example)', async () => {
    const tool = make(weatherSpec, weatherConfig(), { secrets });
    const before = api.requests.length;
    expect(value((await call(tool, weatherSpec, { city: 'Paris' })).result)).toBe('Sunny in Paris');
    const sent = api.requests[before]!;
    expect(sent.url).toBe('/weather?q=Paris&key=wk-5ecret-v4lue');
    expect(sent.headers['user-agent']).toBe('gramkit-test/1');
    expect(tool.annotations).toMatchObject({ permissions: ['net:read'], safetyLevel: 'low' });
  });

  it('returns the whole JSON body without extractExpr, and arrays for indefinite paths', async () => {
    const s = spec('w', { city: text }, ['city'], { type: 'object' });
    const whole = make(s, { urlTemplate: `${api.origin}/weather?q=\${city}` });
    expect(value((await call(whole, s, { city: 'Oslo' })).result)).toMatchObject({ location: { name: 'Oslo' } });
    const sa = spec('w', { city: text }, ['city'], { type: 'array' });
    const temps = make(sa, { urlTemplate: `${api.origin}/weather?q=\${city}`, extractExpr: '$.forecast[*].t' });
    expect(value((await call(temps, sa, { city: 'Oslo' })).result)).toEqual([20, 23]);
  });

  it('extracts from text with a regular expression', async () => {
    const s = spec('t', {}, [], {});
    const one = make(s, { urlTemplate: `${api.origin}/text`, responseEncoding: 'text', extractExpr: '/temperature: (\\d+) C/' });
    expect(value((await call(one, s, {})).result)).toBe('21');
    const named = make(s, { urlTemplate: `${api.origin}/text`, responseEncoding: 'text', extractExpr: '/(?<key>\\w+): (?<value>[^\\n]+)/g' });
    expect(value((await call(named, s, {})).result)).toEqual([
      { key: 'station', value: 'north' },
      { key: 'temperature', value: '21 C' },
      { key: 'humidity', value: '40 %' },
    ]);
    const whole = make(s, { urlTemplate: `${api.origin}/text`, responseEncoding: 'text' });
    expect(value((await call(whole, s, {})).result)).toContain('humidity');
  });

  it('drops a query pair whose optional argument is absent, repeats it for arrays', async () => {
    const s = spec('q', { a: text, tags: { type: 'array', items: text } }, ['a'], {});
    const tool = make(s, { urlTemplate: `${api.origin}/echo?a=\${a}&tag=\${tags}&fixed=1` });
    expect((value((await call(tool, s, { a: 'x' })).result) as { url: string }).url).toBe('/echo?a=x&fixed=1');
    expect((value((await call(tool, s, { a: 'x', tags: ['p q', 'r&s'] })).result) as { url: string }).url).toBe('/echo?a=x&tag=p%20q&tag=r%26s&fixed=1');
  });

  it('sends JSON bodies with string and bare placeholders, and a content type', async () => {
    const s = spec('post', { title: text, count: { type: 'integer' }, meta: { type: 'object' } }, ['title', 'count'], {});
    const tool = make(s, { method: 'POST', urlTemplate: `${api.origin}/echo`, bodyTemplate: '{"title": "${title}", "count": ${count}, "meta": ${meta}}' });
    const echoed = value((await call(tool, s, { title: 'a "quoted" \\ title', count: 3, meta: { k: [1, 2] } })).result) as {
      body: string;
      headers: Record<string, string>;
      method: string;
    };
    expect(echoed.method).toBe('POST');
    expect(echoed.headers['content-type']).toBe('application/json');
    expect(JSON.parse(echoed.body)).toEqual({ title: 'a "quoted" \\ title', count: 3, meta: { k: [1, 2] } });
    expect(tool.annotations).toMatchObject({ permissions: ['net:write'], safetyLevel: 'medium' });
  });

  it('sends form bodies', async () => {
    const s = spec('form', { q: text, lang: text }, ['q'], {});
    const tool = make(s, {
      method: 'POST',
      urlTemplate: `${api.origin}/echo`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      bodyTemplate: 'q=${q}&lang=${lang}&v=2',
    });
    const echoed = value((await call(tool, s, { q: 'a&b=c d' })).result) as { body: string };
    expect(echoed.body).toBe('q=a%26b%3Dc+d&v=2');
    expect(Object.fromEntries(new URLSearchParams(echoed.body))).toEqual({ q: 'a&b=c d', v: '2' });
  });
});

describe('httpTool: statuses, errorMode, retries, limits', () => {
  it('a non-success status fails with the status and the start of the body', async () => {
    const e = failure((await call(make(weatherSpec, weatherConfig(), { secrets }), weatherSpec, { city: 'Atlantis' })).result);
    expect(e.reason).toBe('HTTP_ERROR');
    expect(e.message).toContain('404');
    expect(e.message).toContain('no city named Atlantis');
    expect(e.details).toMatchObject({ status: 404 });
    expect(e.retryable).toBe(false);
  });

  it('successCodes decides what succeeds', async () => {
    const s = spec('s', { code: { type: 'integer' } }, ['code'], {});
    const strict = make(s, { urlTemplate: `${api.origin}/status?code=\${code}`, successCodes: [200] });
    expect(failure((await call(strict, s, { code: 201 })).result).reason).toBe('HTTP_ERROR');
    const lenient = make(s, { urlTemplate: `${api.origin}/status?code=\${code}`, successCodes: [200, 404] });
    expect(value((await call(lenient, s, { code: 404 })).result)).toEqual({ error: 'status as asked' });
  });

  it('errorMode empty gives the empty value of the output type', async () => {
    const so = spec('e', { code: { type: 'integer' } }, ['code'], { type: 'object' });
    const tool = make(so, { urlTemplate: `${api.origin}/status?code=\${code}`, errorMode: 'empty', retry: { maxAttempts: 1 } });
    expect(value((await call(tool, so, { code: 500 })).result)).toEqual({});
    const ss = spec('e', {}, [], { type: 'string' });
    const notJson = make(ss, { urlTemplate: `${api.origin}/not-json`, errorMode: 'empty' });
    expect(value((await call(notJson, ss, {})).result)).toBe('');
    const noMatch = make(ss, { urlTemplate: `${api.origin}/text`, responseEncoding: 'text', extractExpr: '/nothing like this/', errorMode: 'empty' });
    expect(value((await call(noMatch, ss, {})).result)).toBe('');
    // but transport failures are never hidden
    const refused = make(ss, { urlTemplate: `${api.origin}/redirect?to=http%3A%2F%2Fevil.example%2F`, errorMode: 'empty' });
    expect(failure((await call(refused, ss, {})).result).reason).toBe('NET_HOST_NOT_ALLOWED');
  });

  it('unreadable JSON and extraction misses fail with their own codes', async () => {
    const s = spec('e', {}, [], {});
    expect(failure((await call(make(s, { urlTemplate: `${api.origin}/not-json` }), s, {})).result).reason).toBe('HTTP_INVALID_RESPONSE');
    expect(failure((await call(make(s, { urlTemplate: `${api.origin}/weather?q=x`, extractExpr: '$.nope.none' }), s, {})).result).reason).toBe(
      'HTTP_EXTRACT_NO_MATCH',
    );
  });

  it('retries a GET after 503 with Retry-After, then succeeds', async () => {
    const s = spec('f', {}, [], {});
    const tool = make(s, { urlTemplate: `${api.origin}/flaky?key=get&fails=2`, retry: { maxAttempts: 3 } });
    expect(value((await call(tool, s, {})).result)).toEqual({ attempt: 3 });
  });

  it('waits as long as Retry-After says', async () => {
    const s = spec('f', {}, [], {});
    const tool = make(s, { urlTemplate: `${api.origin}/flaky?key=wait&fails=1&status=429&after=1`, retry: { maxAttempts: 2, baseDelayMs: 0 } });
    const t0 = Date.now();
    expect(value((await call(tool, s, {})).result)).toEqual({ attempt: 2 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    const s = spec('f', {}, [], {});
    const tool = make(s, { urlTemplate: `${api.origin}/flaky?key=long&fails=5&status=429&after=3600`, retry: { maxAttempts: 3, maxRetryAfterMs: 1000 } });
    const e = failure((await call(tool, s, {})).result);
    expect(e).toMatchObject({ reason: 'HTTP_ERROR', retryable: true, details: { status: 429, retryAfterMs: 3_600_000 } });
  });

  it('does not retry a POST by default', async () => {
    const s = spec('f', {}, [], {});
    const tool = make(s, { method: 'POST', urlTemplate: `${api.origin}/flaky?key=post&fails=1`, bodyTemplate: '{}' });
    expect(failure((await call(tool, s, {})).result).reason).toBe('HTTP_ERROR');
    expect(flaky.get('post')).toBe(1);
    const allowed = make(s, { method: 'POST', urlTemplate: `${api.origin}/flaky?key=post2&fails=1`, bodyTemplate: '{}', retry: { methods: ['POST'] } });
    expect(value((await call(allowed, s, {})).result)).toEqual({ attempt: 2 });
  });

  it('times out each attempt', async () => {
    const s = spec('slow', {}, [], {});
    const tool = make(s, { urlTemplate: `${api.origin}/slow`, timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 0 } });
    const e = failure((await call(tool, s, {})).result);
    expect(e).toMatchObject({ reason: 'NET_TIMEOUT', retryable: true });
    expect(e.message).toContain('after 2 attempts');
  });

  it('refuses redirects to hosts not allowed', async () => {
    const s = spec('r', { to: text }, ['to'], {});
    const tool = make(s, { urlTemplate: `${api.origin}/redirect?to=\${to}` });
    expect(failure((await call(tool, s, { to: 'http://evil.example/x' })).result).reason).toBe('NET_HOST_NOT_ALLOWED');
    expect(failure((await call(tool, s, { to: 'http://169.254.169.254/latest' })).result).reason).toBe('NET_PRIVATE_ADDRESS');
    expect(value((await call(tool, s, { to: '/echo' })).result)).toMatchObject({ url: '/echo' });
  });

  it('refuses oversized responses', async () => {
    const s = spec('big', {}, [], {});
    const tool = make(s, { urlTemplate: `${api.origin}/big`, responseEncoding: 'text', maxResponseBytes: 1024 * 1024 });
    expect(failure((await call(tool, s, {})).result).reason).toBe('NET_RESPONSE_TOO_LARGE');
  });
});

describe('httpTool: arguments cannot change the request shape', () => {
  const userSpec = spec('user', { id: text }, ['id'], {});
  const userTool = () => make(userSpec, { urlTemplate: `${api.origin}/users/\${id}/profile` });
  const urlOf = async (id: string) => (value((await call(userTool(), userSpec, { id })).result) as { url: string }).url;

  it('path traversal stays inside one segment or is refused', async () => {
    expect(await urlOf('../admin')).toBe('/users/..%2Fadmin/profile');
    expect(await urlOf('..\\..\\etc')).toBe('/users/..%5C..%5Cetc/profile');
    expect(await urlOf('%2e%2e')).toBe('/users/%252e%252e/profile');
    for (const id of ['..', '.', '']) {
      const e = failure((await call(userTool(), userSpec, { id })).result);
      expect(e.reason).toBe('TOOL_INVALID_ARGUMENTS');
      expect(e.message).toContain('"id"');
    }
  });

  it('"?", "#" and "&" in a path value are encoded', async () => {
    expect(await urlOf('a?admin=1#x&y')).toBe('/users/a%3Fadmin%3D1%23x%26y/profile');
  });

  it('law: any non-dot path value arrives as exactly one segment', async () => {
    const before = api.requests.length;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }).filter((s) => s !== '.' && s !== '..'),
        async (id) => {
          const url = await urlOf(id);
          const segments = url.split('/');
          expect(segments).toHaveLength(4);
          expect(segments[3]).toBe('profile');
          expect(decodeURIComponent(segments[2]!)).toBe(id);
        },
      ),
      { numRuns: 60 },
    );
    expect(api.requests.length).toBeGreaterThan(before);
  });

  it('law: a query value arrives as exactly that parameter', async () => {
    const s = spec('q', { q: text }, ['q'], {});
    const tool = make(s, { urlTemplate: `${api.origin}/echo?q=\${q}&fixed=yes` });
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30, unit: 'grapheme' }), async (q) => {
        const url = (value((await call(tool, s, { q })).result) as { url: string }).url;
        const params = new URL(url, 'http://x').searchParams;
        expect([...params.keys()]).toEqual(['q', 'fixed']);
        expect(params.get('q')).toBe(q);
        expect(params.get('fixed')).toBe('yes');
      }),
      { numRuns: 60 },
    );
  });

  it('CR/LF in a header value is refused before anything is sent', async () => {
    const s = spec('h', { lang: text }, ['lang'], {});
    const tool = make(s, { urlTemplate: `${api.origin}/echo`, headers: { 'Accept-Language': '${lang}' } });
    const before = api.requests.length;
    const e = failure((await call(tool, s, { lang: 'en\r\nX-Injected: 1' })).result);
    expect(e.reason).toBe('TOOL_INVALID_ARGUMENTS');
    expect(api.requests.length).toBe(before);
    const echoed = value((await call(tool, s, { lang: 'fr-CH, fr;q=0.9' })).result) as { headers: Record<string, string> };
    expect(echoed.headers['accept-language']).toBe('fr-CH, fr;q=0.9');
  });

  it('law: a value in a JSON string can never close it', async () => {
    const s = spec('j', { name: text, note: text }, ['name', 'note'], {});
    const tool = make(s, {
      method: 'POST',
      urlTemplate: `${api.origin}/echo`,
      bodyTemplate: '{"name": "${name}", "role": "user", "note": "prefix ${note} suffix"}',
    });
    const attacks = fc.constantFrom('", "role": "admin', '\\", "role": "admin", "x": "', '"}', '\u2028\u0000\n', '${name}');
    await fc.assert(
      fc.asyncProperty(fc.oneof(attacks, fc.string({ maxLength: 20, unit: 'grapheme' })), fc.string({ maxLength: 20, unit: 'binary' }), async (name, note) => {
        const echoed = value((await call(tool, s, { name, note })).result) as { body: string };
        const sent = JSON.parse(echoed.body);
        expect(Object.keys(sent)).toEqual(['name', 'role', 'note']);
        expect(sent.role).toBe('user');
        expect(sent.name).toBe(name);
        expect(sent.note).toBe(`prefix ${note} suffix`);
      }),
      { numRuns: 60 },
    );
  });

  it('a host placeholder takes only host names', async () => {
    const s = spec('h', { sub: text }, ['sub'], {});
    const tool = make(s, { urlTemplate: `http://\${sub}.example.test/x`, allowedHosts: ['*.example.test'] });
    const e = failure((await call(tool, s, { sub: 'evil.com/' })).result);
    expect(e.reason).toBe('TOOL_INVALID_ARGUMENTS');
    const e2 = failure((await call(tool, s, { sub: 'a@127.0.0.1' })).result);
    expect(e2.reason).toBe('TOOL_INVALID_ARGUMENTS');
  });
});

describe('httpTool: secrets never leave the tool', () => {
  const SECRET = 'sk-TOP-s3cr3t/+=value';
  const provider = (name: string) => (name === 'API_KEY' ? SECRET : undefined);
  const s = spec('reflect', { status: { type: 'integer' }, to: text }, [], {});

  const everything = (result: ToolResult, events: InvocationEvent[]): string => JSON.stringify({ result, events });
  const forms = [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), new URLSearchParams([['', SECRET]]).toString().slice(1)];

  it('are sent, but redacted from results, errors and events', async () => {
    const tool = make(
      s,
      { urlTemplate: `${api.origin}/reflect?key=\${API_KEY}&status=\${status}`, headers: { Authorization: 'Bearer ${API_KEY}' }, retry: { maxAttempts: 1 } },
      { secrets: provider },
    );
    const before = api.requests.length;
    const ok = await call(tool, s, { status: 200 });
    // the secret really was sent
    expect(api.requests[before]!.headers['authorization']).toBe(`Bearer ${SECRET}`);
    expect(new URL(api.requests[before]!.url, 'http://x').searchParams.get('key')).toBe(SECRET);
    expect(value(ok.result)).toMatchObject({ youSent: '[REDACTED]', auth: 'Bearer [REDACTED]' });

    const failed = await call(tool, s, { status: 500 });
    expect(failure(failed.result).reason).toBe('HTTP_ERROR');
    for (const { result, events } of [ok, failed]) {
      const all = everything(result, events);
      for (const f of forms) expect(all).not.toContain(f);
      expect(events.length).toBeGreaterThan(0);
    }
  });

  it('are redacted from redirect and transport errors (URLs carry them)', async () => {
    // the server redirects to a URL holding the key (the template puts it in the redirect target)
    const redirecting = make(s, { urlTemplate: `${api.origin}/redirect?to=http%3A%2F%2Fevil.example%2Fcollect%3Fk%3D\${API_KEY}` }, { secrets: provider });
    const r1 = await call(redirecting, s, {});
    expect(failure(r1.result).reason).toBe('NET_HOST_NOT_ALLOWED');
    expect(JSON.stringify(failure(r1.result).details)).toContain('evil.example/collect?k=[REDACTED]');
    const slow = make(s, { urlTemplate: `${api.origin}/slow?key=\${API_KEY}`, timeoutMs: 100, retry: { maxAttempts: 1 } }, { secrets: provider });
    const r2 = await call(slow, s, {});
    expect(failure(r2.result).reason).toBe('NET_TIMEOUT');
    for (const { result, events } of [r1, r2]) {
      const all = everything(result, events);
      for (const f of forms) expect(all).not.toContain(f);
    }
  });

  it('headers carrying a secret are dropped when a redirect leaves the origin', async () => {
    const other = await startServer((req, res) => json(res, 200, { headers: req.headers }));
    try {
      const tool = make(
        s,
        { urlTemplate: `${api.origin}/redirect?to=\${to}`, headers: { 'X-Api-Key': '${API_KEY}' }, allowedHosts: [`127.0.0.1`] },
        { secrets: provider },
      );
      const got = value((await call(tool, s, { to: `${other.origin}/` })).result) as { headers: Record<string, string> };
      expect(got.headers['x-api-key']).toBeUndefined();
      expect(other.requests[0]!.headers['x-api-key']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('a rotated secret is sent and redacted from the next call on', async () => {
    let current = 'first-s3cret-value';
    const tool = make(s, { urlTemplate: `${api.origin}/reflect?key=\${API_KEY}` }, { secrets: (n) => (n === 'API_KEY' ? current : undefined) });
    expect(value((await call(tool, s, {})).result)).toMatchObject({ youSent: '[REDACTED]' });
    current = 'second-s3cret-value';
    const { result, events } = await call(tool, s, {});
    expect(value(result)).toMatchObject({ youSent: '[REDACTED]' });
    expect(JSON.stringify({ result, events })).not.toContain('second-s3cret');
  });

  it('a secret that disappears fails the call without a request', async () => {
    let available = true;
    const tool = make(s, { urlTemplate: `${api.origin}/reflect?key=\${API_KEY}` }, { secrets: (n) => (available && n === 'API_KEY' ? SECRET : undefined) });
    available = false;
    const before = api.requests.length;
    expect(failure((await call(tool, s, {})).result).reason).toBe('HTTP_SECRET_MISSING');
    expect(api.requests.length).toBe(before);
  });
});

describe('HTTP tool configuration', () => {
  it('decodes a complete configuration (the weather example) with every default filled in (golden)', () => {
    const weather = JSON.parse(readFileSync(new URL('../fixtures/tools/http-config-weather.json', import.meta.url), 'utf8'));
    const decoded = decodeHttpToolConfig(weather);
    expect(decoded._tag).toBe('Right');
    if (decoded._tag === 'Right') expectGolden('tools/golden/http-config-weather.decoded.json', decoded.right);
  });

  it('reports every problem at once, with codes', () => {
    const d = decodeHttpToolConfig({
      method: 'FETCH',
      urlTemplate: 'ftp://files.example.com/${path}',
      headers: { 'Bad Header': 'x' },
      bodyTemplate: '{"a": ${a}',
      extractExpr: 'current.temp',
      timeoutMs: -5,
      successCodes: [200, 999],
      urlTemplte: 'typo',
    });
    expect(d._tag).toBe('Left');
    const codes = d._tag === 'Left' ? d.left.map((x) => x.code).sort() : [];
    expect(codes).toEqual(
      [
        'HTTP_CONFIG_UNKNOWN_KEY',
        'HTTP_CONFIG_METHOD',
        'HTTP_URL_SCHEME',
        'HTTP_HEADER_NAME',
        'HTTP_BODY_TEMPLATE_INVALID',
        'HTTP_CONFIG_VALUE',
        'HTTP_CONFIG_VALUE',
        'HTTP_EXTRACT_INVALID',
      ].sort(),
    );
    const typo = d._tag === 'Left' ? d.left.find((x) => x.code === 'HTTP_CONFIG_UNKNOWN_KEY') : undefined;
    expect(typo?.hint).toContain('urlTemplate');
  });

  it('reports wrong types with their paths', () => {
    const d = decodeHttpToolConfig({ urlTemplate: 42, headers: { a: 1 }, errorMode: 'ignore', retry: { maxAttempts: 'three' } });
    const messages = d._tag === 'Left' ? d.left.map((x) => x.message) : [];
    expect(messages.some((m) => m.startsWith('http.urlTemplate: expected a string, got number 42'))).toBe(true);
    expect(messages.some((m) => m.startsWith('http.headers.a:'))).toBe(true);
    expect(messages.some((m) => m.startsWith('http.errorMode:') && m.includes('"ignore"'))).toBe(true);
    expect(messages.some((m) => m.startsWith('http.retry.maxAttempts:'))).toBe(true);
  });

  it('checks hosts, bodies and extraction against each other', () => {
    const codes = (c: unknown) => {
      const d = decodeHttpToolConfig(c);
      return d._tag === 'Left' ? d.left.map((x) => x.code) : [];
    };
    expect(codes({ urlTemplate: 'https://${region}.api.example.com/v1' })).toEqual(['HTTP_ALLOWED_HOSTS_REQUIRED']);
    expect(codes({ urlTemplate: 'https://api.example.com/v1', allowedHosts: ['other.example.com'] })).toEqual(['HTTP_HOST_NOT_ALLOWED']);
    expect(codes({ urlTemplate: 'https://api.example.com/v1', bodyTemplate: '{}' })).toEqual(['HTTP_BODY_NOT_ALLOWED']);
    expect(codes({ urlTemplate: 'https://api.example.com/v1', responseEncoding: 'text', extractExpr: '$.a' })).toEqual(['HTTP_EXTRACT_NEEDS_JSON']);
    expect(codes({ urlTemplate: 'https://user:pw@api.example.com/v1' })).toEqual(['HTTP_URL_CREDENTIALS']);
    expect(codes({ urlTemplate: 'https://api.example.com/${a b}' })).toEqual(['HTTP_TEMPLATE_SYNTAX']);
    expect(codes({ urlTemplate: 'https://api.example.com/${unclosed' })).toEqual(['HTTP_TEMPLATE_SYNTAX']);
    expect(codes({ urlTemplate: 'https://api.example.com/x', extractExpr: '$.items[' })).toEqual(['HTTP_EXTRACT_INVALID']);
    expect(codes({ urlTemplate: 'https://api.example.com/x', extractExpr: '/(unclosed/' })).toEqual(['HTTP_EXTRACT_INVALID']);
    expect(codes({ urlTemplate: 'https://api.example.com/x', allowedHosts: ['bad host'] })).toEqual(['NET_HOST_PATTERN_INVALID']);
    expect(codes('https://api.example.com')).toEqual(['HTTP_CONFIG_TYPE']);
  });

  it('placeholders must name a parameter or a secret, not both', () => {
    const s = spec('p', { city: text, API_KEY: text }, ['city'], {});
    const r = httpTool(
      s,
      { urlTemplate: 'https://api.example.com/${city}?k=${API_KEY}&x=${nothing}&y=${KNOWN}' },
      { secrets: (n) => (n === 'API_KEY' || n === 'KNOWN' ? 'v' : undefined) },
    );
    expect(r._tag === 'Left' && r.left.map((d) => d.code).sort()).toEqual(['HTTP_AMBIGUOUS_PLACEHOLDER', 'HTTP_UNKNOWN_PLACEHOLDER']);
  });

  it('reports placeholder problems together with configuration problems', () => {
    const s = spec('p', { city: text }, ['city'], {});
    const r = httpTool(s, { urlTemplate: 'https://api.example.com/${city}/${ghost}', timeoutMs: 0, errorMode: 'loud' as 'fail' });
    expect(r._tag === 'Left' && r.left.map((d) => d.code).sort()).toEqual(['HTTP_CONFIG_TYPE', 'HTTP_UNKNOWN_PLACEHOLDER']);
  });
});
