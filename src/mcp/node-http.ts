/**
 * A web-standard handler served on `node:http`: Node's request becomes a `Request` (streamed body,
 * aborted when the client goes away) and the `Response` is written back as it streams (an SSE
 * response is flushed event by event).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

const hasBody = (method: string): boolean => method !== 'GET' && method !== 'HEAD';

/**
 * Node's request as a web `Request`; the signal aborts when the response closes before it ends.
 * `body`: the body, when it was read already (the direct path, http-direct.ts); else it is streamed.
 */
export const toWebRequest = (req: IncomingMessage, signal: AbortSignal, body?: string): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const host = req.headers.host ?? 'localhost';
  const method = req.method ?? 'GET';
  return new Request(new URL(req.url ?? '/', `http://${host}`), {
    method,
    headers,
    signal,
    ...(hasBody(method) ? { body: body ?? (Readable.toWeb(req) as ReadableStream<Uint8Array>), duplex: 'half' } : {}),
  } as RequestInit);
};

/** Serves `req` with `fetch`, streaming the response into `res` (`body`: as for `toWebRequest`). Never rejects (a failure is a 500). */
export const handleNodeRequest = async (fetch: (r: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse, body?: string): Promise<void> => {
  const aborted = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  try {
    const response = await fetch(toWebRequest(req, aborted.signal, body));
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      const prev = headers[name];
      headers[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
    });
    res.writeHead(response.status, response.statusText, headers);
    if (response.body === null) {
      res.end();
      return;
    }
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
        if (aborted.signal.aborted) break;
      }
    } finally {
      if (aborted.signal.aborted) await reader.cancel().catch(() => {});
      res.end();
    }
  } catch (e) {
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `internal error: ${e instanceof Error ? e.message : String(e)}` } }));
    } else res.end();
  }
};
