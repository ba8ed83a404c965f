/**
 * MCP throughput (issue 21): `tools/call` of the same tool (`shout`: a string in capitals) served by
 * gramkit (`serveMcpStdio`, `createMcpHttpHandler`: validation, the policy gate, invoke, the result
 * as content) against a minimal server on the official SDK (`McpServer.registerTool`, served by the
 * SDK's own `serveStdio` and `createMcpHandler`), over stdio and over Streamable HTTP (stateless,
 * node:http on 127.0.0.1). Each server runs in a process of its own (`bench/mcp-server.ts`), as it
 * does for real, so its CPU time is its own (`/proc/<pid>/stat`); the same SDK client, in this
 * process, calls each in alternating rounds, 16 calls in flight. The ratios are the medians of the
 * rounds' own ratios (round i of each ran side by side): calls/s, and the capacity (the server's
 * CPU time a call, theirs over ours). Target: ≥ 1× the SDK server. The gramkit servers judge every
 * call by the default rules, as `gramkit mcp` does; the SDK server judges nothing. The client's
 * calls are plain (no `_meta`), so gramkit answers them on its direct path (src/mcp/direct-path.ts).
 */
import { loadavg } from 'node:os';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectMcp } from '../src/entries/mcp.js';
import { bindTool, invoke } from '../src/index.js';
import { median, processCpuUs, ratio, report } from './harness.js';

const SERVER = join(dirname(fileURLToPath(import.meta.url)), 'mcp-server.ts');
const TSX = ['--import', 'tsx', SERVER];
const ROUNDS = 10;
const MS = 1000;
/** Rounds each server runs before the measured ones: the JIT takes a few seconds of calls to settle (a server lives long). */
const WARM_UP = 3;
const IN_FLIGHT = 16;

interface Server {
  readonly name: string;
  /** One call of `shout`; rejects when the call fails. */
  readonly call: () => Promise<void>;
  readonly pid: number;
  readonly close: () => Promise<void>;
}

/** One call of `shout` through the SDK's client. */
const sdkCall = (client: Client) => async (): Promise<void> => {
  const r = await client.callTool({ name: 'shout', arguments: { text: 'hello' } });
  if (r.isError === true) throw new Error(JSON.stringify(r));
};

const stdioServer = async (which: 'gramkit' | 'sdk'): Promise<Server> => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...TSX, which, 'stdio'], env: { ...process.env } as Record<string, string> });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error('no server process');
  return { name: which, call: sdkCall(client), pid, close: () => client.close() };
};

/** A server of `which` over Streamable HTTP in a process of its own: its URL, pid and how to stop it. */
const httpProcess = async (which: 'gramkit' | 'sdk'): Promise<{ readonly url: URL; readonly pid: number; readonly stop: () => void }> => {
  const child = spawn(process.execPath, [...TSX, which, 'http'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', () => reject(new Error(`the ${which} server exited`)));
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('no server process');
  return { url: new URL(url), pid, stop: () => child.stdin.end() };
};

/** The SDK's client of `url`. */
const sdkHttpClient = async (url: URL): Promise<Client> => {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
};

const httpServer = async (which: 'gramkit' | 'sdk'): Promise<Server> => {
  const server = await httpProcess(which);
  const client = await sdkHttpClient(server.url);
  return {
    name: which,
    call: sdkCall(client),
    pid: server.pid,
    close: async () => {
      await client.close();
      server.stop();
    },
  };
};

/**
 * The clients of one gramkit server over Streamable HTTP: gramkit's (`connectMcp`, the remote tool
 * called through `invoke`, as `run` calls it) and the SDK's (`callTool`). Each side's `pid` is the
 * server's; what differs is this process's CPU time a call.
 */
const httpClients = async (): Promise<readonly [Server, Server]> => {
  const server = await httpProcess('gramkit');
  const c = await connectMcp(`mcp:${server.url.href}`);
  if (c._tag === 'Left') throw new Error(c.left.map((d) => d.message).join('\n'));
  const connection = c.right;
  const spec = connection.specifications.find((s) => s.name === 'shout');
  const shout = spec !== undefined ? bindTool(spec, connection.library) : undefined;
  if (shout === undefined || shout._tag === 'Left') throw new Error('no shout tool');
  const client = await sdkHttpClient(server.url);
  const call = async (): Promise<void> => {
    const r = await invoke(shout.right, { text: 'hello' });
    if (!r.ok) throw new Error(JSON.stringify(r.error));
  };
  return [
    { name: 'connectMcp', call, pid: server.pid, close: () => connection.close() },
    {
      name: 'sdk client',
      call: sdkCall(client),
      pid: server.pid,
      close: async () => {
        await client.close();
        server.stop();
      },
    },
  ];
};

interface Round {
  /** Calls per second. */
  readonly rate: number;
  /** The server process's CPU time a call, in µs. */
  readonly serverUs: number;
  /** This process's (the client's) CPU time a call, in µs. */
  readonly clientUs: number;
}

/** Calls per second of `server` over MS milliseconds, IN_FLIGHT calls at a time, and the CPU time a call. */
const rate = async (server: Server): Promise<Round> => {
  let done = 0;
  const end = Date.now() + MS;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const s0 = processCpuUs(server.pid);
  const worker = async () => {
    while (Date.now() < end) {
      await server.call();
      done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const c = process.cpuUsage(c0);
  const calls = Math.max(1, done);
  return { rate: done / ((performance.now() - t0) / 1000), serverUs: (processCpuUs(server.pid) - s0) / calls, clientUs: (c.user + c.system) / calls };
};

/** ROUNDS interleaved rounds of each server (after WARM_UP interleaved rounds). */
const rounds = async (servers: readonly [Server, Server]): Promise<[Round[], Round[]]> => {
  const out: [Round[], Round[]] = [[], []];
  for (let round = 0; round < WARM_UP; round++) for (const s of servers) await rate(s);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, s] of servers.entries()) out[i as 0 | 1].push(await rate(s));
  }
  return out;
};

const medianOf = (rs: ReadonlyArray<Round>, f: (r: Round) => number): number => median(rs.map(f));

/** Median rate and CPU times of each side, and the medians of the rounds' own ratios (ours over theirs). */
const summary = ([ours, theirs]: [Round[], Round[]]) => {
  const line = (rs: Round[]) =>
    `${Math.round(medianOf(rs, (r) => r.rate))} calls/s; CPU a call: server ${medianOf(rs, (r) => r.serverUs).toFixed(0)} µs, client ${medianOf(rs, (r) => r.clientUs).toFixed(0)} µs`;
  return {
    ours: line(ours),
    theirs: line(theirs),
    rate: median(ours.map((r, i) => r.rate / (theirs[i] as Round).rate)),
    client: median(ours.map((r, i) => r.clientUs / (theirs[i] as Round).clientUs)),
    capacity: median(ours.map((r, i) => (theirs[i] as Round).serverUs / r.serverUs)),
    rounds: ours.map((r, i) => `${(r.rate / (theirs[i] as Round).rate).toFixed(2)}/${((theirs[i] as Round).serverUs / r.serverUs).toFixed(2)}`).join(' '),
  };
};

const compare = async (open: () => Promise<readonly [Server, Server]>) => {
  const servers: [Server, Server] = [...(await open())];
  try {
    return summary(await rounds(servers));
  } finally {
    for (const s of servers) await s.close();
  }
};

export default async (): Promise<void> => {
  const load0 = loadavg()[0] ?? 0;
  const both = async (start: (which: 'gramkit' | 'sdk') => Promise<Server>) => [await start('gramkit'), await start('sdk')] as const;
  const stdio = await compare(() => both(stdioServer));
  const http = await compare(() => both(httpServer));
  const clients = await compare(httpClients);
  const how = `servers in their own processes, ${IN_FLIGHT} calls in flight, ${ROUNDS} interleaved rounds of ${MS / 1000} s after ${WARM_UP} to warm up; figures: medians`;
  report(`MCP tools/call throughput: gramkit against a minimal server on the official SDK (${how})`, [
    ['stdio, gramkit', stdio.ours],
    ['stdio, SDK', stdio.theirs],
    ['stdio, ratio (calls/s)', ratio(stdio.rate, { min: 1 })],
    ['stdio, capacity (server CPU time a call)', ratio(stdio.capacity, { min: 1 })],
    ['stdio, each round (calls/s / capacity)', stdio.rounds],
    ['Streamable HTTP, gramkit', http.ours],
    ['Streamable HTTP, SDK', http.theirs],
    ['Streamable HTTP, ratio (calls/s)', ratio(http.rate, { min: 1 })],
    ['Streamable HTTP, capacity (server CPU time a call)', ratio(http.capacity, { min: 1 })],
    ['Streamable HTTP, each round (calls/s / capacity)', http.rounds],
    ['Streamable HTTP client to the gramkit server, connectMcp + invoke', clients.ours],
    ['Streamable HTTP client to the gramkit server, SDK client', clients.theirs],
    ['Streamable HTTP clients, ratio (calls/s)', ratio(clients.rate)],
    ['Streamable HTTP clients, client CPU time a call (connectMcp over the SDK client)', ratio(clients.client)],
    ['load average (1 min), before and after', `${load0.toFixed(1)}, ${(loadavg()[0] ?? 0).toFixed(1)}`],
  ]);
};
