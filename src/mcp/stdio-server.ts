/**
 * Serving a tool source over stdio (one connection: the client that started the process). The
 * streams are passed in (only the CLI touches the process): `gramkit mcp` gives its own stdin and
 * stdout. When the source changes, the connected client gets `notifications/tools/list_changed`.
 *
 * The SDK's `serveStdio` decides the protocol era from the client's first message (2025-era
 * `initialize`, or a 2026-07-28 request), so clients of both SDK lines are served. The wire is
 * gramkit's stdio transport (stdio-transport.ts: the SDK's behaviour at a lower cost a message).
 *
 * A plain `tools/call` of an initialised 2025-era connection (direct-path.ts) is answered on the wire
 * itself, through the server's one invoker, without the SDK's `Protocol`: the same bytes, at a
 * fraction of the cost. Its `notifications/cancelled` aborts its signal (and no answer is sent, as
 * the SDK does); the connection closing aborts it too. Everything else goes through the SDK.
 */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { CallCancellation, cancelledRequest, internalErrorOf, plainCall, plainList, type RequestId, responseOf } from './direct-path.js';
import { type McpServeOptions, mcpServing } from './server.js';
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

export const serveMcpStdio = (source: McpToolSource, options: McpStdioOptions): McpStdioServer => serveStdioWith(source, options, true);

/** `serveMcpStdio`, with the direct path on or off. Internal: off only to compare both paths (test/mcp/direct-path.test.ts). */
export const serveStdioWith = (source: McpToolSource, options: McpStdioOptions, direct: boolean): McpStdioServer => {
  const live = new Set<Server>();
  const serving = mcpServing(source, options);
  // the connection's SDK server (serveStdio makes one), once made
  let connection: Server | undefined;
  const track = (server: Server): void => {
    live.add(server);
    connection = server;
    const previous = server.onclose;
    server.onclose = () => {
      live.delete(server);
      if (connection === server) connection = undefined;
      previous?.();
    };
  };
  const wire = new NdjsonStdioTransport(options.stdin, options.stdout);
  // the direct path's calls in flight, by request id
  const calls = new Map<RequestId, CallCancellation>();
  const reportError = (e: unknown): void => options.onError?.(e instanceof Error ? e : new Error(String(e)));
  // the SDK handles a message a few microtasks after it arrives, so a call right behind a
  // `logging/setLevel` or a second `initialize` (in one chunk) would not see what they change yet:
  // once the wire has seen one, the connection's calls all go through the SDK, in order
  let sdkOnly = false;
  let initializes = 0;
  if (direct)
    wire.intercept = (message) => {
      // a direct call's cancellation is the direct path's, whatever came since
      const cancelled = cancelledRequest(message);
      if (cancelled !== undefined) {
        const c = calls.get(cancelled.id);
        if (c === undefined) return false;
        c.cancel(cancelled.reason);
        return true;
      }
      if (sdkOnly) return false;
      const method = (message as { method?: unknown }).method;
      if (method === 'logging/setLevel' || (method === 'initialize' && ++initializes > 1)) {
        sdkOnly = true;
        return false;
      }
      if (connection === undefined || !serving.plain(connection)) return false;
      const listing = plainList(message);
      if (listing !== undefined) {
        const result = serving.list(listing.cursor);
        if (result === undefined) return false;
        void wire.send(responseOf(listing.id, { ok: true, result }) as never).catch(reportError);
        return true;
      }
      const call = plainCall(message);
      if (call === undefined || calls.has(call.id)) return false;
      const cancellation = new CallCancellation();
      const answer = serving.call({ name: call.name, args: call.args, signalOf: cancellation.signalOf });
      if (answer === undefined) return false;
      calls.set(call.id, cancellation);
      void answer
        .then(
          (a) => responseOf(call.id, a),
          (e: unknown) => internalErrorOf(call.id, e),
        )
        .then((response) => {
          if (calls.get(call.id) === cancellation) calls.delete(call.id);
          if (!cancellation.cancelled) return wire.send(response as never);
        })
        .catch(reportError);
      return true;
    };
  const handle = serveStdio(() => serving.create(track), {
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
    for (const c of calls.values()) c.cancel(new Error('the connection closed'));
    calls.clear();
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
