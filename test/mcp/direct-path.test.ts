/**
 * The direct path of `tools/call` and `tools/list` (src/mcp/direct-path.ts) answers as the SDK's
 * path does: on generated messages (plain calls of every kind of tool and result, unknown tools,
 * ids the SDK takes and ids it does not, arguments of any shape, `_meta`, `task`, extra keys,
 * lists with and without cursors, good and bad, other methods)
 * and, over HTTP, generated headers (`Accept`, `Content-Type`, `MCP-Protocol-Version`,
 * `Mcp-Method`) and bodies (not JSON, empty, batches), a server with the direct path and one
 * without (the internal switch of stdio-server.ts and http-handler.ts, over the same tools and
 * policies) write the same bytes. Cancellation reaches a direct call's signal; a connection that
 * set a log level is answered by the SDK (with its log notifications).
 */
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRuleEngine } from '../../src/entries/policy.js';
import { bindAll, defineTool, parseSpecifications, type Tool, toolLibrary } from '../../src/index.js';
import { httpHandlerWith } from '../../src/mcp/http-handler.js';
import { handleNodeRequest } from '../../src/mcp/node-http.js';
import { type McpStdioServer, serveStdioWith } from '../../src/mcp/stdio-server.js';
import { staticToolSource } from '../../src/mcp/tool-source.js';
import { erase, getWeather, lookup, shout, waitForCancel } from '../fixtures/mcp/library.js';
import { FIXTURE, type Listening, listen } from './support.js';

const GRAM = `
[echo:Tool {description: "The text back"} | (text::String)==>(::String)]
[content:Tool {description: "MCP content of a kind"} | (kind::Integer)==>(::Object)]
[slow:Tool {description: "Waits until the call is cancelled"} | (label::String)==>(::String)]
`;

/** The MCP content values the `content` tool returns, by kind (valid ones and one the SDK's schema refuses). */
const CONTENTS: ReadonlyArray<unknown> = [
  { content: [{ type: 'text', text: 'a', annotations: { priority: 0.5 } }] },
  { content: [{ text: 'b', type: 'text' }] },
  { content: [{ type: 'image', data: 'aGVsbG8=', mimeType: 'image/png' }] },
  { content: [{ type: 'image', data: '@@ not base64', mimeType: 'image/png' }] },
  { content: [{ type: 'resource_link', uri: 'file:///x', name: 'x', extra: 1 }] },
  { content: [{ type: 'text', text: 'c' }], structuredContent: { z: 1, a: [1] } },
  { content: [] },
  { content: [{ type: 'text', text: 'd', _meta: { k: 1 }, extra: true }] },
];

/** Calls of `slow` waiting for their signal, by label: each settles when its signal aborts. */
const waiting = new Map<string, AbortSignal>();

const source = () => {
  // the fixture's tools (get_weather: structured; lookup: fails; erase: needs approval) and these
  const specs = parseSpecifications(`${readFileSync(FIXTURE, 'utf8')}\n${GRAM}`);
  if (specs._tag === 'Left') throw new Error(specs.left.map((d) => d.message).join('\n'));
  const define = <A>(name: string, impl: (a: A, ctx: { signal: AbortSignal }) => unknown): Tool => {
    const t = defineTool<A>(GRAM, impl, { name });
    if (t._tag === 'Left') throw new Error(t.left.map((d) => d.message).join('\n'));
    return t.right;
  };
  const tools = toolLibrary([
    define<{ text: string }>('echo', ({ text }) => text),
    define<{ kind: number }>('content', ({ kind }) => CONTENTS[Math.abs(kind) % CONTENTS.length]),
    define<{ label: string }>(
      'slow',
      ({ label }, ctx) =>
        new Promise((_resolve, reject) => {
          waiting.set(label, ctx.signal);
          ctx.signal.addEventListener('abort', () => reject(new Error(`cancelled: ${String(ctx.signal.reason)}`)), { once: true });
        }),
    ),
    getWeather,
    lookup,
    erase,
    shout,
    waitForCancel,
  ]);
  const b = bindAll(specs.right.tools, tools);
  if (b._tag === 'Left') throw new Error(b.left.map((e) => e.message).join('\n'));
  return staticToolSource(b.right);
};

// pages of 3 tools, so that lists have cursors
const OPTIONS = { policies: { rules: defaultRuleEngine }, pageSize: 3 };

// -------------------------------------------------------------------------------------------------
// generated messages
// -------------------------------------------------------------------------------------------------

const argumentsOf = (name: string): fc.Arbitrary<unknown> => {
  const valid: Record<string, fc.Arbitrary<unknown>> = {
    echo: fc.record({ text: fc.oneof(fc.string(), fc.constantFrom('42', 'true', ' [1]', '"q"', 'null', 'Hello')) }),
    content: fc.record({ kind: fc.integer({ min: 0, max: CONTENTS.length - 1 }) }),
    get_weather: fc.record({ city: fc.constantFrom('Paris', 'London', ''), days: fc.integer({ min: 0, max: 9 }) }, { requiredKeys: ['city'] }),
    lookup: fc.record({ word: fc.string() }),
    erase: fc.record({ path: fc.constantFrom('/tmp/x', '') }),
  };
  return fc.oneof(
    { weight: 6, arbitrary: (Object.hasOwn(valid, name) ? valid[name] : undefined) ?? fc.constant({}) },
    fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    fc.constantFrom(undefined, null, [], 'text', 7),
  );
};

const idArb = fc.oneof({ weight: 5, arbitrary: fc.nat() }, fc.string({ maxLength: 8 }), fc.constantFrom(-3, 1.5, null, true));

/** A generated message: mostly plain calls, and every way a message can fail to be one. */
const messageArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    id: idArb,
    method: fc.oneof({ weight: 8, arbitrary: fc.constant('tools/call') }, fc.constantFrom('tools/list', 'ping')),
    name: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('echo', 'content', 'get_weather', 'lookup', 'erase') }, fc.constantFrom('nope', '__proto__', '')),
    extraParams: fc.oneof(
      { weight: 6, arbitrary: fc.constant({}) },
      fc.constantFrom<Record<string, unknown>>({ _meta: {} }, { _meta: { progressToken: 'p' } }, { task: { ttl: 1000 } }, { other: 1 }),
    ),
    extraEnvelope: fc.oneof({ weight: 8, arbitrary: fc.constant({}) }, fc.constantFrom<Record<string, unknown>>({ extra: 1 }, { jsonrpc: '1.0' })),
    withArgs: fc.boolean(),
  })
  .chain((m) =>
    argumentsOf(m.name).map((args) => ({
      jsonrpc: '2.0',
      id: m.id,
      method: m.method,
      params: { name: m.name, ...(m.withArgs || args !== undefined ? { arguments: args } : {}), ...m.extraParams },
      ...m.extraEnvelope,
    })),
  );

/** A cursor of this server's pages (`pageOf`'s form), and cursors it did not give. */
const cursorArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.nat({ max: 12 }).map((n) => Buffer.from(`gramkit:${n}`, 'utf8').toString('base64url')),
  fc.constantFrom('bogus', '', 7, null),
);

/** A generated `tools/list`: plain ones (no params, `{}`, a cursor) and ones that are not. */
const listArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    id: idArb,
    params: fc.oneof(
      fc.constant(undefined),
      fc.constant({}),
      cursorArb.map((cursor) => ({ cursor })),
      cursorArb.map((cursor) => ({ cursor, _meta: {} })),
      fc.constant({ other: 1 }),
      fc.constant('text'),
    ),
  })
  .map(({ id, params }) => ({ jsonrpc: '2.0', id, method: 'tools/list', ...(params !== undefined ? { params } : {}) }));

/** The generated messages: calls and lists. */
const anyMessageArb = fc.oneof({ weight: 3, arbitrary: messageArb }, listArb);

/** Whether the SDK answers a message (a request its schema takes: an id it takes, no other keys, object params). */
const answered = (m: Record<string, unknown>): boolean =>
  m['jsonrpc'] === '2.0' &&
  (typeof m['id'] === 'string' || (typeof m['id'] === 'number' && Number.isSafeInteger(m['id']))) &&
  Object.keys(m).every((k) => ['jsonrpc', 'id', 'method', 'params'].includes(k)) &&
  (m['params'] === undefined || (typeof m['params'] === 'object' && m['params'] !== null && !Array.isArray(m['params'])));

// -------------------------------------------------------------------------------------------------
// stdio
// -------------------------------------------------------------------------------------------------

interface StdioPeer {
  readonly stdin: PassThrough;
  readonly server: McpStdioServer;
  /** The lines written so far, taken. */
  readonly take: () => string[];
  /** Settles when a line satisfying `p` has been written. */
  readonly until: (p: (lines: ReadonlyArray<string>) => boolean) => Promise<void>;
}

const stdioPeer = (direct: boolean): StdioPeer => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const server = serveStdioWith(source(), { ...OPTIONS, stdin, stdout }, direct);
  let lines: string[] = [];
  let buffer = '';
  let check: (() => void) | undefined;
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
    check?.();
  });
  return {
    stdin,
    server,
    take: () => {
      const taken = lines;
      lines = [];
      return taken;
    },
    until: (p) =>
      new Promise<void>((resolve) => {
        check = () => {
          if (p(lines)) {
            check = undefined;
            resolve();
          }
        };
        check();
      }),
  };
};

const send = (peer: StdioPeer, m: unknown): void => void peer.stdin.write(`${JSON.stringify(m)}\n`);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

/** Sends `m` and a ping; the lines written until the ping's answer and (when the SDK answers `m`) `m`'s answer, the ping's left out. */
const exchange = async (peer: StdioPeer, m: Record<string, unknown>, n: number): Promise<string[]> => {
  const sentinel = `sentinel-${n}`;
  send(peer, m);
  send(peer, { jsonrpc: '2.0', id: sentinel, method: 'ping' });
  const answers = (l: string): boolean => (JSON.parse(l) as { id?: unknown }).id === m['id'];
  await peer.until((lines) => lines.some((l) => l.includes(`"${sentinel}"`)) && (!answered(m) || lines.some(answers)));
  return peer.take().filter((l) => !l.includes(`"${sentinel}"`));
};

describe('the direct path over stdio', () => {
  let peers: [StdioPeer, StdioPeer];
  beforeAll(async () => {
    peers = [stdioPeer(true), stdioPeer(false)];
    for (const p of peers) {
      send(p, INITIALIZE);
      send(p, { jsonrpc: '2.0', method: 'notifications/initialized' });
      await p.until((lines) => lines.length > 0);
      p.take();
    }
  });
  afterAll(async () => {
    for (const p of peers) await p.server.close();
  });

  it('answers every generated message with the bytes the SDK path writes', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(anyMessageArb, async (m) => {
        n++;
        const [direct, sdk] = await Promise.all(peers.map((p) => exchange(p, m, n)));
        expect(direct).toEqual(sdk);
      }),
      { numRuns: 300 },
    );
  });

  it('a call before initialize, and a connection that set a log level, are the SDK’s (log notifications included)', async () => {
    const [fresh, sdkFresh] = [stdioPeer(true), stdioPeer(false)];
    try {
      const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'early' } } };
      const [a, b] = await Promise.all([fresh, sdkFresh].map((p) => exchange(p, call, 0)));
      expect(a).toEqual(b);
      for (const p of [fresh, sdkFresh]) {
        send(p, INITIALIZE);
        send(p, { jsonrpc: '2.0', method: 'notifications/initialized' });
        send(p, { jsonrpc: '2.0', id: 'level', method: 'logging/setLevel', params: { level: 'debug' } });
        await p.until((lines) => lines.some((l) => l.includes('"level"}')));
        p.take();
      }
      const logged = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'logged' } } };
      // the log notifications carry the call's duration, which may differ by a millisecond
      const [c, d] = (await Promise.all([fresh, sdkFresh].map((p) => exchange(p, logged, 1)))).map((ls) =>
        ls.map((l) => l.replace(/"durationMs":\d+/, '"durationMs":0')),
      );
      expect(c).toEqual(d);
      expect(c?.some((l) => l.includes('notifications/message') && l.includes('"event":"invoked"'))).toBe(true);
    } finally {
      await fresh.server.close();
      await sdkFresh.server.close();
    }
  });

  it('a call right behind logging/setLevel in one chunk gets its log notifications, as on the SDK path', async () => {
    const pair = [stdioPeer(true), stdioPeer(false)];
    try {
      for (const p of pair) {
        send(p, INITIALIZE);
        send(p, { jsonrpc: '2.0', method: 'notifications/initialized' });
        await p.until((lines) => lines.length > 0);
        p.take();
        // one write: the level and the call behind it
        p.stdin.write(
          `${JSON.stringify({ jsonrpc: '2.0', id: 'level', method: 'logging/setLevel', params: { level: 'info' } })}\n${JSON.stringify({
            jsonrpc: '2.0',
            id: 3,
            method: 'tools/call',
            params: { name: 'echo', arguments: { text: 'behind' } },
          })}\n`,
        );
      }
      const [a, b] = await Promise.all(
        pair.map(async (p) => {
          await p.until((lines) => lines.some((l) => l.endsWith('"id":3}')) && lines.some((l) => l.includes('"level"')));
          return p
            .take()
            .map((l) => l.replace(/"durationMs":\d+/, '"durationMs":0'))
            .sort();
        }),
      );
      expect(a).toEqual(b);
      expect(a?.some((l) => l.includes('"event":"result"'))).toBe(true);
    } finally {
      for (const p of pair) await p.server.close();
    }
  });

  it('notifications/cancelled aborts a direct call’s signal, with the client’s reason, and no answer is sent', async () => {
    const [peer] = peers;
    peer.take();
    send(peer, { jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'slow', arguments: { label: 'stdio-1' } } });
    await new Promise<void>((resolve) => {
      const poll = () => (waiting.has('stdio-1') ? resolve() : setImmediate(poll));
      poll();
    });
    send(peer, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'the user stopped it' } });
    const lines = await exchange(peer, { jsonrpc: '2.0', method: 'notifications/none' }, 9999);
    expect(waiting.get('stdio-1')?.aborted).toBe(true);
    expect(waiting.get('stdio-1')?.reason).toBe('the user stopped it');
    expect(lines).toEqual([]);
  });
});

// -------------------------------------------------------------------------------------------------
// Streamable HTTP
// -------------------------------------------------------------------------------------------------

interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const post = async (server: Listening, headers: Record<string, string>, body: string): Promise<HttpAnswer> => {
  const r = await fetch(server.url, { method: 'POST', headers, body });
  const kept = [...r.headers].filter(([k]) => k !== 'date' && k !== 'keep-alive' && k !== 'transfer-encoding' && k !== 'content-length');
  return { status: r.status, headers: Object.fromEntries(kept), body: await r.text() };
};

const headersArb: fc.Arbitrary<Record<string, string>> = fc
  .record({
    accept: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json, text/event-stream') },
      fc.constantFrom('text/event-stream', 'application/json', '*/*', 'text/event-stream, application/json'),
    ),
    type: fc.oneof(
      { weight: 6, arbitrary: fc.constant('application/json') },
      fc.constantFrom('text/plain', 'application/json; charset=utf-8', 'APPLICATION/JSON'),
    ),
    version: fc.constantFrom(undefined, '2025-11-25', '2025-06-18', '2024-10-07', '2026-07-28', 'bogus', ' 2025-11-25'),
    method: fc.constantFrom(undefined, undefined, undefined, 'tools/call', 'tools/list'),
    origin: fc.constantFrom(undefined, undefined, 'http://localhost:3000', 'http://evil.example', 'not a url'),
  })
  .map((h) => ({
    accept: h.accept,
    'content-type': h.type,
    ...(h.version !== undefined ? { 'mcp-protocol-version': h.version } : {}),
    ...(h.method !== undefined ? { 'mcp-method': h.method } : {}),
    ...(h.origin !== undefined ? { origin: h.origin } : {}),
  }));

const bodyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: anyMessageArb.map((m) => JSON.stringify(m)) },
  messageArb.map((m) => JSON.stringify([m])),
  fc.constantFrom('', 'not json', '{"jsonrpc":"2.0"', 'null', '[]'),
);

describe('the direct path over Streamable HTTP', () => {
  // the direct path through the node face, through the fetch face (served by node-http.ts), and the SDK's path
  let servers: [Listening, Listening, Listening];
  let closers: Array<() => Promise<void>>;
  beforeAll(async () => {
    const [direct, sdk] = [httpHandlerWith(source(), OPTIONS, true), httpHandlerWith(source(), OPTIONS, false)];
    servers = [await listen(direct.node), await listen((req, res) => handleNodeRequest((r) => direct.fetch(r), req, res)), await listen(sdk.node)];
    closers = [...servers.map((s) => s.close), direct.close, sdk.close];
  });
  afterAll(async () => {
    for (const c of closers) await c();
  });

  it('answers every generated request with the status, headers and body the SDK path gives, through both faces', async () => {
    await fc.assert(
      fc.asyncProperty(headersArb, bodyArb, async (headers, body) => {
        const [node, fetchFace, sdk] = await Promise.all(servers.map((s) => post(s, headers, body)));
        expect(node).toEqual(sdk);
        expect(fetchFace).toEqual(sdk);
      }),
      { numRuns: 300 },
    );
  });

  it('the client going away aborts a direct call’s signal', async () => {
    const controller = new AbortController();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { label: 'http-1' } } });
    const request = fetch(servers[0].url, {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body,
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise<void>((resolve) => {
      const poll = () => (waiting.has('http-1') ? resolve() : setImmediate(poll));
      poll();
    });
    controller.abort();
    await request;
    const signal = waiting.get('http-1') as AbortSignal;
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
    expect(signal.aborted).toBe(true);
  });
});
