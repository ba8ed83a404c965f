/**
 * Serving a tool source over stdio (one connection: the client that started the process). The
 * streams are passed in (only the CLI touches the process): `gramkit mcp` gives its own stdin and
 * stdout. When the source changes, the connected client gets `notifications/tools/list_changed`.
 *
 * The SDK's `serveStdio` decides the protocol era from the client's first message (2025-era
 * `initialize`, or a 2026-07-28 request), so clients of both SDK lines are served. The wire is
 * gramkit's stdio transport (stdio-transport.ts: the SDK's behaviour at a lower cost a message).
 */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { mcpServerFactory, type McpServeOptions } from './server.js';
import { NdjsonStdioTransport } from './stdio-transport.js';
import type { McpToolSource } from './tool-source.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export interface McpStdioOptions extends McpServeOptions {
  /** Where requests come from (the process's stdin, for `gramkit mcp`). */
  readonly stdin: Readable;
  /** Where responses go (the process's stdout). Nothing else may write to it. */
  readonly stdout: Writable;
  /** Out-of-band errors of the transport (a malformed message...): reporting only. */
  readonly onError?: (error: Error) => void;
}

export interface McpStdioServer {
  /** Settles when the connection ends (the client closed stdin, or `close()`). */
  readonly closed: Promise<void>;
  readonly close: () => Promise<void>;
}

// -------------------------------------------------------------------------------------------------
// serving
// -------------------------------------------------------------------------------------------------

export const serveMcpStdio = (source: McpToolSource, options: McpStdioOptions): McpStdioServer => {
  const live = new Set<Server>();
  const factory = mcpServerFactory(source, options);
  const track = (server: Server): void => {
    live.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      live.delete(server);
      previous?.();
    };
  };
  const wire = new NdjsonStdioTransport(options.stdin, options.stdout);
  const handle = serveStdio(() => factory(track), {
    transport: wire,
    ...(options.onError !== undefined ? { onerror: options.onError } : {}),
  });
  const unsubscribe = source.subscribe?.(() => {
    for (const server of live) void Promise.resolve(server.sendToolListChanged()).catch(() => {});
  });
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  // serveStdio owns the transport's onclose (set synchronously above): chain ours after it
  const theirs = wire.onclose;
  wire.onclose = () => {
    theirs?.();
    unsubscribe?.();
    resolveClosed();
  };
  return {
    closed,
    close: async () => {
      await handle.close();
      unsubscribe?.();
      resolveClosed();
    },
  };
};
