/**
 * MCP throughput (issue 21): `tools/call` of the same tool (`shout`: a string in capitals) served by
 * gramkit (`createMcpHttpHandler`, `serveMcpStdio`: validation, the policy gate, invoke, the result
 * as content) against a minimal server on the official SDK (`McpServer.registerTool`, served by the
 * SDK's own `createMcpHandler` and `serveStdio`), over Streamable HTTP (stateless, node:http on
 * 127.0.0.1) and over stdio (in-process pipes). The same SDK client calls each in alternating
 * rounds, 16 calls in flight; the ratio is the median of the rounds' own ratios (round i of each
 * ran side by side), printed with the best round and the CPU time a call (client and server share
 * this process, so the client's part is the same on both sides). Target: ≥ 1× the SDK server. The
 * gramkit servers judge every call by the default rules, as `gramkit mcp` does; the SDK server
 * judges nothing.
 */
import { loadavg } from 'node:os';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { bindAll, defineTool, parseSpecifications, toolLibrary } from '../src/index.js';
import { createMcpHttpHandler, serveMcpStdio, staticToolSource } from '../src/entries/mcp.js';
import { handleNodeRequest } from '../src/mcp/node-http.js';
import { defaultRuleEngine } from '../src/entries/policy.js';
import { pipePair } from '../test/support/pipe-transport.js';
import { median, ratio, report } from './harness.js';

const GRAM = '[shout:Tool {description: "The text in capitals"} | (text::String)==>(::String)]';
const ROUNDS = 3;
const MS = 1500;
const IN_FLIGHT = 16;

const gramkitTools = () => {
  const specs = parseSpecifications(GRAM);
  if (specs._tag === 'Left') throw new Error('spec');
  const t = defineTool<{ text: string }>(GRAM, ({ text }) => text.toUpperCase(), { name: 'shout' });
  if (t._tag === 'Left') throw new Error('tool');
  const b = bindAll(specs.right.tools, toolLibrary([t.right]));
  if (b._tag === 'Left') throw new Error('bind');
  return staticToolSource(b.right);
};

const sdkServer = (): McpServer => {
  const s = new McpServer({ name: 'sdk', version: '1.0.0' });
  const register = s.registerTool.bind(s) as (name: string, config: unknown, cb: (args: { text: string }) => unknown) => unknown;
  register('shout', { description: 'The text in capitals', inputSchema: z.object({ text: z.string() }) }, async (args) => ({
    content: [{ type: 'text', text: args.text.toUpperCase() }],
  }));
  return s;
};

const listenOn = (handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<{ server: HttpServer; url: URL }> =>
  new Promise((resolve) => {
    const server = createServer((req, res) => void handler(req, res));
    server.listen(0, '127.0.0.1', () => resolve({ server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`) }));
  });

interface Round {
  /** Calls per second. */
  readonly rate: number;
  /** This process's CPU time (client and server: they share it) over the calls, in µs. */
  readonly cpuUs: number;
}

/** Calls per second of `client` over MS milliseconds, IN_FLIGHT calls at a time, and the CPU time a call. */
const rate = async (client: Client): Promise<Round> => {
  let done = 0;
  const end = Date.now() + MS;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const worker = async () => {
    while (Date.now() < end) {
      const r = await client.callTool({ name: 'shout', arguments: { text: 'hello' } });
      if (r.isError === true) throw new Error(JSON.stringify(r));
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const c = process.cpuUsage(c0);
  return { rate: done / ((performance.now() - t0) / 1000), cpuUs: (c.user + c.system) / Math.max(1, done) };
};

/** ROUNDS interleaved rounds of each client (after one warm-up round each). */
const rounds = async (clients: readonly [Client, Client]): Promise<[Round[], Round[]]> => {
  const out: [Round[], Round[]] = [[], []];
  for (const c of clients) await rate(c);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of clients.entries()) out[i as 0 | 1].push(await rate(c));
  }
  return out;
};

/** Best round's rate, least CPU a call, and the median of the rounds' own ratios (ours over theirs). */
const summary = ([ours, theirs]: [Round[], Round[]]) => ({
  ours: `${Math.round(Math.max(...ours.map((r) => r.rate)))} calls/s, ${Math.min(...ours.map((r) => r.cpuUs)).toFixed(0)} µs of CPU a call (client and server)`,
  theirs: `${Math.round(Math.max(...theirs.map((r) => r.rate)))} calls/s, ${Math.min(...theirs.map((r) => r.cpuUs)).toFixed(0)} µs of CPU a call (client and server)`,
  rate: median(ours.map((r, i) => r.rate / (theirs[i] as Round).rate)),
  capacity: median(ours.map((r, i) => (theirs[i] as Round).cpuUs / r.cpuUs)),
});

export default async (): Promise<void> => {
  const source = gramkitTools();
  const policies = process.env['MCP_BENCH_NO_POLICIES'] === '1' ? undefined : { rules: defaultRuleEngine };

  // Streamable HTTP
  const ours = createMcpHttpHandler(source, policies !== undefined ? { policies } : {});
  const theirs = createMcpHandler(() => sdkServer() as never, { legacy: 'stateless' });
  const a = await listenOn(ours.node);
  const b = await listenOn((req, res) => handleNodeRequest(theirs.fetch, req, res));
  const ca = new Client({ name: 'bench', version: '1.0.0' });
  const cb = new Client({ name: 'bench', version: '1.0.0' });
  await ca.connect(new StreamableHTTPClientTransport(a.url));
  await cb.connect(new StreamableHTTPClientTransport(b.url));
  const load0 = loadavg()[0] ?? 0;
  const http = summary(await rounds([ca, cb]));
  await ca.close();
  await cb.close();
  await ours.close();
  await theirs.close();
  a.server.closeAllConnections();
  b.server.closeAllConnections();
  a.server.close();
  b.server.close();

  // stdio (in-process pipes)
  const pa = pipePair();
  const pb = pipePair();
  const sa = serveMcpStdio(source, { stdin: pa.toServer, stdout: pa.toClient, ...(policies !== undefined ? { policies } : {}) });
  const sb = serveStdio(() => sdkServer() as never, { transport: new StdioServerTransport(pb.toServer, pb.toClient) });
  const da = new Client({ name: 'bench', version: '1.0.0' });
  const db = new Client({ name: 'bench', version: '1.0.0' });
  await da.connect(pa.transport as never);
  await db.connect(pb.transport as never);
  const stdio = summary(await rounds([da, db]));
  await da.close();
  await db.close();
  await sa.close();
  await sb.close();

  const how = `${IN_FLIGHT} calls in flight, ${ROUNDS} interleaved rounds of ${MS / 1000} s; ratios: median of the rounds'`;
  report(`MCP tools/call throughput: gramkit against a minimal server on the official SDK (${how})`, [
    ['Streamable HTTP, gramkit', http.ours],
    ['Streamable HTTP, SDK', http.theirs],
    ['Streamable HTTP, ratio (calls/s)', ratio(http.rate, { min: 1 })],
    ['Streamable HTTP, capacity (CPU time a call)', ratio(http.capacity)],
    ['stdio, gramkit', stdio.ours],
    ['stdio, SDK', stdio.theirs],
    ['stdio, ratio (calls/s)', ratio(stdio.rate, { min: 1 })],
    ['stdio, capacity (CPU time a call)', ratio(stdio.capacity)],
    ['load average (1 min), before and after', `${load0.toFixed(1)}, ${(loadavg()[0] ?? 0).toFixed(1)}`],
  ]);
};
