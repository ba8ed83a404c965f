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
import type { RequestView } from './request-view.js';

export type Parsed<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly problem: Problem };

const fail = (code: string, detail: string, extensions: Readonly<Record<string, unknown>> = {}): Parsed<never> => ({
  ok: false,
  problem: problem(code, detail, extensions),
});

/** Whether a Content-Type is JSON (`application/json`, `application/…+json`). */
export const isJsonType = (contentType: string): boolean => {
  if (contentType === 'application/json') return true; // most requests: no split, no copies
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
export const readJsonBody = async (request: RequestView, limit: number): Promise<Parsed<unknown>> => {
  const declared = request.header('content-length');
  if (declared !== null && Number(declared) > limit)
    return fail(ServiceCodes.BODY_TOO_LARGE, `the body has ${declared} bytes; this server accepts at most ${limit}`, { limit });
  let text: string;
  if (declared !== null || request.method === 'GET' || request.method === 'HEAD') {
    // a declared length within the limit: read it at once (the server's fast path, which reads
    // the socket directly; touching `request.body` would build a web stream)
    text = await request.text();
  } else {
    const stream = request.stream();
    if (stream === null) return { ok: true, value: undefined };
    const read = await readStreamedBody(stream, limit);
    if (!read.ok) return read;
    text = read.value.toString('utf8');
  }
  if (text === '') return { ok: true, value: undefined };
  const contentType = request.header('content-type') ?? '';
  if (!isJsonType(contentType)) {
    return fail(
      ServiceCodes.UNSUPPORTED_MEDIA_TYPE,
      `the body must be JSON (Content-Type: application/json), got ${contentType === '' ? 'no Content-Type' : JSON.stringify(contentType.slice(0, 80))}`,
    );
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return fail(ServiceCodes.MALFORMED_JSON, `the body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
};

type QueryValue = string | boolean | number | ReadonlyArray<string> | undefined;

/** A query parameter the route refuses, and why (the problem's `invalidParams`, as RFC 9457's example names them). */
export interface QueryIssue {
  readonly name: string;
  readonly reason: string;
}

const shown = (raw: string): string => JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** Why one value of a string (or of a list's item) does not fit, or `undefined`. */
const stringIssue = (spec: QueryParameter, raw: string, pattern: RegExp | undefined): string | undefined => {
  if (spec.maxLength !== undefined && raw.length > spec.maxLength) return `longer than ${spec.maxLength} characters`;
  if (spec.enum !== undefined && !spec.enum.includes(raw)) return `${shown(raw)} is not one of ${spec.enum.join(', ')}`;
  if (pattern !== undefined && !pattern.test(raw)) return `${shown(raw)} does not match ${spec.pattern as string}`;
  return undefined;
};

/** The value of one declared parameter, or why it does not fit. */
const readOne = (
  spec: QueryParameter,
  all: ReadonlyArray<string>,
  pattern: RegExp | undefined,
): { readonly value: QueryValue } | { readonly reason: string } => {
  if (spec.kind === 'list') {
    const items = all
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (items.length > 200) return { reason: 'at most 200 values' };
    const bad = items.map((i) => stringIssue(spec, i, pattern)).filter((r) => r !== undefined);
    return bad.length > 0 ? { reason: bad.join('; ') } : { value: items };
  }
  if (all.length > 1) return { reason: `given ${all.length} times; give it once` };
  const raw = all[0] as string;
  if (spec.kind === 'boolean') return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : { reason: `must be true or false, got ${shown(raw)}` };
  if (spec.kind === 'integer') {
    const n = Number(raw);
    const fits = /^\d{1,9}$/.test(raw) && (spec.minimum === undefined || n >= spec.minimum) && (spec.maximum === undefined || n <= spec.maximum);
    return fits
      ? { value: n }
      : {
          reason: `must be a whole number${spec.minimum !== undefined ? ` from ${spec.minimum}` : ''}${spec.maximum !== undefined ? ` to ${spec.maximum}` : ''}, got ${shown(raw)}`,
        };
  }
  const why = stringIssue(spec, raw, pattern);
  return why === undefined ? { value: raw } : { reason: why };
};

/** The compiled patterns of a route's query parameters (made once per route). */
export const queryPatterns = (declared: Readonly<Record<string, QueryParameter>> | undefined): ReadonlyMap<string, RegExp> =>
  new Map(Object.entries(declared ?? {}).flatMap(([name, q]) => (q.pattern !== undefined ? [[name, new RegExp(q.pattern, 'u')] as const] : [])));

/**
 * The query, typed from the route's declarations. A parameter the route does not declare, or a
 * value that does not fit its declaration, is a 400 problem naming each (`invalidParams`): a
 * client's misspelt or misplaced parameter is never silently ignored.
 */
export const readQuery = (
  url: URL,
  declared: Readonly<Record<string, QueryParameter>> | undefined,
  patterns: ReadonlyMap<string, RegExp> = queryPatterns(declared),
): Parsed<Readonly<Record<string, QueryValue>>> => {
  const out: Record<string, QueryValue> = {};
  const issues: QueryIssue[] = [];
  const known = declared ?? {};
  for (const name of new Set(url.searchParams.keys())) {
    if (!Object.hasOwn(known, name)) issues.push({ name, reason: 'this route takes no such parameter' });
  }
  for (const [name, spec] of Object.entries(known)) {
    const all = url.searchParams.getAll(name);
    if (all.length === 0) continue;
    const r = readOne(spec, all, patterns.get(name));
    if ('reason' in r) issues.push({ name, reason: r.reason });
    else out[name] = r.value;
  }
  if (issues.length === 0) return { ok: true, value: out };
  const takes = Object.keys(known);
  const detail = `${issues.map((i) => `${i.name}: ${i.reason}`).join('; ')} (this route's query parameters: ${takes.length > 0 ? takes.join(', ') : 'none'})`;
  return fail(ServiceCodes.INVALID_REQUEST, `the query does not fit: ${detail}`, { invalidParams: issues });
};

const HEADER_VALUE = /^[\x21-\x7e\u00a0-\uffff][\x20-\x7e\u00a0-\uffff]{0,127}$/;

/** An identifying header (`X-Agent-ID`, `X-Project-ID`): at most 128 printable characters. */
export const readIdHeader = (request: RequestView, name: string): Parsed<string | undefined> => {
  const v = request.header(name);
  if (v === null || v === '') return { ok: true, value: undefined };
  return HEADER_VALUE.test(v) ? { ok: true, value: v } : fail(ServiceCodes.INVALID_REQUEST, `${name} must be at most 128 printable characters`);
};

/**
 * The caller's authenticated scopes: its token's (the service's gatekeeper identified it); on a
 * server without tokens, those its `X-Caller-Scopes` claims; none for a request the gatekeeper has
 * not seen. The one function every surface (REST, `/mcp`) asks.
 */
export const readScopes = (request: Request): ReadonlySet<string> => grantedScopes(request);
