/**
 * Helpers for the MCP tests: the fixture tools bound, a node:http server on 127.0.0.1 (a free
 * port) mounting a handler, and the SDK's clients of both lines over both transports.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bindAll, type BoundTools, parseSpecifications } from '../../src/index.js';
import library from '../fixtures/mcp/library.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const FIXTURE = fileURLToPath(new URL('../fixtures/mcp/tools.gram', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** The fixture's specifications bound to its library. */
export const fixtureTools = (): BoundTools => {
  const specs = parseSpecifications(readFileSync(FIXTURE, 'utf8'), { filename: FIXTURE });
  if (specs._tag === 'Left') throw new Error(specs.left.map((d) => d.message).join('\n'));
  const bound = bindAll(specs.right.tools, library);
  if (bound._tag === 'Left') throw new Error(bound.left.map((e) => e.message).join('\n'));
  return bound.right;
};

export interface Listening {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: URL;
  readonly port: number;
  readonly close: () => Promise<void>;
}

/** A node:http server on 127.0.0.1 and a free port, serving `handler` at every path. */
export const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<Listening> => {
  const server = createServer((req, res) => void handler(req, res));
  // The tests' client shares this process's event loop: after a synchronous test that held the loop
  // past the keep-alive window, the next call is written before the loop's timers run, and the idle
  // timer then closed the socket over the unread request (ECONNRESET, a failed call). The client
  // closes its idle sockets itself (undici's own keep-alive timeout), so the server need not.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

/** What the tests need of a client, whatever its SDK line. */
export interface AnyClient {
  readonly label: string;
  readonly listTools: () => Promise<{ tools: Array<Record<string, unknown>> }>;
  readonly callTool: (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;
  readonly close: () => Promise<void>;
}

export type ClientKind = 'v2' | 'v2-modern' | 'v1';
export const CLIENT_KINDS: ReadonlyArray<ClientKind> = ['v2', 'v2-modern', 'v1'];

const wrap = (
  label: string,
  c: { listTools: () => Promise<unknown>; callTool: (p: { name: string; arguments: Record<string, unknown> }) => Promise<unknown>; close: () => Promise<void> },
): AnyClient => ({
  label,
  listTools: () => c.listTools() as Promise<{ tools: Array<Record<string, unknown>> }>,
  callTool: (name, args) => c.callTool({ name, arguments: args }) as Promise<Record<string, unknown>>,
  close: () => c.close(),
});

/** A client of `kind` connected over Streamable HTTP. `onListChanged` is told of tools/list_changed. */
export const httpClient = async (kind: ClientKind, url: URL, onListChanged?: () => void): Promise<AnyClient> => {
  if (kind === 'v1') {
    const c = new V1Client({ name: 'test-v1', version: '1.0.0' });
    await c.connect(new V1Http(url));
    return wrap('v1', c);
  }
  const c = new V2Client({ name: 'test-v2', version: '2.0.0' }, {
    ...(kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    ...(onListChanged !== undefined ? { listChanged: { tools: { onChanged: () => onListChanged() } } } : {}),
  } as never);
  await c.connect(new V2Http(url));
  return wrap(kind, c);
};

/** A client of `kind` that starts `command args` and talks to it over stdio. */
export const stdioClient = async (
  kind: ClientKind,
  command: string,
  args: string[],
  options: { cwd?: string; onListChanged?: () => void; env?: Record<string, string> } = {},
): Promise<AnyClient> => {
  const params = { command, args, cwd: options.cwd ?? ROOT, stderr: 'pipe' as const, ...(options.env !== undefined ? { env: options.env } : {}) };
  if (kind === 'v1') {
    const c = new V1Client({ name: 'test-v1', version: '1.0.0' });
    if (options.onListChanged !== undefined) {
      const { ToolListChangedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
      c.setNotificationHandler(ToolListChangedNotificationSchema, async () => options.onListChanged?.());
    }
    await c.connect(new V1Stdio(params));
    return wrap('v1', c);
  }
  const c = new V2Client({ name: 'test-v2', version: '2.0.0' }, {
    ...(kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    ...(options.onListChanged !== undefined ? { listChanged: { tools: { onChanged: () => options.onListChanged?.() } } } : {}),
  } as never);
  await c.connect(new V2Stdio(params));
  return wrap(kind, c);
};
