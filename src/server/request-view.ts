/**
 * What the service's checks read of a request, whichever server object carries it: a web-standard
 * `Request` (the Hono path, and `service.fetch`) or Node's `IncomingMessage` (the direct path of the
 * invoke routes, serve-direct.ts). The host allow-list, the token, the origin, the scopes, the
 * identifying headers and the body are checked by one implementation that reads this view, so the
 * two paths cannot answer differently.
 *
 * Headers read as the Fetch standard's `Headers.get` reads them (and as `@hono/node-server` gives
 * them to Hono): every line of the name, trimmed, joined by `", "` (`Host: a` twice is `"a, a"`),
 * `null` when absent.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

export interface RequestView {
  /** `POST`, as sent. */
  readonly method: string;
  /** The absolute URL (`http://host/path?query`). */
  readonly url: string;
  readonly header: (name: string) => string | null;
  /** The whole body as text (read only when the length is declared, or for GET and HEAD). */
  readonly text: () => Promise<string>;
  /** The body as a stream, `null` when the request has none. */
  readonly stream: () => ReadableStream<Uint8Array> | null;
  /** Aborted when the client goes away (made on first use). */
  readonly signal: AbortSignal;
}

/** The view of a web-standard request (a class: a literal with a getter is built by the runtime, slowly). */
class WebView implements RequestView {
  constructor(private readonly request: Request) {}
  get method(): string {
    return this.request.method;
  }
  get url(): string {
    return this.request.url;
  }
  header(name: string): string | null {
    return this.request.headers.get(name);
  }
  text(): Promise<string> {
    return this.request.text();
  }
  stream(): ReadableStream<Uint8Array> | null {
    return this.request.body;
  }
  get signal(): AbortSignal {
    return this.request.signal;
  }
}

/** The view of a web-standard request. */
export const webView = (request: Request): RequestView => new WebView(request);

const isHttpWhitespace = (c: number): boolean => c === 9 || c === 10 || c === 13 || c === 32;

/** A header value without the HTTP whitespace around it (what `Headers` stores). */
const trimmed = (v: string): string => {
  let start = 0;
  let end = v.length;
  while (start < end && isHttpWhitespace(v.charCodeAt(start))) start++;
  while (end > start && isHttpWhitespace(v.charCodeAt(end - 1))) end--;
  return start === 0 && end === v.length ? v : v.slice(start, end);
};

/** A header of Node's raw header lines as `Headers.get` reads it (the name in any case, as there). */
const rawHeader = (raw: ReadonlyArray<string>, header: string): string | null => {
  const name = header.toLowerCase();
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const n = raw[i] as string;
    if (n.length === name.length && n.toLowerCase() === name) {
      const v = trimmed(raw[i + 1] as string);
      value = value === null ? v : `${value}, ${v}`;
    }
  }
  return value;
};

/** The body of a Node request, read whole. */
const readAll = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('the client went away before its body was read')));
  });

/**
 * The view of a Node request, whose absolute URL the caller has made (`http://${host}${req.url}`).
 * A class, not a literal of closures: one is made per request of the hot path.
 */
class NodeView implements RequestView {
  private controller: AbortController | undefined;
  /** Whether every header name comes once (worked out on the first read). */
  private distinct: boolean | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    readonly url: string,
  ) {}

  get method(): string {
    return this.req.method ?? 'GET';
  }

  header(name: string): string | null {
    // Node's own object of the headers (made once a request: the direct path reads the host from
    // it) says the same when no name comes twice; otherwise the raw lines, joined as Headers does
    this.distinct ??= Object.keys(this.req.headers).length * 2 === this.req.rawHeaders.length;
    if (!this.distinct) return rawHeader(this.req.rawHeaders, name);
    const v = this.req.headers[name.toLowerCase()];
    return v === undefined ? null : typeof v === 'string' ? trimmed(v) : rawHeader(this.req.rawHeaders, name);
  }

  text(): Promise<string> {
    const req = this.req;
    // the whole body already parsed (a small body comes in the packet of its headers): taken at once, no listeners
    // (`read()` without a size, not flowing, returns everything buffered, as one buffer)
    if (req.complete && !req.readableFlowing) {
      const chunk = req.read() as Buffer | null;
      return Promise.resolve(chunk === null ? '' : chunk.toString('utf8'));
    }
    return readAll(req);
  }

  stream(): ReadableStream<Uint8Array> | null {
    return Readable.toWeb(this.req) as unknown as ReadableStream<Uint8Array>;
  }

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      const c = new AbortController();
      this.controller = c;
      const res = this.res;
      res.once('close', () => {
        if (!res.writableFinished) c.abort();
      });
    }
    return this.controller.signal;
  }
}

export const nodeView = (req: IncomingMessage, res: ServerResponse, url: string): RequestView => new NodeView(req, res, url);
