/**
 * The stdio wire of `serveMcpStdio` (src/mcp/stdio-transport.ts), byte by byte: what the SDK's
 * stdio transport does with each kind of line, gramkit's does too (a line that is not JSON is
 * skipped, a message that is not JSON-RPC is reported and the server keeps serving, CRLF, messages
 * split across chunks or sharing one, UTF-8 split inside a character, a request with `_meta`).
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { bindAll, defineTool, parseSpecifications, toolLibrary } from '../../src/index.js';
import { type McpStdioServer, serveMcpStdio, staticToolSource } from '../../src/entries/mcp.js';

const GRAM = '[echo:Tool {description: "The text back"} | (text::String)==>(::String)]';

const source = () => {
  const specs = parseSpecifications(GRAM);
  if (specs._tag === 'Left') throw new Error('spec');
  const t = defineTool<{ text: string }>(GRAM, ({ text }) => text, { name: 'echo' });
  if (t._tag === 'Left') throw new Error('tool');
  const b = bindAll(specs.right.tools, toolLibrary([t.right]));
  if (b._tag === 'Left') throw new Error('bind');
  return staticToolSource(b.right);
};

interface Wire {
  readonly stdin: PassThrough;
  readonly errors: Error[];
  /** The next message the server writes. */
  readonly next: () => Promise<Record<string, unknown>>;
  readonly server: McpStdioServer;
}

const open: McpStdioServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const wire = (): Wire => {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const errors: Error[] = [];
  const server = serveMcpStdio(source(), { stdin, stdout, onError: (e) => errors.push(e) });
  open.push(server);
  const queue: Record<string, unknown>[] = [];
  const waiting: ((m: Record<string, unknown>) => void)[] = [];
  let buffer = '';
  stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const m = JSON.parse(buffer.slice(0, i)) as Record<string, unknown>;
      buffer = buffer.slice(i + 1);
      const w = waiting.shift();
      if (w !== undefined) w(m);
      else queue.push(m);
    }
  });
  const next = () => {
    const m = queue.shift();
    return m !== undefined ? Promise.resolve(m) : new Promise<Record<string, unknown>>((resolve) => waiting.push(resolve));
  };
  return { stdin, errors, next, server };
};

const line = (m: unknown): string => `${JSON.stringify(m)}\n`;
const INIT = line({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
});
const INITIALIZED = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const call = (id: number, text: string, extra: Record<string, unknown> = {}) =>
  line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text }, ...extra } });

const ready = async (): Promise<Wire> => {
  const w = wire();
  w.stdin.write(INIT);
  expect((await w.next())['id']).toBe(0);
  w.stdin.write(INITIALIZED);
  return w;
};

const textOf = (m: Record<string, unknown>): unknown => (m['result'] as { content: { text: string }[] }).content[0]?.text;

describe('the stdio wire', () => {
  it('skips a line that is not JSON and answers the next request', async () => {
    const w = await ready();
    w.stdin.write('this is not json\n');
    w.stdin.write(call(1, 'after'));
    const m = await w.next();
    expect(m['id']).toBe(1);
    expect(textOf(m)).toBe('after');
    expect(w.errors).toEqual([]);
  });

  it('reports a message that is not JSON-RPC and keeps serving', async () => {
    const w = await ready();
    w.stdin.write(line({ hello: 'world' }));
    w.stdin.write(line({ jsonrpc: '2.0', id: 1.5, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }));
    w.stdin.write(call(2, 'still here'));
    const m = await w.next();
    expect(m['id']).toBe(2);
    expect(textOf(m)).toBe('still here');
    expect(w.errors.length).toBe(2);
  });

  it('reads CRLF lines, a message split across chunks, several messages in one chunk, and UTF-8 split inside a character', async () => {
    const w = await ready();
    const bytes = Buffer.from(call(1, 'héllo wörld ✓').replace('\n', '\r\n'), 'utf8');
    const cut = bytes.indexOf(Buffer.from('ö', 'utf8')) + 1;
    w.stdin.write(bytes.subarray(0, cut));
    w.stdin.write(bytes.subarray(cut));
    const m = await w.next();
    expect(m['id']).toBe(1);
    expect(textOf(m)).toBe('héllo wörld ✓');
    w.stdin.write(call(2, 'a') + call(3, 'b') + call(4, '42'));
    const answers = [await w.next(), await w.next(), await w.next()];
    expect(answers.map((a) => [a['id'], textOf(a)])).toEqual([
      [2, 'a'],
      [3, 'b'],
      [4, '42'],
    ]);
  });

  it('answers a request with _meta and string ids (the SDK reads those)', async () => {
    const w = await ready();
    w.stdin.write(call(1, 'meta', { _meta: { progressToken: 'p1' } }));
    expect(textOf(await w.next())).toBe('meta');
    w.stdin.write(line({ jsonrpc: '2.0', id: 'req-2', method: 'tools/call', params: { name: 'echo', arguments: { text: 'named' } } }));
    const m = await w.next();
    expect(m['id']).toBe('req-2');
    expect(textOf(m)).toBe('named');
  });

  it('ends when stdin ends', async () => {
    const w = await ready();
    w.stdin.end();
    await w.server.closed;
  });
});
