import fc from 'fast-check';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkHost, isPrivateAddress, parseAllowedHosts, safeFetch, type FetchError, type FetchResponse } from '../../src/entries/tools.js';
import { json, startServer, stream, type TestServer } from './server-support.js';

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    switch (u.pathname) {
      case '/echo':
        return json(res, 200, { method: req.method, url: req.url, headers: req.headers, body: req.body });
      case '/redirect':
        res.writeHead(Number(u.searchParams.get('status') ?? 302), { location: u.searchParams.get('to') ?? '/echo' });
        return res.end('moved');
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/big-declared':
        res.writeHead(200, { 'content-length': String(10_000_000) });
        return res.end(); // never sends it: the declared length is enough to refuse
      case '/stream':
        return stream(res, Number(u.searchParams.get('bytes')));
      case '/slow-headers':
        return void setTimeout(() => json(res, 200, { late: true }), 3000);
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('start ');
        return void setTimeout(() => res.end('end'), 3000);
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        return res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in latin-1
      default:
        return json(res, 404, { error: 'not found' });
    }
  });
  b = await startServer((req, res) => json(res, 200, { server: 'b', headers: req.headers }));
});
afterAll(async () => {
  await a.close();
  await b.close();
});

const opts = () => ({ allowedHosts: ['127.0.0.1'], maxBytes: 1_000_000, timeoutMs: 5000 });
const ok = (r: { ok: false; error: FetchError } | { ok: true; value: FetchResponse }): FetchResponse => {
  if (!r.ok) throw new Error(`expected a response, got ${r.error.code}: ${r.error.message}`);
  return r.value;
};
const err = (r: { ok: false; error: FetchError } | { ok: true; value: FetchResponse }): FetchError => {
  if (r.ok) throw new Error(`expected a failure, got status ${r.value.status}`);
  return r.error;
};

describe('safeFetch: requests', () => {
  it('sends method, headers and body and returns status, headers, bytes and text', async () => {
    const r = ok(
      await safeFetch(`${a.origin}/echo?q=1`, { ...opts(), method: 'post', headers: { 'X-Test': 'yes', 'content-type': 'text/plain' }, body: 'hello' }),
    );
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    const echoed = JSON.parse(r.text);
    expect(echoed).toMatchObject({ method: 'POST', url: '/echo?q=1', body: 'hello' });
    expect(echoed.headers['x-test']).toBe('yes');
    expect(new TextDecoder().decode(r.body)).toBe(r.text);
    expect(r.url).toBe(`${a.origin}/echo?q=1`);
    expect(r.redirects).toEqual([]);
  });

  it('decodes text with the charset of content-type', async () => {
    expect(ok(await safeFetch(`${a.origin}/latin1`, opts())).text).toBe('café');
  });

  it('returns non-2xx responses as responses (the caller decides what succeeds)', async () => {
    expect(ok(await safeFetch(`${a.origin}/missing`, opts())).status).toBe(404);
  });

  it('refuses header values with line breaks before sending anything', async () => {
    const before = a.requests.length;
    const e = err(await safeFetch(`${a.origin}/echo`, { ...opts(), headers: { 'X-Evil': 'a\r\nX-Injected: 1' } }));
    expect(e.reason).toBe('NET_INVALID_REQUEST');
    expect(a.requests.length).toBe(before);
  });

  it('refuses schemes other than http and https, and credentials in URLs', async () => {
    expect(err(await safeFetch('file:///etc/passwd', { ...opts(), allowedHosts: ['*'] })).reason).toBe('NET_UNSUPPORTED_SCHEME');
    expect(err(await safeFetch('ftp://127.0.0.1/x', opts())).reason).toBe('NET_UNSUPPORTED_SCHEME');
    expect(err(await safeFetch(`http://user:pw@127.0.0.1:${a.port}/echo`, opts())).reason).toBe('NET_INVALID_URL');
    expect(err(await safeFetch('not a url', opts())).reason).toBe('NET_INVALID_URL');
  });

  it('reports malformed allowlists', async () => {
    const e = err(await safeFetch(`${a.origin}/echo`, { ...opts(), allowedHosts: ['ok.example', 'bad/host'] }));
    expect(e.reason).toBe('NET_INVALID_REQUEST');
    expect(e.message).toContain('bad/host');
  });

  it('a refused connection is a retryable network error', async () => {
    const closed = await startServer(() => undefined);
    await closed.close();
    const e = err(await safeFetch(`${closed.origin}/`, opts()));
    expect(e).toMatchObject({ reason: 'NET_NETWORK_ERROR', retryable: true });
  });
});

describe('safeFetch: hosts and private addresses', () => {
  it('refuses hosts not in the list before connecting', async () => {
    const e = err(await safeFetch(`${a.origin}/echo`, { ...opts(), allowedHosts: ['api.example.com'] }));
    expect(e.reason).toBe('NET_PRIVATE_ADDRESS'); // 127.0.0.1 is private and not listed
    const e2 = err(await safeFetch('http://api.other.test/x', { ...opts(), allowedHosts: ['api.example.com'] }));
    expect(e2.reason).toBe('NET_HOST_NOT_ALLOWED');
  });

  it('"*" does not allow private addresses; listing the IP does', async () => {
    expect(err(await safeFetch(`${a.origin}/echo`, { ...opts(), allowedHosts: ['*'] })).reason).toBe('NET_PRIVATE_ADDRESS');
    expect(ok(await safeFetch(`${a.origin}/echo`, { ...opts(), allowedHosts: [`127.0.0.1:${a.port}`] })).status).toBe(200);
    expect(ok(await safeFetch(`${a.origin}/echo`, { ...opts(), allowedHosts: ['*'], allowPrivateAddresses: true })).status).toBe(200);
  });

  it('a listed port restricts the port', async () => {
    expect(err(await safeFetch(`${b.origin}/`, { ...opts(), allowedHosts: [`127.0.0.1:${a.port}`] })).reason).toBe('NET_PRIVATE_ADDRESS');
  });

  it('other spellings of a private address are recognized (decimal, hex, IPv4-mapped IPv6)', async () => {
    for (const host of ['2130706433', '0x7f.0.0.1', '127.1', '[::ffff:127.0.0.1]']) {
      const e = err(await safeFetch(`http://${host}:${a.port}/echo`, { ...opts(), allowedHosts: ['*'] }));
      expect(e.reason).toBe('NET_PRIVATE_ADDRESS');
    }
    // the same spellings reach the server when 127.0.0.1 is listed
    expect(ok(await safeFetch(`http://2130706433:${a.port}/echo`, opts())).status).toBe(200);
  });

  it('a listed name that resolves to a private address is refused at connect time', async () => {
    const e = err(await safeFetch(`http://localhost:${a.port}/echo`, { ...opts(), allowedHosts: ['localhost'] }));
    expect(e.reason).toBe('NET_PRIVATE_ADDRESS');
    expect(e.message).toContain('localhost');
    expect(ok(await safeFetch(`http://localhost:${a.port}/echo`, { ...opts(), allowedHosts: ['localhost'], allowPrivateAddresses: true })).status).toBe(200);
  });
});

describe('safeFetch: redirects', () => {
  it('follows redirects within the allowlist and reports them', async () => {
    const r = ok(await safeFetch(`${a.origin}/redirect?to=/echo%3Fafter=1`, opts()));
    expect(JSON.parse(r.text).url).toBe('/echo?after=1');
    expect(r.redirects).toEqual([`${a.origin}/echo?after=1`]);
    expect(r.url).toBe(`${a.origin}/echo?after=1`);
  });

  it('checks every redirect against the allowlist', async () => {
    const toEvil = encodeURIComponent('http://evil.example/steal');
    const e = err(await safeFetch(`${a.origin}/redirect?to=${toEvil}`, opts()));
    expect(e.reason).toBe('NET_HOST_NOT_ALLOWED');
    expect(e.message).toContain('evil.example');
    // a redirect to a private address the list does not name
    const toB = encodeURIComponent(`${b.origin}/`);
    expect(err(await safeFetch(`${a.origin}/redirect?to=${toB}`, { ...opts(), allowedHosts: [`127.0.0.1:${a.port}`] })).reason).toBe('NET_PRIVATE_ADDRESS');
    // and to metadata endpoints
    const toMeta = encodeURIComponent('http://169.254.169.254/latest/meta-data/');
    expect(err(await safeFetch(`${a.origin}/redirect?to=${toMeta}`, { ...opts(), allowedHosts: ['127.0.0.1', '*'] })).reason).toBe('NET_PRIVATE_ADDRESS');
  });

  it('refuses redirects to other schemes', async () => {
    const e = err(await safeFetch(`${a.origin}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, opts()));
    expect(e.reason).toBe('NET_UNSUPPORTED_SCHEME');
  });

  it('stops redirect loops', async () => {
    const e = err(await safeFetch(`${a.origin}/loop`, { ...opts(), maxRedirects: 3 }));
    expect(e.reason).toBe('NET_TOO_MANY_REDIRECTS');
  });

  it('maxRedirects 0 returns the redirect itself', async () => {
    const r = ok(await safeFetch(`${a.origin}/redirect?to=/echo`, { ...opts(), maxRedirects: 0 }));
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('/echo');
  });

  it('303 turns a POST into a GET without body; 307 keeps both', async () => {
    const r303 = JSON.parse(
      ok(await safeFetch(`${a.origin}/redirect?status=303&to=/echo`, { ...opts(), method: 'POST', body: 'data', headers: { 'content-type': 'text/plain' } }))
        .text,
    );
    expect(r303).toMatchObject({ method: 'GET', body: '' });
    expect(r303.headers['content-type']).toBeUndefined();
    const r307 = JSON.parse(ok(await safeFetch(`${a.origin}/redirect?status=307&to=/echo`, { ...opts(), method: 'POST', body: 'data' })).text);
    expect(r307).toMatchObject({ method: 'POST', body: 'data' });
  });

  it('drops credentials and sensitive headers when a redirect leaves the origin', async () => {
    const to = encodeURIComponent(`${b.origin}/`);
    const headers = { authorization: 'Bearer s3cret', 'X-Api-Key': 'k3y', 'X-Plain': 'kept' };
    const r = JSON.parse(ok(await safeFetch(`${a.origin}/redirect?to=${to}`, { ...opts(), headers, sensitiveHeaders: ['x-api-key'] })).text);
    expect(r.server).toBe('b');
    expect(r.headers.authorization).toBeUndefined();
    expect(r.headers['x-api-key']).toBeUndefined();
    expect(r.headers['x-plain']).toBe('kept');
    // within the origin they are kept
    const same = JSON.parse(ok(await safeFetch(`${a.origin}/redirect?to=/echo`, { ...opts(), headers })).text);
    expect(same.headers.authorization).toBe('Bearer s3cret');
  });

  it('refuses a redirect from https to http (through a mock dispatcher)', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get('https://secure.example')
      .intercept({ path: '/start' })
      .reply(302, '', { headers: { location: 'http://secure.example/plain' } });
    const e = err(await safeFetch('https://secure.example/start', { ...opts(), allowedHosts: ['secure.example'], dispatcher: mock }));
    expect(e.reason).toBe('NET_INSECURE_REDIRECT');
    await mock.close();
  });
});

describe('safeFetch: size, time, cancellation', () => {
  it('refuses a declared length above the cap without reading it', async () => {
    const e = err(await safeFetch(`${a.origin}/big-declared`, { ...opts(), maxBytes: 1000 }));
    expect(e).toMatchObject({ reason: 'NET_RESPONSE_TOO_LARGE', retryable: false });
  });

  it('stops reading a streamed body at the cap', async () => {
    const e = err(await safeFetch(`${a.origin}/stream?bytes=${1024 ** 3}`, { ...opts(), maxBytes: 256 * 1024 }));
    expect(e.reason).toBe('NET_RESPONSE_TOO_LARGE');
  });

  it('law: a body of n bytes passes a cap c exactly when n <= c', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 300_000 }), fc.integer({ min: 0, max: 300_000 }), async (n, c) => {
        const r = await safeFetch(`${a.origin}/stream?bytes=${n}`, { ...opts(), maxBytes: c });
        if (n <= c) expect(r.ok && r.value.body.length).toBe(n);
        else expect(!r.ok && r.error.reason).toBe('NET_RESPONSE_TOO_LARGE');
      }),
      { numRuns: 20 },
    );
  });

  it('times out waiting for headers and waiting for the body', async () => {
    expect(err(await safeFetch(`${a.origin}/slow-headers`, { ...opts(), timeoutMs: 200 }))).toMatchObject({ reason: 'NET_TIMEOUT', retryable: true });
    expect(err(await safeFetch(`${a.origin}/slow-body`, { ...opts(), timeoutMs: 200 }))).toMatchObject({ reason: 'NET_TIMEOUT', retryable: true });
  });

  it('is cancelled by its signal', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(err(await safeFetch(`${a.origin}/slow-headers`, { ...opts(), signal: controller.signal })).reason).toBe('NET_CANCELLED');
    expect(err(await safeFetch(`${a.origin}/echo`, { ...opts(), signal: AbortSignal.abort() })).reason).toBe('NET_CANCELLED');
  });
});

describe('host allowlist', () => {
  const allow = (entries: string[]) => {
    const p = parseAllowedHosts(entries);
    if (p._tag === 'Left') throw new Error(p.left.map((d) => d.message).join());
    return p.right;
  };

  it('reports every malformed entry at once', () => {
    const p = parseAllowedHosts(['good.example', 'bad/one', 'user@two', '*.', 'a.*.b', 'host:99999']);
    expect(p._tag === 'Left' && p.left.map((d) => d.code)).toEqual(Array(5).fill('NET_HOST_PATTERN_INVALID'));
  });

  it('matches exact hosts, subdomain wildcards and ports after normalization', () => {
    const list = allow(['api.example.com', '*.example.org', 'example.net:8443']);
    const decide = (u: string) => checkHost(new URL(u), list, false).allowed;
    expect(decide('https://API.Example.com./v1')).toBe(true);
    expect(decide('https://other.example.com/')).toBe(false);
    expect(decide('https://a.b.example.org/')).toBe(true);
    expect(decide('https://example.org/')).toBe(false);
    expect(decide('https://evilexample.org/')).toBe(false);
    expect(decide('https://example.net:8443/')).toBe(true);
    expect(decide('https://example.net/')).toBe(false);
  });

  // A label with hyphens in its third and fourth places is reserved (RFC 5891 §4.2.3.1: "xn--" starts an
  // A-label whose rest must be valid Punycode), and the allowlist rightly refuses malformed ones; keep them out.
  const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/).filter((l) => l.slice(2, 4) !== '--');
  const tld = fc.stringMatching(/^[a-z]{2,6}$/);
  const domain = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), tld).map(([ls, t]) => [...ls, t].join('.'));

  it('law: a subdomain pattern matches exactly the names ending in ".suffix"', () => {
    fc.assert(
      fc.property(domain, domain, label, fc.boolean(), (other, suffix, sub, related) => {
        const host = related ? `${sub}.${suffix}` : other;
        const decision = checkHost(new URL(`https://${host}/`), allow([`*.${suffix}`]), false).allowed;
        expect(decision).toBe(host.endsWith(`.${suffix}`));
      }),
    );
  });

  it('law: the IPv6 ranges that embed an IPv4 address (::/96, ::ffff:0:0/96, ::ffff:0:0:0/96) are private whatever it is', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isPrivateAddress(`::ffff:${ip}`)).toBe(true);
        expect(isPrivateAddress(`::${ip}`)).toBe(true);
        expect(isPrivateAddress(`::ffff:0:${ip}`)).toBe(true);
      }),
    );
  });

  it('classifies private and public addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '224.0.0.1',
      'not-an-ip',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '93.184.216.34']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});
