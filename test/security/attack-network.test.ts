/**
 * Attack corpus: the network's weak spots (issue 13, weak items): a 307/308 redirect re-sending a
 * body that holds a secret to another allowed origin; a private-IP template without a port that
 * allowed every port of the host after a redirect; IPv6 ranges embedding IPv4 addresses not
 * classed as private.
 */
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindTool, invoke, toolLibrary, type JsonObject, type ToolSpecification } from '../../src/index.js';
import { NetCodes, httpTool, isPrivateAddress, type HttpToolConfigInput, type HttpToolOptions } from '../../src/entries/tools.js';
import { json, startServer, type TestServer } from '../tools/server-support.js';

const spec: ToolSpecification = {
  name: 'post',
  description: 'posts',
  typeSignature: '',
  schema: { type: 'object', properties: { to: { type: 'string' } }, additionalProperties: false } as JsonObject,
  outputSchema: {},
};
const SECRET = 'pw-9f8e7d6c5b4a3210';

const bound = (config: HttpToolConfigInput, options: HttpToolOptions = {}) => {
  const t = httpTool(spec, config, { secrets: (n) => (n === 'PASSWORD' ? SECRET : undefined), ...options });
  if (t._tag === 'Left') throw new Error(JSON.stringify(t.left));
  const b = bindTool(spec, toolLibrary([t.right]));
  if (b._tag === 'Left') throw new Error(JSON.stringify(b.left));
  return b.right;
};

let a: TestServer;
let b: TestServer;
beforeAll(async () => {
  a = await startServer((req, res) => {
    const to = new URL(req.url, 'http://x').searchParams.get('to') ?? '/';
    res.writeHead(Number(new URL(req.url, 'http://x').searchParams.get('status') ?? '307'), { location: to });
    res.end();
  });
  b = await startServer((req, res) => json(res, 200, { got: req.body }));
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('attack: redirects', () => {
  it.each([307, 308])('a %i to another allowed origin does not re-send a body holding a secret', async (status) => {
    const before = b.requests.length;
    const tool = bound({
      method: 'POST',
      urlTemplate: `${a.origin}/login?status=${status}&to=\${to}`,
      bodyTemplate: '{"password": "${PASSWORD}"}',
      allowedHosts: ['127.0.0.1'],
      retry: { maxAttempts: 1 },
    });
    const r = await invoke(tool, { to: `${b.origin}/collect` });
    expect(r).toMatchObject({ ok: false, error: { reason: NetCodes.REDIRECT_REFUSED } });
    expect(b.requests.length).toBe(before);
  });

  it('a body without a secret still follows a 307 (to an allowed origin)', async () => {
    const tool = bound({
      method: 'POST',
      urlTemplate: `${a.origin}/form?to=\${to}`,
      bodyTemplate: '{"to": "${to}"}',
      allowedHosts: ['127.0.0.1'],
      retry: { maxAttempts: 1 },
    });
    const r = await invoke(tool, { to: `${b.origin}/collect` });
    expect(r.ok).toBe(true);
  });

  it('a private-IP template without a port reaches that port only, even after a redirect', async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get('http://127.0.0.1')
      .intercept({ path: '/start' })
      .reply(302, '', { headers: { location: 'http://127.0.0.1:6379/' } })
      .persist();
    mock.get('http://127.0.0.1:6379').intercept({ path: '/' }).reply(200, '"redis"').persist();
    const tool = bound({ urlTemplate: 'http://127.0.0.1/start', allowPrivateAddresses: false, retry: { maxAttempts: 1 } }, { dispatcher: mock });
    const r = await invoke(tool, {});
    expect(r).toMatchObject({ ok: false, error: { reason: NetCodes.PRIVATE_ADDRESS, details: { url: 'http://127.0.0.1:6379/' } } });
    await mock.close();
  });
});

describe('attack: IPv6 ranges that embed IPv4 addresses', () => {
  it.each(['::127.0.0.1', '::7f00:1', '::ffff:0:7f00:1', '::ffff:0:10.0.0.1', '::ffff:169.254.169.254', '::ffff:8.8.8.8', '::8.8.8.8', '[::ffff:0:a00:1]'])(
    '%s is private',
    (ip) => {
      expect(isPrivateAddress(ip)).toBe(true);
    },
  );
  it('public IPv6 addresses stay public', () => {
    for (const ip of ['2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});
