/**
 * Many calls at once through `connectMcp` over Streamable HTTP. The SDK's transport gives every
 * request one signal, its own controller's; Node 20's fetch removes a request's abort listener
 * from it only when the request is garbage-collected, so the listeners piled up, one a call made
 * (past 1500, a `MaxListenersExceededWarning` a call). The client runs each request with a signal
 * of its own, linked to the transport's while the request is in flight: every signal a request
 * runs with carries that request's listener only, and closing the connection still aborts the
 * requests in flight.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { bindAll, bindTool, type BoundTool, defineTool, invoke, parseSpecifications, toolLibrary } from '../../src/index.js';
import { connectMcp, createMcpHttpHandler, type McpConnection, McpCodes, staticToolSource } from '../../src/entries/mcp.js';
import { fixtureTools, listen } from './support.js';

/** What ends when a test ends (servers, connections, the fetch observer). */
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Records the signal of every request `fetch` runs (the global `fetch`, which the client calls) until the test ends. */
const observeFetch = (): Set<AbortSignal> => {
  const seen = new Set<AbortSignal>();
  const real = globalThis.fetch;
  globalThis.fetch = ((url: string | URL | Request, init?: RequestInit) => {
    if (init?.signal) seen.add(init.signal);
    return real(url, init);
  }) as typeof fetch;
  cleanups.push(() => {
    globalThis.fetch = real;
  });
  return seen;
};

/** The `MaxListenersExceededWarning`s the process emits until the test ends. */
const observeWarnings = (): Error[] => {
  const warnings: Error[] = [];
  const onWarning = (w: Error): void => {
    if (w.name === 'MaxListenersExceededWarning') warnings.push(w);
  };
  process.on('warning', onWarning);
  cleanups.push(() => process.off('warning', onWarning));
  return warnings;
};

const connect = async (handler: ReturnType<typeof createMcpHttpHandler>): Promise<McpConnection> => {
  const server = await listen(handler.node);
  cleanups.push(
    () => server.close(),
    () => handler.close(),
  );
  const c = await connectMcp(`mcp:${server.url.href}`);
  if (c._tag === 'Left') throw new Error(c.left.map((d) => d.message).join('\n'));
  cleanups.push(() => c.right.close());
  return c.right;
};

const bound = (connection: McpConnection, name: string): BoundTool => {
  const b = bindTool(connection.specifications.find((s) => s.name === name)!, connection.library);
  if (b._tag === 'Left') throw new Error(b.left.map((e) => e.message).join('; '));
  return b.right;
};

describe('many concurrent calls over Streamable HTTP', () => {
  it('each request’s signal carries its own listener only, however many calls were made; no MaxListenersExceededWarning', { timeout: 120_000 }, async () => {
    const warnings = observeWarnings();
    const signals = observeFetch();
    const connection = await connect(createMcpHttpHandler(staticToolSource(fixtureTools())));
    const shout = bound(connection, 'shout');
    // 4 waves of 400 calls in flight: 1,600 calls, past the 1,500 listeners Node's fetch allows a signal
    for (let wave = 0; wave < 4; wave++) {
      const results = await Promise.all(Array.from({ length: 400 }, (_, i) => invoke(shout, { text: `call ${wave}.${i}` })));
      expect(results.filter((r) => !r.ok)).toEqual([]);
      expect(results.map((r) => r.ok && r.value)).toEqual(Array.from({ length: 400 }, (_, i) => `CALL ${wave}.${i}`));
    }
    // the calls have ended: no signal a request ran with holds more than that request's listener
    const counts = [...signals].map((s) => getEventListeners(s, 'abort').length);
    expect(Math.max(...counts)).toBeLessThanOrEqual(1);
    expect(warnings.map((w) => w.message)).toEqual([]);
  });

  it('closing the connection aborts its requests in flight (the server sees them go); a closed connection’s call is a transport error', async () => {
    const gram = '[hold:Tool {description: "Waits until its request goes away"} | (label::String)==>(::String)]';
    let started = (): void => undefined;
    let aborted = (): void => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const gone = new Promise<void>((resolve) => (aborted = resolve));
    const hold = defineTool<{ label: string }>(
      gram,
      (_args, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              aborted();
              reject(new Error('the request went away'));
            },
            { once: true },
          );
          started();
        }),
      { name: 'hold' },
    );
    if (hold._tag === 'Left') throw new Error(hold.left.map((d) => d.message).join('\n'));
    const specs = parseSpecifications(gram);
    if (specs._tag === 'Left') throw new Error(specs.left.map((d) => d.message).join('\n'));
    const served = bindAll(specs.right.tools, toolLibrary([hold.right]));
    if (served._tag === 'Left') throw new Error(served.left.map((e) => e.message).join('; '));
    const connection = await connect(createMcpHttpHandler(staticToolSource(served.right)));
    const call = invoke(bound(connection, 'hold'), { label: 'x' });
    await running;
    await connection.close();
    await gone;
    const r = await call;
    expect(r.ok || [r.error.reason, r.error.retryable]).toEqual([McpCodes.TRANSPORT_ERROR, true]);
  });
});
