/**
 * A service on a fresh flat-file catalog, called without a socket (`service.fetch`), for the
 * route tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Catalog, type CatalogOptions, openCatalog, openFileStore } from 'gramkit/catalog';
import { codeInfo } from 'gramkit';
import { ALL_SCOPES, type Credential, createService, type Service, type ServiceOptions } from 'gramkit/server';

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
  const call: Harness['call'] = async (method, path, o = {}) => {
    const body = o.raw ?? (o.body !== undefined ? JSON.stringify(o.body) : undefined);
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
      await opened.value.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

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
