/**
 * A service on a fresh flat-file catalog, for the route tests: called without a socket
 * (`service.fetch`), except the invoke routes, which are sent over a socket to the service as
 * `gramkit serve` runs it (`startServer`), so that their tests go through the direct path of those
 * routes (server/serve-direct.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Catalog, type CatalogOptions, openCatalog, openFileStore } from 'gramkit/catalog';
import { codeInfo } from 'gramkit';
import { request as httpRequest } from 'node:http';
import { ALL_SCOPES, type Credential, createService, type RunningServer, type Service, type ServiceOptions, startServer } from 'gramkit/server';

export interface Harness {
  readonly service: Service;
  readonly catalog: Catalog;
  readonly dir: string;
  /** A request to the service (JSON bodies by default); the response with its JSON (or text) read. */
  readonly call: (
    method: string,
    path: string,
    options?: { readonly body?: unknown; readonly raw?: string; readonly headers?: Record<string, string> },
  ) => Promise<Answer>;
  readonly close: () => Promise<void>;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly json: any;
}

export const harness = async (options: Partial<ServiceOptions> = {}, catalogOptions: Partial<CatalogOptions> = {}): Promise<Harness> => {
  const dir = mkdtempSync(join(tmpdir(), 'gramkit-service-'));
  const opened = await openCatalog({ store: openFileStore(join(dir, 'data')), workspace: dir, allowHosts: [], ...catalogOptions });
  if (!opened.ok) throw new Error(opened.error.message);
  const service = createService({ catalog: opened.value, ...options });
  let running: Promise<RunningServer> | undefined;
  const call: Harness['call'] = async (method, path, o = {}) => {
    const body = o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
    if (/\/invoke(\?|$)/.test(path)) {
      running ??= startServer(service, { port: 0 });
      const answer = await overSocket((await running).port, method, path, body, o.headers ?? {});
      // a header no HTTP client sends (a control character) is tested without the socket
      if (answer !== undefined) return answer;
    }
    const response = await service.fetch(
      new Request(`http://127.0.0.1:8081${path}`, {
        method,
        // a program's request: JSON declared on every POST, PUT and PATCH (a browser's is tested on its own)
        headers: { ...(body !== undefined || ['POST', 'PUT', 'PATCH'].includes(method) ? { 'content-type': 'application/json' } : {}), ...(o.headers ?? {}) },
        ...(body !== undefined ? { body } : {}),
      }),
    );
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  };
  return {
    service,
    catalog: opened.value,
    dir,
    call,
    close: async () => {
      if (running !== undefined) await (await running).close();
      await opened.value.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/**
 * A request over a socket, as `call` makes it (`Host: 127.0.0.1:8081` unless given, JSON declared
 * on a POST, PUT or PATCH); `undefined` when Node's client refuses to send a header.
 */
const overSocket = (
  port: number,
  method: string,
  path: string,
  body: string | undefined,
  headers: Readonly<Record<string, string>>,
): Promise<Answer | undefined> =>
  new Promise((resolve, reject) => {
    const given = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const all: Record<string, string> = {
      host: '127.0.0.1:8081',
      ...(body !== undefined || ['POST', 'PUT', 'PATCH'].includes(method) ? { 'content-type': 'application/json' } : {}),
      ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      ...given,
    };
    let req: ReturnType<typeof httpRequest>;
    try {
      req = httpRequest({ host: '127.0.0.1', port, method, path, headers: all, setHost: false, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const out = new Headers();
          for (let i = 0; i < res.rawHeaders.length; i += 2) out.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: out, text, json });
        });
        res.on('error', reject);
      });
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_INVALID_CHAR') return resolve(undefined);
      throw e;
    }
    req.on('error', reject);
    req.end(body);
  });

/** A problem document of that status whose `reason` is that precise code, and whose `code` is its canonical code. */
export const isProblem = (a: Answer, status: number, reason: string): void => {
  if (
    a.status !== status ||
    a.json?.reason !== reason ||
    a.json?.code !== codeInfo(reason)?.canonical ||
    !String(a.headers.get('content-type')).startsWith('application/problem+json')
  ) {
    throw new Error(`expected a ${status} ${reason} problem, got ${a.status} ${a.headers.get('content-type')} ${a.text.slice(0, 300)}`);
  }
  for (const k of ['type', 'title', 'status', 'detail', 'code', 'reason']) if (a.json[k] === undefined) throw new Error(`the problem has no ${k}: ${a.text}`);
};

/** Reads server-sent events from a response until `count` events arrived, then cancels the stream. */
export const readEvents = async (response: Response, count: number): Promise<Array<{ event: string; data: { type: string } & Record<string, unknown> }>> => {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const out: Array<{ event: string; data: { type: string } & Record<string, unknown> }> = [];
  while (out.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event !== undefined && data !== undefined) out.push({ event, data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return out;
};
/** A token that grants every scope (what `gramkit serve` generates). */
export const fullToken = (token: string): Credential => ({ name: 'test', token, scopes: ALL_SCOPES });
