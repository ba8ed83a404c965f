/**
 * Attack corpus: secrets cut before they are redacted (issue 13, item 3). A model that chooses the
 * padding before a secret could make an excerpt (the HTTP error body, a URL in an error, the JSON
 * parser's snippet) end inside the secret, leaving all but one character of it for the redactor,
 * which looked for the whole secret. Now text is redacted before any cut, and any run of
 * `MIN_SECRET_FRAGMENT` characters of a secret counts as the secret.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindTool, createAgentSpecification, invoke, runAgent, toolLibrary, type JsonObject, type Tool, type ToolSpecification } from '../../src/index.js';
import { httpTool, MIN_SECRET_FRAGMENT, REDACTED, safeFetch } from '../../src/entries/tools.js';
import { scriptedModel } from '../../src/entries/testing.js';
import { redactor, redactThenCut } from '../../src/core/redact.js';
import { startServer, type TestServer } from '../tools/server-support.js';

const K = MIN_SECRET_FRAGMENT;
const KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const secretArb = fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: K, maxLength: 64 });
const padArb = fc.string({ unit: fc.constantFrom(...'xyz .,:;"{}[]-_=/'), maxLength: 400 });

/** The first run of at least K characters of `secret` found in `text`, if any. */
const fragmentIn = (text: string, secret: string): string | undefined => {
  for (let i = 0; i + K <= secret.length; i++) if (text.includes(secret.slice(i, i + K))) return secret.slice(i, i + K);
  return undefined;
};

describe('attack: secrets cut before they are redacted (the redactor)', () => {
  it('law: for any secret and padding, a text redacted then cut anywhere holds no fragment of ≥ K characters of it', () => {
    fc.assert(
      fc.property(secretArb, padArb, padArb, fc.integer({ min: 0, max: 500 }), (secret, before, after, max) => {
        const red = redactor([secret]);
        expect(fragmentIn(redactThenCut(`${before}${secret}${after}`, max, red.text), secret)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('law: any fragment of ≥ K characters of a secret (a server echoing part of a key) is redacted as the secret', () => {
    fc.assert(
      fc.property(secretArb, padArb, padArb, fc.nat(), fc.nat(), (secret, before, after, a, b) => {
        const from = a % (secret.length - K + 1);
        const to = from + K + (b % (secret.length - from - K + 1));
        const out = redactor([secret]).text(`${before}${secret.slice(from, to)}${after}`);
        expect(fragmentIn(out, secret)).toBeUndefined();
        expect(out).toContain(REDACTED);
      }),
      { numRuns: 300 },
    );
  });

  it('deep values: nothing deeper than the redactor reads leaves unredacted', () => {
    let v: unknown = 'the key is sk-0123456789abcdef';
    for (let i = 0; i < 400; i++) v = { v };
    expect(JSON.stringify(redactor(['sk-0123456789abcdef']).value(v))).not.toContain('0123456789');
  });
});

// -------------------------------------------------------------------------------------------------
// end to end: the HTTP tool, safeFetch, and the next model request
// -------------------------------------------------------------------------------------------------

const SECRET = 'sk-live-Zq8vN3pR7tW2yB5mK9dF4hJ6';
let api: TestServer;
beforeAll(async () => {
  // echoes the key it was sent after `pad` characters: as an error body, or as a body that is not JSON
  api = await startServer((req, res) => {
    const u = new URL(req.url, 'http://x');
    const pad = 'p'.repeat(Number(u.searchParams.get('pad') ?? '0'));
    const key = String(req.headers['x-key'] ?? '');
    if (u.pathname === '/error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${pad}${key} is not a valid key`);
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"a": ${pad}${key}}`);
    }
  });
});
afterAll(() => api.close());

const spec: ToolSpecification = {
  name: 'lookup',
  description: 'looks something up',
  typeSignature: '',
  schema: { type: 'object', properties: { pad: { type: 'integer' } }, required: ['pad'], additionalProperties: false } as JsonObject,
  outputSchema: {},
};

const lookupTool = (path: string): Tool => {
  const t = httpTool(
    spec,
    {
      urlTemplate: `${api.origin}${path}?pad=\${pad}`,
      headers: { 'X-Key': '${API_KEY}' },
      allowedHosts: ['127.0.0.1'],
      allowPrivateAddresses: true,
      retry: { maxAttempts: 1 },
    },
    { secrets: (n) => (n === 'API_KEY' ? SECRET : undefined) },
  );
  if (t._tag === 'Left') throw new Error(JSON.stringify(t.left));
  return t.right;
};

const boundTool = (path: string) => {
  const b = bindTool(spec, toolLibrary([lookupTool(path)]));
  if (b._tag === 'Left') throw new Error(JSON.stringify(b.left));
  return b.right;
};

describe('attack: secrets cut before they are redacted (end to end)', () => {
  it('the HTTP error excerpt (300 characters) never ends inside the key, whatever the padding', async () => {
    const tool = boundTool('/error');
    for (let pad = 300 - SECRET.length; pad <= 300; pad++) {
      const r = await invoke(tool, { pad });
      expect(r.ok).toBe(false);
      expect(fragmentIn(JSON.stringify(r), SECRET), `pad ${pad}`).toBeUndefined();
    }
  });

  it("the JSON parser's snippet of a response is taken from the redacted text", async () => {
    const tool = boundTool('/json');
    for (const pad of [0, 1, 5, 10, 20, 30, 40, 60]) {
      const r = await invoke(tool, { pad });
      expect(r.ok).toBe(false);
      expect(fragmentIn(JSON.stringify(r), SECRET), `pad ${pad}`).toBeUndefined();
    }
  });

  it('a URL shown in an error (200 characters) is redacted before it is cut', async () => {
    const red = redactor([SECRET]);
    for (let pad = 200 - SECRET.length - 20; pad <= 200; pad += 3) {
      const aborted = AbortSignal.abort();
      const url = `http://127.0.0.1:1/${'p'.repeat(pad)}${SECRET}`;
      const r1 = await safeFetch(url, { allowedHosts: ['127.0.0.1'], maxBytes: 1000, timeoutMs: 1000, signal: aborted, redact: red.text });
      const r2 = await safeFetch(`http://[${'p'.repeat(pad)}${SECRET}`, { allowedHosts: ['127.0.0.1'], maxBytes: 1000, timeoutMs: 1000, redact: red.text });
      expect(fragmentIn(JSON.stringify([r1, r2]), SECRET), `pad ${pad}`).toBeUndefined();
    }
  });

  it('nor does any fragment reach the next model request, the result or the trace', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { pad: 300 - SECRET.length + 3 } }] }, { text: 'done' }]);
    const agent = createAgentSpecification('agent', 'looks things up', 'look it up', [spec]);
    if (agent._tag === 'Left') throw new Error(JSON.stringify(agent.left));
    const out = await runAgent(agent.right, toolLibrary([lookupTool('/error')]), 'go', { model });
    expect(model.requests.length).toBe(2);
    expect(fragmentIn(JSON.stringify(model.requests[1]), SECRET)).toBeUndefined();
    expect(fragmentIn(JSON.stringify(out), SECRET)).toBeUndefined();
  });
});
