/**
 * The `fetch` the MCP client (`client.ts`) gives the SDK's Streamable HTTP transport: each request
 * runs with an abort signal of its own, and its answer's body stops at a size.
 *
 * A signal of its own: the transport passes one signal, its own controller's, to every request
 * (with no per-request signal to join, as on the 2025 wire). Node 20's fetch (undici) removes a
 * request's listener from that signal only when the request is garbage-collected, so under many
 * calls the shared signal piled up a listener a request (past 1500, a `MaxListenersExceededWarning`
 * a request). Here the shared signal holds one listener a request in flight: added when the request
 * starts, removed when it settles (it failed, or its body was read to the end, failed or was
 * cancelled), and it aborts the request's own controller, so closing the connection still aborts
 * every request in flight. Node's fetch listens only to the request's own signal.
 */
import { onAbort } from '../core/abort.js';

// -------------------------------------------------------------------------------------------------
// the fetch
// -------------------------------------------------------------------------------------------------

/**
 * `fetch` whose requests run with a signal of their own (aborted when the caller's aborts, which
 * holds a listener only while the request is in flight), and whose response bodies stop at `max`
 * bytes (counted from the start of the body, or from the last blank line of an event stream, so a
 * long-lived stream of small events is not cut): the body errors instead of growing, and
 * `onOversize` is told.
 */
export const clientFetch =
  (max: number, onOversize: () => void) =>
  async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const { request, settled } = ownSignal(init);
    let res: Response;
    try {
      res = await fetch(url, request);
    } catch (e) {
      settled();
      throw e;
    }
    if (res.body === null) {
      settled();
      return res;
    }
    return new Response(cappedBody(res.body, max, onOversize, settled), { status: res.status, statusText: res.statusText, headers: res.headers });
  };

/** `init` with a signal of its own, aborted when `init.signal` aborts; `settled` stops listening to `init.signal`. */
const ownSignal = (init: RequestInit | undefined): { readonly request: RequestInit | undefined; readonly settled: () => void } => {
  const shared = init?.signal;
  if (shared === undefined || shared === null) return { request: init, settled: () => undefined };
  const own = new AbortController();
  if (shared.aborted) {
    own.abort(shared.reason);
    return { request: { ...init, signal: own.signal }, settled: () => undefined };
  }
  const settled = onAbort(shared, () => own.abort(shared.reason));
  return { request: { ...init, signal: own.signal }, settled };
};

/** `body` cut at `max` bytes (see `clientFetch`); `settled` is called when it ends, fails or is cancelled. */
const cappedBody = (body: ReadableStream<Uint8Array>, max: number, onOversize: () => void, settled: () => void): ReadableStream<Uint8Array> => {
  const reader = body.getReader();
  let since = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (e) {
        settled();
        throw e;
      }
      const { done, value } = chunk;
      if (done) {
        settled();
        controller.close();
        return;
      }
      const boundary = lastBlankLine(value);
      since = boundary < 0 ? since + value.byteLength : value.byteLength - boundary;
      if (since > max) {
        settled();
        onOversize();
        await reader.cancel().catch(() => undefined);
        controller.error(new Error(`the MCP server's answer exceeded maximum size of ${max} bytes`));
        return;
      }
      controller.enqueue(value);
    },
    cancel(reason) {
      settled();
      return reader.cancel(reason);
    },
  });
};

/** The offset just after the last `\n\n` of `b` (the end of an event-stream event), or -1. */
const lastBlankLine = (b: Uint8Array): number => {
  for (let i = b.length - 1; i > 0; i--) if (b[i] === 10 && (b[i - 1] === 10 || (b[i - 1] === 13 && i > 1 && b[i - 2] === 10))) return i + 1;
  return -1;
};
