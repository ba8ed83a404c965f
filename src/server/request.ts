/**
 * Reading a request: the body (capped while it streams, JSON only), the query parameters (typed
 * from the route's declarations: no coercion beyond what each declares), and the caller's headers
 * (`X-Agent-ID`, `X-Project-ID`) and scopes (caller.ts: its token's).
 * Every problem is a problem+json answer, never an exception.
 */
import { grantedScopes } from './caller.js';
import { ServiceCodes } from './codes.js';
import { type Problem, problem } from './problem.js';
import type { QueryParameter } from './route.js';

export type Parsed<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly problem: Problem };

const fail = (code: string, detail: string, extensions: Readonly<Record<string, unknown>> = {}): Parsed<never> => ({ ok: false, problem: problem(code, detail, extensions) });

/** Whether a Content-Type is JSON (`application/json`, `application/…+json`). */
export const isJsonType = (contentType: string): boolean => {
  const t = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  return t === 'application/json' || (t.startsWith('application/') && t.endsWith('+json'));
};

/** A body of unknown length, read up to `limit` bytes (the rest is not read). */
export const readStreamedBody = async (body: ReadableStream<Uint8Array>, limit: number): Promise<Parsed<Buffer>> => {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return fail(ServiceCodes.BODY_TOO_LARGE, `the body is larger than ${limit} bytes, the most this server accepts`, { limit });
    }
    chunks.push(value);
  }
  return { ok: true, value: Buffer.concat(chunks) };
};

/** The body as JSON (`undefined` when empty), at most `limit` bytes. */
export const readJsonBody = async (request: Request, limit: number): Promise<Parsed<unknown>> => {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) return fail(ServiceCodes.BODY_TOO_LARGE, `the body has ${declared} bytes; this server accepts at most ${limit}`, { limit });
  let text: string;
  if (declared !== null || request.method === 'GET' || request.method === 'HEAD') {
    // a declared length within the limit: read it at once (the server's fast path, which reads
    // the socket directly; touching `request.body` would build a web stream)
    text = await request.text();
  } else if (request.body === null) {
    return { ok: true, value: undefined };
  } else {
    const read = await readStreamedBody(request.body, limit);
    if (!read.ok) return read;
    text = read.value.toString('utf8');
  }
  if (text === '') return { ok: true, value: undefined };
  const contentType = request.headers.get('content-type') ?? '';
  if (!isJsonType(contentType)) {
    return fail(ServiceCodes.UNSUPPORTED_MEDIA_TYPE, `the body must be JSON (Content-Type: application/json), got ${contentType === '' ? 'no Content-Type' : JSON.stringify(contentType.slice(0, 80))}`);
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return fail(ServiceCodes.MALFORMED_JSON, `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
};

type QueryValue = string | boolean | number | ReadonlyArray<string> | undefined;

/** The declared query parameters, typed; undeclared ones are ignored. */
export const readQuery = (url: URL, declared: Readonly<Record<string, QueryParameter>> | undefined): Parsed<Readonly<Record<string, QueryValue>>> => {
  const out: Record<string, QueryValue> = {};
  for (const [name, spec] of Object.entries(declared ?? {})) {
    const all = url.searchParams.getAll(name);
    if (all.length === 0) continue;
    if (spec.kind === 'list') {
      const items = all.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
      if (items.length > 200) return fail(ServiceCodes.INVALID_REQUEST, `${name}: at most 200 values`);
      out[name] = items;
      continue;
    }
    if (all.length > 1) return fail(ServiceCodes.INVALID_REQUEST, `${name} is given ${all.length} times; give it once`);
    const raw = all[0] as string;
    if (spec.kind === 'boolean') {
      if (raw !== 'true' && raw !== 'false') return fail(ServiceCodes.INVALID_REQUEST, `${name} must be true or false, got ${JSON.stringify(raw.slice(0, 40))}`);
      out[name] = raw === 'true';
    } else if (spec.kind === 'integer') {
      const n = Number(raw);
      if (!/^\d{1,9}$/.test(raw) || (spec.minimum !== undefined && n < spec.minimum) || (spec.maximum !== undefined && n > spec.maximum)) {
        return fail(ServiceCodes.INVALID_REQUEST, `${name} must be a whole number${spec.minimum !== undefined ? ` from ${spec.minimum}` : ''}${spec.maximum !== undefined ? ` to ${spec.maximum}` : ''}, got ${JSON.stringify(raw.slice(0, 40))}`);
      }
      out[name] = n;
    } else {
      if (spec.maxLength !== undefined && raw.length > spec.maxLength) return fail(ServiceCodes.INVALID_REQUEST, `${name} is longer than ${spec.maxLength} characters`);
      out[name] = raw;
    }
  }
  return { ok: true, value: out };
};

const HEADER_VALUE = /^[\x21-\x7e\u00a0-\uffff][\x20-\x7e\u00a0-\uffff]{0,127}$/;

/** An identifying header (`X-Agent-ID`, `X-Project-ID`): at most 128 printable characters. */
export const readIdHeader = (request: Request, name: string): Parsed<string | undefined> => {
  const v = request.headers.get(name);
  if (v === null || v === '') return { ok: true, value: undefined };
  return HEADER_VALUE.test(v) ? { ok: true, value: v } : fail(ServiceCodes.INVALID_REQUEST, `${name} must be at most 128 printable characters`);
};

/**
 * The caller's authenticated scopes: its token's (the service's gatekeeper identified it); on a
 * server without tokens, those its `X-Caller-Scopes` claims; none for a request the gatekeeper has
 * not seen. The one function every surface (REST, `/mcp`) asks.
 */
export const readScopes = (request: Request): ReadonlySet<string> => grantedScopes(request);
